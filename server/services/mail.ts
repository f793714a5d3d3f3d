import type { Permission } from '../../contract/auth';
import { PASSWORD_LINK_KINDS, type MailQuery, type MailSettings } from '../../contract/mail';
import { listMail, retryMail } from '../db/mail.repo';
import { HttpError } from '../http-error';
import { inTransaction, mailConfigured, type ServiceContext } from './context';

/**
 * The outbox as the Mail screen shows it (users.manage): a reader sees the kinds of mail their
 * permissions allow (what a mail says of applications or messages stays with those who may read
 * them; the digest names both), password links without their token; a mail not sent can be put
 * back in line.
 */
export function kindsFor(permissions: readonly Permission[]): string[] {
  const kinds: string[] = [...PASSWORD_LINK_KINDS];
  const applications = permissions.includes('applications.read');
  const messages = permissions.includes('messages.read');
  if (applications) kinds.push('application-ack', 'application-notice');
  if (messages) kinds.push('message-ack', 'message-notice');
  if (applications && messages) kinds.push('digest');
  return kinds;
}

/** What the Mail screen says of the settings: sending, the From, where replies go. */
export const mailSettings = (ctx: ServiceContext): MailSettings => ({
  sends: mailConfigured(ctx),
  from: ctx.config.MAIL_FROM,
  contact_reply_to: ctx.config.CONTACT_REPLY_TO ?? null,
  hiring_reply_to: ctx.config.HIRING_REPLY_TO ?? null,
});

export const listOutbox = (ctx: ServiceContext, q: MailQuery, permissions: readonly Permission[]) =>
  listMail(ctx.db, q, kindsFor(permissions));

/** Puts a mail that was not sent back in line at once, with a new 24 hours; audited. */
export async function retry(ctx: ServiceContext, id: number, permissions: readonly Permission[]) {
  await inTransaction(ctx, async (c) => {
    if (!(await retryMail(c.trx, id, kindsFor(permissions))))
      throw new HttpError(
        404,
        'No mail waits with this number: it was sent, or it is a password link (its person asks for a new one).',
      );
    await c.audit({ action: 'retry', entity: 'mail', entityId: id });
    c.announce({ type: 'mail.queued' });
  });
  return {
    message: mailConfigured(ctx)
      ? 'The mail is being sent again.'
      : 'The mail waits in the outbox: mail is not set up (SMTP_URL).',
  };
}
