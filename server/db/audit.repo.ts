import { sql, type Kysely } from 'kysely';
import type { AuditQuery, AuditRow } from '../../contract/auth';
import { COUNT_CAP } from '../../contract/paging';
import type { Database } from './schema';

/**
 * The audit log's table: who did what to which record, when. Rows are written by the services, in
 * the transaction of the change they record (services/context.ts `Change.audit`):
 *
 *   await c.audit({
 *     action: 'create',              // create | update | delete | status | ...
 *     entity: 'blog_post',           // the table / kind of record
 *     entityId: row.blog_id,
 *     detail: { title: row.title },  // a small JSON-able summary; never passwords or CV contents
 *   });
 */
export interface AuditEntry {
  actor: { user_id: number; email: string } | null | undefined;
  action: string;
  entity: string;
  entityId?: string | number | null;
  detail?: unknown;
}

/** How much of one value an audit row keeps (the whole value is in the record's revisions). */
export const AUDIT_VALUE_MAX = 120;

/**
 * The old and new values of the fields a change touched, for an audit row's detail:
 * `{ location: ['Kochi, India', 'Remote'] }`, each value as a person reads it, cut to
 * AUDIT_VALUE_MAX characters.
 */
export function valuesOf<T>(
  fields: readonly (keyof T & string)[],
  before: T,
  after: T,
  read: (field: keyof T & string, value: T[keyof T & string]) => string = (_, v) => String(v ?? ''),
): Record<string, [string, string]> {
  const cut = (text: string) =>
    text.length > AUDIT_VALUE_MAX ? `${text.slice(0, AUDIT_VALUE_MAX - 1)}…` : text;
  return Object.fromEntries(
    fields.map((f) => [f, [cut(read(f, before[f])), cut(read(f, after[f]))] as [string, string]]),
  );
}

/** The detail is stored as JSON text of at most this many characters. */
export const AUDIT_DETAIL_MAX = 4000;

export async function recordAudit(db: Kysely<Database>, entry: AuditEntry, now = new Date()): Promise<void> {
  let detail: string | null = null;
  if (entry.detail !== undefined && entry.detail !== null) {
    detail = typeof entry.detail === 'string' ? entry.detail : JSON.stringify(entry.detail);
    if (detail.length > AUDIT_DETAIL_MAX) detail = `${detail.slice(0, AUDIT_DETAIL_MAX - 1)}…`;
  }
  await db
    .insertInto('audit_log')
    .values({
      at: now.toISOString(),
      actor_id: entry.actor?.user_id ?? null,
      actor_email: entry.actor?.email ?? null,
      action: entry.action.slice(0, 60),
      entity: entry.entity.slice(0, 60),
      entity_id:
        entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId).slice(0, 100),
      detail,
    })
    .execute();
}

/** The day after a YYYY-MM-DD day, as the start of it in ISO form. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/** The audit rows a query's filters keep. */
function filtered(db: Kysely<Database>, q: AuditQuery) {
  let query = db.selectFrom('audit_log');
  const actor = q.actor.trim().toLowerCase();
  // the start of the email: "asha" finds asha.menon@…; % and _ are taken as themselves
  if (actor) {
    const pattern = `${actor.replace(/[\\%_]/g, '\\$&')}%`;
    query = query.where(sql<boolean>`lower(actor_email) like ${pattern} escape '\\'`);
  }
  if (q.entity) query = query.where('entity', '=', q.entity);
  if (q.action) query = query.where('action', '=', q.action);
  if (q.from) query = query.where('at', '>=', `${q.from}T00:00:00.000Z`);
  if (q.to) query = query.where('at', '<', dayAfter(q.to));
  return query;
}

/** Newest first, filtered; `total_count` (exact up to 10,000) on the first row. */
export async function listAudit(db: Kysely<Database>, q: AuditQuery): Promise<AuditRow[]> {
  const rows = await filtered(db, q)
    .select(['audit_id', 'at', 'actor_email', 'action', 'entity', 'entity_id', 'detail'])
    .orderBy('at', 'desc')
    .orderBy('audit_id', 'desc')
    .limit(q.pagesize)
    .offset(q.pagesize * (q.pagenum - 1))
    .execute();
  if (rows.length === 0) return [];
  const { n } = await db
    .selectFrom(filtered(db, q).select('audit_id').limit(COUNT_CAP).as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return rows.map((row, i) => (i === 0 ? { ...row, total_count: Number(n) } : row));
}

/** Who changed a record last, and when (its newest audit row), or undefined when none says. */
export async function lastChangeOf(
  db: Kysely<Database>,
  entity: string,
  entityId: string | number,
  /** Only changes of this kind (a person's notice choices live on their user record too). */
  action?: string,
): Promise<{ actor_email: string | null; at: string } | undefined> {
  let query = db
    .selectFrom('audit_log')
    .select(['actor_email', 'at'])
    .where('entity', '=', entity)
    .where('entity_id', '=', String(entityId));
  if (action) query = query.where('action', '=', action);
  return query.orderBy('at', 'desc').orderBy('audit_id', 'desc').limit(1).executeTakeFirst();
}
