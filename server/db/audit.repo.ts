import type { Kysely } from 'kysely';
import type { AuditQuery, AuditRow } from '../../src/api/contract/auth';
import { COUNT_CAP } from '../../src/api/contract/paging';
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

/** Newest first; `total_count` (exact up to 10,000) on the first row. */
export async function listAudit(db: Kysely<Database>, q: AuditQuery): Promise<AuditRow[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select(['audit_id', 'at', 'actor_email', 'action', 'entity', 'entity_id', 'detail'])
    .orderBy('at', 'desc')
    .orderBy('audit_id', 'desc')
    .limit(q.pagesize)
    .offset(q.pagesize * (q.pagenum - 1))
    .execute();
  if (rows.length === 0) return [];
  const { n } = await db
    .selectFrom(db.selectFrom('audit_log').select('audit_id').limit(COUNT_CAP).as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return rows.map((row, i) => (i === 0 ? { ...row, total_count: Number(n) } : row));
}

/** Who changed a record last, and when (its newest audit row), or undefined when none says. */
export async function lastChangeOf(
  db: Kysely<Database>,
  entity: string,
  entityId: string | number,
): Promise<{ actor_email: string | null; at: string } | undefined> {
  return db
    .selectFrom('audit_log')
    .select(['actor_email', 'at'])
    .where('entity', '=', entity)
    .where('entity_id', '=', String(entityId))
    .orderBy('at', 'desc')
    .orderBy('audit_id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
