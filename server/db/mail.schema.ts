import type { Generated } from 'kysely';

/**
 * Tables of email (migration 0900). `Database` in schema.ts extends this interface. Timestamps
 * are ISO 8601 strings in UTC.
 */

/** One mail to send: rendered when it was queued, sent by server/mail/sender.ts. */
export interface MailOutboxTable {
  mail_id: Generated<number>;
  /** The Message-ID header (`<uuid@host>`): the same on every attempt, so a resend is recognisable. */
  message_id: string;
  /** 'application-notice', 'message-notice', 'application-ack', 'message-ack', 'password-reset', 'invitation', 'digest', 'mention-notice', 'candidate-mail', 'message-reply', 'assignment-notice'. */
  kind: string;
  lang: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** 'pending' until sent ('sent') or given up after 24 hours ('failed'). */
  status: Generated<string>;
  attempts: Generated<number>;
  /** Not sent before this time (the backoff after a failed attempt). */
  next_attempt_at: string;
  /** The process sending it now (host:pid:random), with `lease_until`. */
  holder: string | null;
  /** '' or a past time: nobody is sending it. */
  lease_until: Generated<string>;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** An acknowledgment's normalised mailbox (the daily cap counts by it); null for other mails. */
  mailbox: string | null;
  /** The application a mail to its candidate is about (migration 2400); null for other mails. */
  application_id: number | null;
}

/** A single-use password link: reset (30 minutes) or invitation (72 hours). */
export interface PasswordTokenTable {
  /** SHA-256 (hex) of the token in the link; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  purpose: 'reset' | 'invite';
  created_at: string;
  expires_at: string;
}

export interface MailTables {
  mail_outbox: MailOutboxTable;
  password_token: PasswordTokenTable;
}
