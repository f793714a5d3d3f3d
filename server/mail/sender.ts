import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import { messageOfReplyMail } from '../db/contact-admin.repo';
import { claimDueMail, markAttemptFailed, markSent } from '../db/mail.repo';
import type { Database } from '../db/schema';
import type { EventPublisher } from '../events/domain-events';
import { backoffMs } from '../lib/backoff';

/**
 * Delivers the outbox (db/mail.repo.ts) over SMTP with nodemailer. A process leases one due mail at a
 * time (MAIL_LEASE_SECONDS), sends it with its stored Message-ID, and records the outcome: sent; or,
 * after a failure, tried again after a wait that doubles from MAIL_RETRY_SECONDS up to an hour;
 * given up ('failed') after 24 hours, or at once when the mail server refuses the mail for good
 * (a 5xx answer). A process killed mid-send leaves its lease to run out; another process (or the
 * same one restarted) then sends the mail again with the same Message-ID, so at most one
 * duplicate reaches a reader, recognisable as such.
 */

export const MAIL_GIVE_UP_MS = 24 * 3_600_000;
export const MAIL_BACKOFF_MAX_MS = 3_600_000;

/** What sends one mail: nodemailer's transport, or anything with its sendMail. */
export interface MailTransport {
  sendMail(mail: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    messageId: string;
  }): Promise<unknown>;
}

/**
 * A transport for SMTP_URL (nodemailer reads host, port, user, password and options from it).
 * Connecting, the greeting and each later step time out after `timeoutMs` unless the address's
 * query says otherwise (`?socketTimeout=...`); sendDueMail also ends the whole conversation at
 * 80% of the lease, so a slow server cannot keep a mail past its lease.
 */
export function smtpTransport(smtpUrl: string, timeoutMs = 30_000): MailTransport & { close(): void } {
  const url = new URL(smtpUrl);
  for (const name of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(timeoutMs));
  }
  return nodemailer.createTransport(url.toString());
}

export interface SendOptions {
  holder: string;
  /** How long a mail is held while it is sent (MAIL_LEASE_SECONDS). */
  leaseMs: number;
  /** True once the process is shutting down: the mail being sent is finished, no other is started. */
  stopped?: () => boolean;
  from: string;
  /** The Reply-To of each kind of mail that has one ('message-ack': CONTACT_REPLY_TO, ...). */
  replyTo?: Partial<Record<string, string>>;
  retryBaseMs: number;
  now?: () => Date;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Where each delivery (sent, retrying, failed) is announced (events/domain-events.ts). */
  events?: EventPublisher;
}

/** The send, or a failure once `ms` have passed (the mail is then tried again later). */
function withDeadline<T>(send: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The mail server took more than ${ms / 1000} s`)), ms);
  });
  return Promise.race([send, late]).finally(() => clearTimeout(timer));
}


/** A refusal that trying again will not change (an SMTP 5xx answer). */
const isPermanent = (err: unknown) => {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * Announces an attempt (the Mail screen), and that the timeline of the record the mail belongs to
 * changed (an application's mail to its candidate, a reply to a message's writer): their "Queued"
 * becomes "Sent" or "Failed" on the screens open at that moment.
 */
async function announceDelivery(
  db: Kysely<Database>,
  events: EventPublisher | undefined,
  mail: { mail_id: number; kind: string; application_id: number | null },
  status: 'sent' | 'failed' | 'retrying',
) {
  if (!events) return;
  events.publish({ type: 'mail.delivery', mail_id: mail.mail_id, status });
  if (status === 'retrying') return;
  if (mail.application_id !== null)
    events.publish({ type: 'application.timeline_changed', application_id: Number(mail.application_id) });
  if (mail.kind === 'message-reply') {
    const messageId = await messageOfReplyMail(db, mail.mail_id);
    if (messageId !== undefined) events.publish({ type: 'message.changed', message_id: messageId });
  }
}

/** Sends every mail that is due now; answers how many were sent and how many failed. */
export async function sendDueMail(
  db: Kysely<Database>,
  transport: MailTransport,
  o: SendOptions,
): Promise<{ sent: number; failed: number }> {
  const clock = o.now ?? (() => new Date());
  let sent = 0;
  let failed = 0;
  // a process shutting down stops after the mail it is sending
  while (!o.stopped?.()) {
    // one mail at a time: a process killed mid-send holds only the mail it was sending
    const batch = await claimDueMail(db, { holder: o.holder, now: clock(), leaseMs: o.leaseMs, limit: 1 });
    if (batch.length === 0) break;
    for (const mail of batch) {
      try {
        await withDeadline(
          transport.sendMail({
            from: o.from,
            ...(o.replyTo?.[mail.kind] && { replyTo: o.replyTo[mail.kind] }),
            to: mail.to_address,
            subject: mail.subject,
            text: mail.text_body,
            html: mail.html_body,
            messageId: mail.message_id,
          }),
          // the whole conversation ends well before the lease, whatever each step's timeout
          Math.floor(o.leaseMs * 0.8),
        );
        await markSent(db, mail, o.holder, clock());
        sent += 1;
        // telling the screens never makes a sent mail count as failed
        await announceDelivery(db, o.events, mail, 'sent').catch(() => undefined);
      } catch (err) {
        failed += 1;
        const now = clock();
        const reason = err instanceof Error ? err.message : String(err);
        const giveUp = isPermanent(err) || now.getTime() - Date.parse(mail.created_at) >= MAIL_GIVE_UP_MS;
        const retryAt = giveUp ? null : new Date(now.getTime() + backoffMs(o.retryBaseMs, mail.attempts, MAIL_BACKOFF_MAX_MS));
        await markAttemptFailed(db, mail, o.holder, reason, retryAt);
        await announceDelivery(db, o.events, mail, giveUp ? 'failed' : 'retrying').catch(() => undefined);
        if (giveUp)
          o.log?.error(
            { mail_id: mail.mail_id, kind: mail.kind, err: reason },
            'A mail could not be sent; gave up',
          );
        else
          o.log?.warn(
            { mail_id: mail.mail_id, kind: mail.kind, err: reason, retry_at: retryAt!.toISOString() },
            'A mail could not be sent; trying again later',
          );
      }
    }
  }
  if (sent > 0) o.log?.info({ sent }, 'Mail sent');
  return { sent, failed };
}
