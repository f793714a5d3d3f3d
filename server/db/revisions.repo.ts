import type { Kysely } from 'kysely';
import type { RevisionEntity, RevisionFields, RevisionRow } from '../../contract/revisions';
import type { Database } from './schema';

/**
 * Revisions of blog posts and job openings (migration 1600): written by the services in the
 * transaction of the save they record (services/context.ts `Change.revision`), read by the
 * History view.
 */

type Db = Kysely<Database>;

export interface RevisionEntry {
  entity: RevisionEntity;
  entityId: number;
  /** The record's version after the save. */
  version: number;
  fields: RevisionFields;
  changed: readonly string[];
  restoredFrom?: number;
  /**
   * The record as it was before this save: kept first (by nobody, changing nothing) when the record
   * has no revision yet (it was written before revisions were kept), so its first change can be
   * compared and undone too.
   */
  before?: { version: number; fields: RevisionFields };
}

/** Keeps one revision, then prunes the record's revisions beyond the newest `keep`. */
export async function recordRevision(
  db: Db,
  entry: RevisionEntry,
  actor: { user_id: number; email: string } | null,
  at: Date,
  keep: number,
): Promise<void> {
  if (entry.before) {
    const any = await db
      .selectFrom('record_revision')
      .select('revision_id')
      .where('entity', '=', entry.entity)
      .where('entity_id', '=', entry.entityId)
      .limit(1)
      .executeTakeFirst();
    if (!any) {
      await db
        .insertInto('record_revision')
        .values({
          entity: entry.entity,
          entity_id: entry.entityId,
          version: entry.before.version,
          fields: JSON.stringify(entry.before.fields),
          changed: '[]',
          actor_id: null,
          actor_email: null,
          at: at.toISOString(),
          restored_from: null,
        })
        .execute();
    }
  }
  await db
    .insertInto('record_revision')
    .values({
      entity: entry.entity,
      entity_id: entry.entityId,
      version: entry.version,
      fields: JSON.stringify(entry.fields),
      changed: JSON.stringify(entry.changed),
      actor_id: actor?.user_id ?? null,
      actor_email: actor?.email ?? null,
      at: at.toISOString(),
      restored_from: entry.restoredFrom ?? null,
    })
    .execute();
  const oldestKept = await db
    .selectFrom('record_revision')
    .select('revision_id')
    .where('entity', '=', entry.entity)
    .where('entity_id', '=', entry.entityId)
    .orderBy('revision_id', 'desc')
    .offset(keep - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept) {
    await db
      .deleteFrom('record_revision')
      .where('entity', '=', entry.entity)
      .where('entity_id', '=', entry.entityId)
      .where('revision_id', '<', oldestKept.revision_id)
      .execute();
  }
}

const toRow = (r: {
  revision_id: number;
  version: number;
  at: string;
  actor_email: string | null;
  changed: string;
  restored_from: number | null;
}): RevisionRow => ({
  revision_id: Number(r.revision_id),
  version: Number(r.version),
  at: r.at,
  actor_email: r.actor_email,
  changed: JSON.parse(r.changed) as string[],
  restored_from: r.restored_from === null ? null : Number(r.restored_from),
});

const COLUMNS = ['revision_id', 'version', 'at', 'actor_email', 'changed', 'restored_from'] as const;

/** A record's revisions, newest first (at most REVISION_KEEP are kept). */
export async function listRevisions(
  db: Db,
  entity: RevisionEntity,
  entityId: number,
): Promise<RevisionRow[]> {
  const rows = await db
    .selectFrom('record_revision')
    .select(COLUMNS)
    .where('entity', '=', entity)
    .where('entity_id', '=', entityId)
    .orderBy('revision_id', 'desc')
    .execute();
  return rows.map(toRow);
}

/** One revision with its fields, and the fields of the one before it (null for the first kept). */
export async function getRevision(db: Db, entity: RevisionEntity, entityId: number, revisionId: number) {
  const row = await db
    .selectFrom('record_revision')
    .select([...COLUMNS, 'fields'])
    .where('entity', '=', entity)
    .where('entity_id', '=', entityId)
    .where('revision_id', '=', revisionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const before = await db
    .selectFrom('record_revision')
    .select('fields')
    .where('entity', '=', entity)
    .where('entity_id', '=', entityId)
    .where('revision_id', '<', revisionId)
    .orderBy('revision_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    revision: toRow(row),
    fields: JSON.parse(row.fields) as RevisionFields,
    previous: before ? (JSON.parse(before.fields) as RevisionFields) : null,
  };
}

/** Removes a record's revisions (the record is deleted). */
export async function deleteRevisions(db: Db, entity: RevisionEntity, entityId: number): Promise<void> {
  await db
    .deleteFrom('record_revision')
    .where('entity', '=', entity)
    .where('entity_id', '=', entityId)
    .execute();
}
