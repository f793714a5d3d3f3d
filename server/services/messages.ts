import {
  CONTACT_MESSAGES as M,
  ContactMessageInput,
  contactFormErrors,
  type ContactMessageAnswer,
} from '../../contract/contact';
import {
  MESSAGE_ADMIN_TEXTS as ADMIN,
  type ContactMessagesQuery,
} from '../../contract/admin-messages';
import { fieldErrorAnswer } from '../../contract/form-rules';
import { cleanSource } from '../../contract/insights';
import {
  deleteMessage as removeMessage,
  listContactMessages,
  setMessageHandled,
} from '../db/contact-admin.repo';
import { findByIdempotencyKey, insertContactMessage } from '../db/contact.repo';
import { HttpError } from '../http-error';
import { queueMessageMails } from '../mail/mails';
import { lastChangeOf } from '../db/audit.repo';
import { staleVersion } from '../lib/versions';
import { inTransaction, type ServiceContext } from './context';

/**
 * Contact messages: the contact form's one write path (`receiveMessage`), and the inbox
 * (messages.read, messages.manage). A message, the writer's acknowledgment and the staff notices
 * are stored in one transaction, or none of them.
 */

export const UNAVAILABLE = 'Your message could not be sent right now. Please try again in a moment.';

/** What the form answers: 201 with the message's id, or 400 with the refused fields. */
export interface MessageReceipt {
  status: number;
  body: ContactMessageAnswer | { message: string; errors: Record<string, string> };
}

/** The message already stored under an Idempotency-Key (a twin request), if any. */
export async function messageByKey(
  ctx: ServiceContext,
  key: string,
): Promise<ContactMessageAnswer | undefined> {
  const twin = await findByIdempotencyKey(ctx.db, key).catch(() => undefined);
  return twin && { message: M.success, message_id: twin.message_id };
}

/**
 * Checks and stores one message sent through the contact form. A filled honeypot gets the normal
 * answer and nothing is kept; a database failure before the message is stored is a 503 (the form
 * keeps what was typed), unless a twin with the same key stored it a moment ago.
 */
export async function receiveMessage(
  ctx: ServiceContext,
  body: Record<string, unknown>,
  key: string | null,
): Promise<MessageReceipt> {
  if (typeof body.website === 'string' && body.website.trim() !== '') {
    ctx.log.info({}, 'Contact form honeypot filled; nothing stored');
    return { status: 201, body: { message: M.success, message_id: 0 } };
  }
  const parsed = ContactMessageInput.safeParse(body);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'request')] ??= issue.message;
    return { status: 400, body: { message: 'Please check the highlighted fields.', errors } };
  }
  const input = parsed.data;
  const refused = contactFormErrors(input);
  if (Object.keys(refused).length > 0)
    return { status: 400, body: fieldErrorAnswer('Please check the highlighted fields.', refused, M) };
  try {
    const messageId = await inTransaction(ctx, async (c) => {
      const id = await insertContactMessage(c.trx, {
        name: input.name,
        email: input.email,
        company: input.company,
        message: input.message,
        lang: input.lang ?? 'en',
        idempotency_key: key,
        source: cleanSource(input),
      });
      await queueMessageMails(
        c.trx,
        ctx.config,
        { name: input.name, email: input.email, lang: input.lang, messageId: id },
        c.at,
      );
      c.announce({ type: 'message.received', message_id: id });
      c.announce({ type: 'mail.queued' });
      return id;
    });
    return { status: 201, body: { message: M.success, message_id: messageId } };
  } catch (err) {
    // A concurrent twin with the same key won the race: answer as it did.
    const twin = key ? await messageByKey(ctx, key) : undefined;
    if (twin) return { status: 201, body: twin };
    ctx.log.error({ err }, 'Contact message could not be stored');
    throw new HttpError(503, UNAVAILABLE);
  }
}

/** A page of the inbox; the assignee filter's 'me' is the reader. */
export const listMessages = (ctx: ServiceContext, q: ContactMessagesQuery) =>
  listContactMessages(ctx.db, q, ctx.actor?.user_id ?? 0);

/**
 * Marks a message handled or open again if it is still at `version` (409 with the message as it
 * is now when someone changed it the other way meanwhile); audited when it changes.
 */
export async function setHandled(ctx: ServiceContext, id: number, handled: boolean, version: number) {
  const row = await inTransaction(ctx, async (c) => {
    const updated = await setMessageHandled(c.trx, id, handled, version);
    if (updated?.stale) {
      throw staleVersion(updated.row, await lastChangeOf(c.trx, 'contact_message', id));
    }
    if (updated?.changed) {
      await c.audit({ action: 'update', entity: 'contact_message', entityId: id, detail: { handled } });
      c.announce({ type: 'message.changed', message_id: id });
    }
    return updated?.row;
  });
  if (!row) throw new HttpError(404, ADMIN.notFound);
  return { message: handled ? ADMIN.markedHandled : ADMIN.markedOpen, row };
}

/**
 * An admin deletes a message for good (a writer asked for it, or it is spam): the row and its
 * search entry. The audit row keeps only that a message was deleted, not what it said or who
 * wrote it.
 */
export async function deleteMessage(ctx: ServiceContext, id: number) {
  const deleted = await inTransaction(ctx, async (c) => {
    if (!(await removeMessage(c.trx, id))) return false;
    await c.audit({ action: 'delete', entity: 'contact_message' });
    c.announce({ type: 'message.deleted', message_id: id });
    return true;
  });
  if (!deleted) throw new HttpError(404, ADMIN.notFound);
  ctx.log.info({}, 'Contact message deleted by an admin');
  return { message: ADMIN.deleted };
}
