import { z } from 'zod/mini';
import { ID_MAX, whole } from './ids';

/**
 * Who else is editing (docs/decisions/022-versions-and-conflicts.md): an open editor says so every PRESENCE_BEAT_MS
 * (PUT /api/admin/presence/{entity}/{id} with its editor id) and hears who else has the record
 * open; closing says goodbye (DELETE .../{editor_id}). No lock: colleagues are told, not blocked.
 */
export const PRESENCE_BEAT_MS = 15_000;
/**
 * An editor not heard from for this long has gone (two beats missed and a little): a tab that died
 * without saying goodbye is not shown for long.
 */
export const PRESENCE_GONE_MS = 35_000;

export const EditorId = z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/));
export const PresenceBody = z.object({ editor_id: EditorId });
/** DELETE …/{entity}/{id}/{editor_id}: one editor of a record closes. */
export const LeaveParams = z.object({ id: whole(1, ID_MAX), editor_id: EditorId });

export const OtherEditor = z.object({ email: z.string(), since: z.string() });
export type OtherEditor = z.infer<typeof OtherEditor>;
export const PresenceAnswer = z.object({ others: z.array(OtherEditor) });
export type PresenceAnswer = z.infer<typeof PresenceAnswer>;
