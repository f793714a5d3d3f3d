import { PRESENCE_GONE_MS, type OtherEditor } from '../../src/api/contract/presence';
import * as repo from '../db/presence.repo';
import { HttpError } from '../http-error';
import type { ServiceContext } from './context';

/**
 * Who else is editing a record: an open editor renews its presence and hears of the others seen
 * within the last minute (another person, or the same person in another tab). Nothing is locked.
 */
export async function renew(ctx: ServiceContext, key: repo.PresenceKey): Promise<{ others: OtherEditor[] }> {
  if (!ctx.actor) throw new HttpError(401, 'Sign in first');
  const now = ctx.now();
  const gone = new Date(now.getTime() - PRESENCE_GONE_MS);
  await repo.dropStalePresence(ctx.db, gone);
  await repo.renewPresence(ctx.db, key, ctx.actor, now);
  const others = await repo.otherEditors(ctx.db, key, gone);
  return { others: others.map(({ email, since }) => ({ email, since })) };
}

export const leave = (ctx: ServiceContext, key: repo.PresenceKey) => repo.leavePresence(ctx.db, key);
