import { z } from 'zod/mini';
import { PAGE_NUMBER_MAX } from './paging';
import { whole } from './ids';

/**
 * Email: password links (forgot password, invitations), each user's notices, and the outbox the
 * back office shows (the Mail screen, the status panel). Shared by the server and the browser.
 */

/** A notice: one mail each, one daily digest, or none. */
export const NOTICE_CHOICES = ['each', 'digest', 'off'] as const;
export const NoticeChoice = z.enum(NOTICE_CHOICES);
export type NoticeChoice = z.infer<typeof NoticeChoice>;

/**
 * GET/PATCH /api/auth/notices: the signed-in user's choices. A kind is null when the user may not
 * read what it is about (no applications.read / messages.read): there is nothing to choose. A
 * PATCH sends the version it is based on (If-Match): 428 without, 409 with the choices as they
 * are now when another tab of theirs changed them.
 */
export const NoticePrefs = z.object({
  applications: z.nullable(NoticeChoice),
  messages: z.nullable(NoticeChoice),
  /** The version of these choices: a change sends it back (If-Match; docs/decisions/022). */
  version: z.optional(z.number()),
});
export type NoticePrefs = z.infer<typeof NoticePrefs>;
export const NoticePrefsBody = z.object({
  applications: z.optional(NoticeChoice),
  messages: z.optional(NoticeChoice),
  /** The back office's language now: notices are written in it. */
  lang: z.optional(z.string().check(z.maxLength(5))),
});
export type NoticePrefsBody = z.infer<typeof NoticePrefsBody>;

/** A reset link works this long; an invitation this long. */
export const RESET_LINK_MINUTES = 30;
export const INVITATION_HOURS = 72;

/** GET /api/auth/forgot-password: whether the site can send a reset link (mail is set up). */
export const ForgotPasswordStatus = z.object({ available: z.boolean() });
export type ForgotPasswordStatus = z.infer<typeof ForgotPasswordStatus>;

/** POST /api/auth/forgot-password: the same answer whether or not the address has an account. */
export const ForgotPasswordBody = z.object({
  email: z
    .string()
    .check(z.trim(), z.toLowerCase(), z.minLength(1, { error: 'Email is required' }), z.maxLength(254)),
  /** The page's language: the mail is written in it. */
  lang: z.optional(z.string().check(z.maxLength(5))),
});
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

/** POST /api/auth/reset-password: the link's token and the new password. */
export const ResetPasswordBody = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(200)),
  password: z.string().check(z.minLength(1, { error: 'Password is required' }), z.maxLength(1024)),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** Refusals of a reset link, shared so the page and the tests read the same words. */
export const PASSWORD_LINK_MESSAGES = {
  unavailable: 'This site cannot send email yet. Ask an administrator to reset your password.',
  sent: 'If an account exists for that address, a link to choose a new password is on its way. It works for 30 minutes.',
  invalid: 'This link has expired or has already been used.',
  done: 'Your password is set. Sign in with it.',
} as const;

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;

/** Mails that carry a password link: never shown with their token, never sent again. */
export const PASSWORD_LINK_KINDS = ['password-reset', 'invitation'] as const;
export const isPasswordLinkKind = (kind: string) => (PASSWORD_LINK_KINDS as readonly string[]).includes(kind);
export const MailStatusName = z.enum(MAIL_STATUSES);

/** GET /api/admin/mail (users.manage). */
export const MailQuery = z.object({
  pagenum: z._default(whole(1, PAGE_NUMBER_MAX), 1),
  pagesize: z._default(whole(1, 100), 20),
  status: z.optional(MailStatusName),
});
export type MailQuery = z.output<typeof MailQuery>;

export const MailRow = z.object({
  mail_id: z.number().check(z.int()),
  kind: z.string(),
  lang: z.string(),
  to_address: z.string(),
  subject: z.string(),
  /** The start of the plain-text body. */
  preview: z.string(),
  status: z.string(),
  attempts: z.number().check(z.int()),
  last_error: z.nullable(z.string()),
  created_at: z.string(),
  sent_at: z.nullable(z.string()),
  total_count: z.optional(z.number().check(z.int())),
});
export type MailRow = z.infer<typeof MailRow>;
export const MailRows = z.array(MailRow);

/**
 * GET /api/admin/mail/settings: whether mail leaves the site (SMTP_URL), its From, and where replies
 * to the site's mails go (CONTACT_REPLY_TO, HIRING_REPLY_TO; null: unset, replies reach the From,
 * which nobody reads).
 */
export const MailSettings = z.object({
  sends: z.boolean(),
  from: z.string(),
  contact_reply_to: z.nullable(z.string()),
  hiring_reply_to: z.nullable(z.string()),
});
export type MailSettings = z.infer<typeof MailSettings>;

/** The outbox at a glance (the status panel): whether SMTP is set up, waiting, sent today, given up. */
export const MailStatus = z.object({
  configured: z.boolean(),
  pending: z.number(),
  sent_today: z.number(),
  failed: z.number(),
  last_error: z.nullable(z.string()),
});
export type MailStatus = z.infer<typeof MailStatus>;
