import * as repo from '../db/auth.repo';
import { HttpError } from '../http-error';
import type { ServiceContext } from './context';

/**
 * The sign-in limits (docs/decisions/009-security-model.md, "Sign-in"): every check of a secret a
 * person gives (a password, a second-step code, a passkey, the fresh proof) reserves one attempt
 * per address and per account first; past RATE_LIMIT_LOGIN_FAILURES in LOGIN_WINDOW_MS, 429.
 */

/** Failed sign-ins are counted per address and per account over this window. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const TOO_MANY_LOGINS = 'Too many failed sign-in attempts. Please try again in 15 minutes.';

/** The first instant the sign-in limits still count. */
export const windowStart = (now: Date) => new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();

/**
 * Reserves one attempt against each key's limit before anything is checked (the last of parallel
 * attempts sees all the others); refuses (429; the route adds Retry-After) past the limit,
 * releasing the reservation so that a refused attempt does not count. Answers the reservation's
 * ids: a failed check keeps them (they are its record), a right one releases them (`release`).
 */
export async function reserve(ctx: ServiceContext, keys: string[], now: Date): Promise<number[]> {
  const since = windowStart(now);
  const attempt = await repo.reserveAttempt(ctx.db, keys, since, now);
  if (keys.some((key) => (attempt.counts[key] ?? 0) > ctx.config.RATE_LIMIT_LOGIN_FAILURES)) {
    await repo.releaseAttempt(ctx.db, attempt.ids);
    throw new HttpError(429, TOO_MANY_LOGINS);
  }
  return attempt.ids;
}

/** A right check: its reservation goes, and the table keeps at most the window's failures. */
export async function release(ctx: ServiceContext, ids: number[], now: Date): Promise<void> {
  await repo.releaseAttempt(ctx.db, ids);
  await repo.purgeFailures(ctx.db, windowStart(now));
}
