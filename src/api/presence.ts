import { adminDelete, adminWrite, fetchJson } from './client';
import { PresenceAnswer, type OtherEditor } from '../../contract/presence';
import type { RevisionEntity } from '../../contract/revisions';

/** Who else is editing (contract/presence.ts), on this server's /api/admin. */

/** Heartbeats on their way, per editor id: a goodbye is said again once one has landed. */
const renewing = new Map<string, Promise<unknown>>();
/** The editors open in this tab (said goodbye to before signing out). */
const open = new Map<string, { entity: RevisionEntity; id: number }>();

export function renewPresence(entity: RevisionEntity, id: number, editorId: string): Promise<OtherEditor[]> {
  open.set(editorId, { entity, id });
  const answer = fetchJson(
    PresenceAnswer,
    `/api/admin/presence/${entity}/${id}`,
    adminWrite({ editor_id: editorId }, 'PUT'),
  ).then((a) => a.others);
  const settled = answer.catch(() => undefined);
  renewing.set(editorId, settled);
  void settled.then(() => {
    if (renewing.get(editorId) === settled) renewing.delete(editorId);
  });
  return answer;
}

const goodbye = (entity: RevisionEntity, id: number, editorId: string) =>
  fetch(`/api/admin/presence/${entity}/${id}/${editorId}`, { ...adminDelete(), keepalive: true }).then(
    () => undefined,
    () => undefined,
  );

/**
 * The editor closed (or its tab is hidden, or its person signs out); `keepalive` lets the goodbye
 * leave with a closing tab. A heartbeat still on its way would put the editor back after the
 * goodbye, so the goodbye is said again once it has landed. Resolves when it has been said.
 */
export function leavePresence(entity: RevisionEntity, id: number, editorId: string): Promise<void> {
  open.delete(editorId);
  const first = goodbye(entity, id, editorId);
  const inFlight = renewing.get(editorId);
  return inFlight
    ? Promise.all([first, inFlight.then(() => goodbye(entity, id, editorId))]).then(() => undefined)
    : first;
}

/** Signing out: every editor open in this tab says goodbye first (after, the server would refuse it). */
export function leaveAllPresence(): Promise<void> {
  return Promise.all([...open].map(([editorId, { entity, id }]) => leavePresence(entity, id, editorId))).then(
    () => undefined,
  );
}
