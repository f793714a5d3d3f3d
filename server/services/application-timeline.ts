import {
  APPLICATION_LIST_MESSAGES as LIST,
  ApplicationStatus,
} from '../../contract/admin-applications';
import {
  NOTE_MAX,
  TIMELINE_MESSAGES as M,
  handleOf,
  mentionsIn,
  type Timeline,
  type TimelineEvent,
} from '../../contract/application-timeline';
import { getApplicationRow } from '../db/application-list.repo';
import { auditOf, insertNote, mailsAbout, notesOf } from '../db/application-timeline.repo';
import { usersWithPermission } from '../db/auth.repo';
import { HttpError } from '../http-error';
import { cleanText } from '../lib/plain-text';
import { queueMentionNotices } from '../mail/mails';
import { inTransaction, type ServiceContext } from './context';

/**
 * An application's timeline (docs/decisions/026-application-timeline.md): received, status changes, notes, mails to the candidate
 * with their delivery state and CV views, oldest first; and notes, which may mention colleagues.
 * docs/decisions/026-application-timeline.md.
 */

/** CV reads of one person within this time of the previous one are one view. */
export const CV_VIEW_WINDOW_MS = 60 * 60 * 1000;

const readers = (ctx: ServiceContext) => usersWithPermission(ctx.db, 'applications.read');

const statusOf = (value: unknown) => {
  const parsed = ApplicationStatus.safeParse(value);
  return parsed.success ? parsed.data : null;
};

/** An audit row's detail as an object ({} when it holds none or no JSON object). */
export const detailOf = (detail: string | null): Record<string, unknown> => {
  try {
    const value: unknown = detail ? JSON.parse(detail) : {};
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const MAIL_STATES = ['pending', 'sent', 'failed'] as const;

/** An outbox row's status as a timeline shows it; `missing` when the row says none it knows. */
export const mailState = (status: string | null | undefined, missing: (typeof MAIL_STATES)[number]) =>
  MAIL_STATES.find((s) => s === status) ?? missing;

/** Oldest first; at the same moment, in the order a person would tell it (received first). */
export function inTimeOrder(events: TimelineEvent[]): TimelineEvent[] {
  const order = { received: 0, mail: 1, status: 2, assigned: 2, note: 3, cv: 4 } as const;
  return events
    .map((event, i) => ({ event, i }))
    .sort(
      (a, b) =>
        a.event.at.localeCompare(b.event.at) || order[a.event.kind] - order[b.event.kind] || a.i - b.i,
    )
    .map((e) => e.event);
}

/** A person as the timeline names them: the display name they chose, else their address. */
export const nameOf = (displayName: string | null | undefined, email: string | null | undefined) =>
  displayName || email || '';

/** The timeline of application `id` as the context's actor sees it (404 when it does not exist). */
export async function timelineOf(ctx: ServiceContext, id: number): Promise<Timeline> {
  const row = await getApplicationRow(ctx.db, id);
  if (!row) throw new HttpError(404, LIST.notFound);
  const [staff, notes, audits, mails] = await Promise.all([
    readers(ctx),
    notesOf(ctx.db, [id]),
    auditOf(ctx.db, id, ['status', 'cv_read', 'mail']),
    mailsAbout(ctx.db, id),
  ]);
  const byHandle = (handle: string) => staff.filter((u) => handleOf(u.email) === handle);

  const events: TimelineEvent[] = [{ kind: 'received', at: row.applied_date }];
  // a mail staff wrote is audited in its transaction, at the same time as it was queued
  const writers = new Map(
    audits.filter((a) => a.action === 'mail').map((a) => [a.at, nameOf(a.display_name, a.actor_email)]),
  );
  for (const a of audits) {
    if (a.action === 'mail') continue;
    const by = nameOf(a.display_name, a.actor_email);
    if (a.action === 'status') {
      const detail = detailOf(a.detail);
      const to = statusOf(detail.to);
      const reason = typeof detail.reason === 'string' && detail.reason ? { reason: detail.reason } : {};
      if (to) events.push({ kind: 'status', at: a.at, by, from: statusOf(detail.from), to, ...reason });
      continue;
    }
    // a CV read again in the same sitting (another look, the viewer's reload) is one view
    const last = events.at(-1);
    if (last?.kind === 'cv' && last.by === by && Date.parse(a.at) - Date.parse(last.at) < CV_VIEW_WINDOW_MS) {
      events[events.length - 1] = { ...last, count: last.count + 1 };
    } else events.push({ kind: 'cv', at: a.at, by, count: 1 });
  }
  for (const n of notes) {
    events.push({
      kind: 'note',
      at: n.created_at,
      by: nameOf(n.display_name, n.author_email),
      note_id: n.note_id,
      text: n.text,
      // as when it was written: colleagues who read applications, never its writer
      mentioned: mentionsIn(n.text).flatMap((h) =>
        byHandle(h)
          .filter((u) => u.user_id !== n.author_id)
          .map((u) => nameOf(u.display_name, u.email)),
      ),
    });
  }
  for (const m of mails) {
    events.push({
      kind: 'mail',
      at: m.created_at,
      mail: m.kind,
      by: m.kind === 'candidate-mail' ? (writers.get(m.created_at) ?? '') : '',
      subject: m.subject,
      to: m.to_address,
      status: mailState(m.status, 'pending'),
      sent_at: m.sent_at,
    });
  }
  return {
    events: inTimeOrder(events),
    colleagues: staff
      .filter((u) => u.user_id !== ctx.actor?.user_id)
      .map((u) => ({ handle: handleOf(u.email), name: nameOf(u.display_name, u.email) })),
    replies_to: ctx.config.HIRING_REPLY_TO ?? null,
  };
}

/**
 * The context's actor writes a note on application `id`: plain text, cleaned (control characters,
 * trailing spaces), 1 to NOTE_MAX characters. Colleagues it mentions who may read applications
 * (never the writer) are mailed a notice, in the note's transaction. Audited without its text.
 */
export async function addNote(ctx: ServiceContext, id: number, raw: string) {
  const text = cleanText(raw);
  if (text === '') throw HttpError.fields(M.noteEmpty, { text: 'noteEmpty' }, M);
  if (Array.from(text).length > NOTE_MAX) throw HttpError.fields(M.noteTooLong, { text: 'noteTooLong' }, M);
  const actor = ctx.actor;
  if (!actor) throw new HttpError(401, 'Sign in first.');
  await inTransaction(ctx, async (c) => {
    const row = await getApplicationRow(c.trx, id);
    if (!row) throw new HttpError(404, LIST.notFound);
    await insertNote(
      c.trx,
      { application_id: id, author_id: actor.user_id, author_email: actor.email, text },
      c.at,
    );
    await c.audit({ action: 'note', entity: 'job_application', entityId: id });
    c.announce({ type: 'application.timeline_changed', application_id: id });
    const staff = await usersWithPermission(c.trx, 'applications.read');
    const handles = new Set(mentionsIn(text));
    const mentioned = staff.filter((u) => u.user_id !== actor.user_id && handles.has(handleOf(u.email)));
    if (mentioned.length === 0) return;
    const me = staff.find((u) => u.user_id === actor.user_id);
    await queueMentionNotices(
      c.trx,
      ctx.config,
      {
        applicationId: id,
        author: nameOf(me?.display_name, actor.email),
        name: row.full_name,
        job: row.job_title ?? '',
        to: mentioned.map((u) => ({ email: u.email, lang: u.lang })),
      },
      c.at,
    );
    c.announce({ type: 'mail.queued' });
  });
  ctx.log.info({ application_id: id }, 'Note added to an application');
  return { message: M.noteAdded, timeline: await timelineOf(ctx, id) };
}
