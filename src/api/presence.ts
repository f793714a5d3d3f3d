import { adminDelete, adminWrite, fetchJson } from './client';
import { PresenceAnswer, type OtherEditor } from './contract/presence';
import type { RevisionEntity } from './contract/revisions';

/** Who else is editing (src/api/contract/presence.ts), on this server's /api/admin. */

export function renewPresence(entity: RevisionEntity, id: number, editorId: string): Promise<OtherEditor[]> {
  return fetchJson(
    PresenceAnswer,
    `/api/admin/presence/${entity}/${id}`,
    adminWrite({ editor_id: editorId }, 'PUT'),
  ).then((a) => a.others);
}

/** The editor closed; `keepalive` lets the goodbye leave with a closing tab. */
export function leavePresence(entity: RevisionEntity, id: number, editorId: string): void {
  void fetch(`/api/admin/presence/${entity}/${id}/${editorId}`, { ...adminDelete(), keepalive: true }).catch(
    () => {},
  );
}
