import { PRESENCE_GONE_MS, type OtherEditor } from '../../contract/presence';
import * as repo from '../db/presence.repo';
import { HttpError } from '../http-error';
import type { ServiceContext } from './context';

/**
 * Who else is editing a record: an open editor renews its presence and hears of the other people
 * seen within PRESENCE_GONE_MS, each once, since they first opened it (never the person themselves,
 * whatever tabs they have open). Nothing is locked.
 */
export async function renew(ctx: ServiceContext, key: repo.PresenceKey): Promise<{ others: OtherEditor[] }> {
  if (!ctx.actor) throw new HttpError(401, 'Sign in first');
  const now = ctx.now();
  const gone = new Date(now.getTime() - PRESENCE_GONE_MS);
  await repo.dropStalePresence(ctx.db, gone);
  await repo.renewPresence(ctx.db, key, ctx.actor, now);
  const people = new Map<number, OtherEditor>();
  for (const { email, since, user_id } of await repo.otherEditors(ctx.db, key, gone)) {
    if (user_id === ctx.actor.user_id || people.has(user_id)) continue; // sorted by since: the first stays
    people.set(user_id, { email, since });
  }
  return { others: [...people.values()] };
}

export const leave = (ctx: ServiceContext, key: repo.PresenceKey) => repo.leavePresence(ctx.db, key);
