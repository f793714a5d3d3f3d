import {
  MESSAGE_ADMIN_TEXTS as ADMIN,
  REPLY_MAX,
  type Assignee,
} from '../../contract/admin-messages';
import type { Timeline, TimelineEvent } from '../../contract/application-timeline';
import { auditOf } from '../db/application-timeline.repo';
import { usersWithPermission } from '../db/auth.repo';
import { lastChangeOf } from '../db/audit.repo';
import {
  getContactMessage,
  insertReply,
  repliesOf,
  setMessageAssignee,
  setMessageHandled,
} from '../db/contact-admin.repo';
import { HttpError } from '../http-error';
import { cleanText } from '../lib/plain-text';
import { staleVersion } from '../lib/versions';
import { queueAssignmentNotice, queueMessageReply } from '../mail/mails';
import { inTransaction, type ServiceContext } from './context';
import { detailOf, inTimeOrder, mailState, nameOf } from './application-timeline';

/**
 * Answering contact messages from the inbox (docs/decisions/026-application-timeline.md): a message's timeline (received,
 * assignments, replies with their delivery state), replies to its writer through the outbox
 * (Reply-To CONTACT_REPLY_TO, the writer's message quoted), and assignment to a colleague who may
 * read messages (who is mailed a notice). docs/decisions/026-application-timeline.md.
 */

/** Colleagues a message can be assigned to: active users who may read messages. */
export async function assignees(ctx: ServiceContext): Promise<Assignee[]> {
  return (await usersWithPermission(ctx.db, 'messages.read')).map((u) => ({
    user_id: u.user_id,
    name: nameOf(u.display_name, u.email),
  }));
}

/** The timeline of message `id` (404 when it does not exist). */
export async function threadOf(ctx: ServiceContext, id: number): Promise<Timeline> {
  const message = await getContactMessage(ctx.db, id);
  if (!message) throw new HttpError(404, ADMIN.notFound);
  const [replies, audits] = await Promise.all([
    repliesOf(ctx.db, id),
    auditOf(ctx.db, id, ['assign'], 'contact_message'),
  ]);
  const events: TimelineEvent[] = [{ kind: 'received', at: message.created_at }];
  for (const a of audits) {
    const to = String(detailOf(a.detail).to ?? '');
    events.push({ kind: 'assigned', at: a.at, by: nameOf(a.display_name, a.actor_email), to });
  }
  for (const r of replies) {
    events.push({
      kind: 'mail',
      at: r.created_at,
      mail: 'message-reply',
      by: nameOf(r.display_name, r.author_email),
      subject: r.subject ?? '',
      to: r.to_address ?? message.email,
      // a reply whose mail the outbox already let go (retention) was sent
      status: mailState(r.status, 'sent'),
      sent_at: r.sent_at ?? null,
      text: r.text,
    });
  }
  return { events: inTimeOrder(events), colleagues: [], replies_to: ctx.config.CONTACT_REPLY_TO ?? null };
}

/**
 * The context's actor replies to the writer of message `id`: the words cleaned, 1 to REPLY_MAX
 * characters, queued in the outbox with the message quoted, kept with the message; audited
 * without the words. A message answered is handled (in the same change, audited as marking it
 * handled): the answer carries the row at its new version, so the inbox shows it without a reload
 * and "Mark open" is one click away (docs/decisions/033-small-slips.md).
 */
export async function sendReply(ctx: ServiceContext, id: number, raw: string) {
  const text = cleanText(raw);
  const refuse = (code: 'textEmpty' | 'textTooLong') => HttpError.fields(ADMIN[code], { text: code }, ADMIN);
  if (text === '') throw refuse('textEmpty');
  if (Array.from(text).length > REPLY_MAX) throw refuse('textTooLong');
  const actor = ctx.actor;
  if (!actor) throw new HttpError(401, 'Sign in first.');
  const row = await inTransaction(ctx, async (c) => {
    const message = await getContactMessage(c.trx, id);
    if (!message) throw new HttpError(404, ADMIN.notFound);
    const mailId = await queueMessageReply(
      c.trx,
      ctx.config,
      {
        to: message.email,
        lang: message.lang,
        text,
        original: message.message,
        receivedAt: message.created_at,
      },
      c.at,
    );
    await insertReply(
      c.trx,
      { message_id: id, author_id: actor.user_id, author_email: actor.email, text, mail_id: mailId },
      c.at,
    );
    await c.audit({ action: 'reply', entity: 'contact_message', entityId: id });
    c.announce({ type: 'message.changed', message_id: id });
    c.announce({ type: 'mail.queued' });
    if (message.handled) return (await getContactMessage(c.trx, id))!;
    // the repository always reads a message's version
    const handled = await setMessageHandled(c.trx, id, true, message.version!);
    await c.audit({ action: 'update', entity: 'contact_message', entityId: id, detail: { handled: true } });
    return handled!.row;
  });
  ctx.log.info({ message_id: id }, 'Reply to a contact message queued');
  return { message: ADMIN.replySent, timeline: await threadOf(ctx, id), row };
}

/**
 * Assigns message `id` to a colleague who may read messages (null: nobody) if it is still at
 * `version` (409 with the message as it is now otherwise); audited with the assignee's name; the
 * colleague (unless they assigned it to themselves) is mailed a notice.
 */
export async function assignMessage(ctx: ServiceContext, id: number, userId: number | null, version: number) {
  const row = await inTransaction(ctx, async (c) => {
    const staff = await usersWithPermission(c.trx, 'messages.read');
    const assignee = userId === null ? null : staff.find((u) => u.user_id === userId);
    if (assignee === undefined)
      throw HttpError.fields(ADMIN.assigneeInvalid, { user_id: 'assigneeInvalid' }, ADMIN);
    const updated = await setMessageAssignee(c.trx, id, userId, version);
    if (!updated) return undefined;
    if (updated.stale) throw staleVersion(updated.row, await lastChangeOf(c.trx, 'contact_message', id));
    if (!updated.changed) return updated.row;
    const to = assignee ? nameOf(assignee.display_name, assignee.email) : '';
    await c.audit({ action: 'assign', entity: 'contact_message', entityId: id, detail: { to } });
    c.announce({ type: 'message.changed', message_id: id });
    if (assignee && assignee.user_id !== ctx.actor?.user_id) {
      const me = staff.find((u) => u.user_id === ctx.actor?.user_id);
      await queueAssignmentNotice(
        c.trx,
        ctx.config,
        {
          to: { email: assignee.email, lang: assignee.lang },
          by: nameOf(me?.display_name, ctx.actor?.email),
          name: updated.row.name,
          messageId: id,
        },
        c.at,
      );
      c.announce({ type: 'mail.queued' });
    }
    return updated.row;
  });
  if (!row) throw new HttpError(404, ADMIN.notFound);
  return { message: ADMIN.assigned, row };
}
