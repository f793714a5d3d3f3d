import * as repo from '../db/auth.repo';
import { HttpError } from '../http-error';
import { clientKey } from '../lib/client-key';
import type { ServiceContext } from './context';

/**
 * The sign-in limits (docs/decisions/009-security-model.md, "Sign-in"): every check of a secret a
 * person gives (a password, a second-step code, a passkey, the fresh proof) reserves one attempt
 * under each of its keys first; past RATE_LIMIT_LOGIN_FAILURES in LOGIN_WINDOW_MS, 429. A key can
 * also be only counted (`counted`): the password of an account with a second factor is slowed by
 * its failures (`passwordWait`), never refused.
 */

/** Failed sign-ins are counted per address and per account over this window. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const TOO_MANY_LOGINS = 'Too many failed sign-in attempts. Please try again in 15 minutes.';

/**
 * At most `limit` checks at once per key (argon2 costs memory and time: the sign-ins of one email
 * are capped in each process); one more is refused 429 and may come back. Each process holds its
 * own count.
 */
export function concurrentChecks(limit: number) {
  const inFlight = new Map<string, number>();
  return async <T>(key: string, check: () => Promise<T>): Promise<T> => {
    if ((inFlight.get(key) ?? 0) >= limit) throw HttpError.tooMany(TOO_MANY_LOGINS, LOGIN_WINDOW_MS / 1000);
    inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
    try {
      return await check();
    } finally {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left > 0) inFlight.set(key, left);
      else inFlight.delete(key);
    }
  };
}

/** What the limits count under. */
export const limitKeys = {
  /** A client: its IPv4 address or its IPv6 /64. */
  address: (ip: string) => `ip:${clientKey(ip)}`,
  /** The passwords tried for one email, whoever tries them. */
  password: (email: string) => `email:${email.slice(0, 254)}`,
  /** The second-step codes tried for one account: only a right code clears them. */
  codes: (userId: number) => `factor:${userId}`,
  /** The fresh proofs a signed-in session tries for its account. */
  proof: (userId: number) => `reauth:${userId}`,
};

/** The first instant the sign-in limits still count. */
export const windowStart = (now: Date) => new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();

/** The longest a password check of an account with a second factor is held back. */
export const PASSWORD_WAIT_CEILING_MS = 30_000;

/**
 * How long the password check of an account with a second factor waits, when its key holds `count`
 * attempts (this one included): nothing up to the limit, then 1 s, doubling with each failure past
 * it, up to PASSWORD_WAIT_CEILING_MS.
 */
export function passwordWait(count: number, limit: number): number {
  const over = count - limit;
  return over <= 0 ? 0 : Math.min(1000 * 2 ** Math.min(over - 1, 30), PASSWORD_WAIT_CEILING_MS);
}

export interface Reservation {
  ids: number[];
  /** Per key, the attempts the window holds, this one included. */
  counts: Record<string, number>;
}

/**
 * Reserves one attempt against each key before anything is checked (the last of parallel attempts
 * sees all the others); refuses (429; the route adds Retry-After) when a key of `keys` is past the
 * limit, releasing the reservation so that a refused attempt does not count; keys of `counted` are
 * counted and never refused. A failed check keeps the reservation (it is its record), a right one
 * releases it (`release`).
 */
export async function reserve(
  ctx: ServiceContext,
  keys: string[],
  now: Date,
  counted: string[] = [],
): Promise<Reservation> {
  const since = windowStart(now);
  const attempt = await repo.reserveAttempt(ctx.db, [...keys, ...counted], since, now);
  if (keys.some((key) => (attempt.counts[key] ?? 0) > ctx.config.RATE_LIMIT_LOGIN_FAILURES)) {
    await refuse(ctx, attempt);
  }
  return attempt;
}

/** Refuses an attempt past a limit: its reservation goes, and a 429. */
export async function refuse(ctx: ServiceContext, reservation: Reservation): Promise<never> {
  await repo.releaseAttempt(ctx.db, reservation.ids);
  throw HttpError.tooMany(TOO_MANY_LOGINS, LOGIN_WINDOW_MS / 1000);
}

/**
 * A right check: its reservation goes, the failures of `cleared` keys go with it, and the table
 * keeps at most the window's failures.
 */
export async function release(
  ctx: ServiceContext,
  reservation: Reservation,
  now: Date,
  cleared: string[] = [],
): Promise<void> {
  await repo.releaseAttempt(ctx.db, reservation.ids);
  for (const key of cleared) await repo.clearFailures(ctx.db, key);
  await repo.purgeFailures(ctx.db, windowStart(now));
}
