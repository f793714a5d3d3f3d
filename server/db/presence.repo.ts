import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** Open editors of records (migration 1700): renewed by their heartbeat, read by their colleagues. */

type Db = Kysely<Database>;

export interface PresenceKey {
  entity: string;
  entityId: number;
  editorId: string;
}

/** This editor is open now (its `since` stays from its first heartbeat). */
export async function renewPresence(
  db: Db,
  key: PresenceKey,
  user: { user_id: number; email: string },
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('edit_presence')
    .values({
      entity: key.entity,
      entity_id: key.entityId,
      editor_id: key.editorId,
      user_id: user.user_id,
      email: user.email,
      since: at,
      seen_at: at,
    })
    .onConflict((oc) =>
      oc.columns(['entity', 'entity_id', 'editor_id']).doUpdateSet({ seen_at: at, user_id: user.user_id }),
    )
    .execute();
}

/** The other editors of a record seen since `after`, longest open first. */
export async function otherEditors(db: Db, key: PresenceKey, after: Date) {
  return db
    .selectFrom('edit_presence')
    .select(['email', 'since', 'user_id'])
    .where('entity', '=', key.entity)
    .where('entity_id', '=', key.entityId)
    .where('editor_id', '!=', key.editorId)
    .where('seen_at', '>', after.toISOString())
    .orderBy('since')
    .execute();
}

/** This editor closed. */
export async function leavePresence(db: Db, key: PresenceKey): Promise<void> {
  await db
    .deleteFrom('edit_presence')
    .where('entity', '=', key.entity)
    .where('entity_id', '=', key.entityId)
    .where('editor_id', '=', key.editorId)
    .execute();
}

/** Forgets editors not renewed since `before` (closed tabs, lost connections). */
export async function dropStalePresence(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('edit_presence').where('seen_at', '<', before.toISOString()).execute();
}
