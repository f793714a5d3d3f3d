import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed addresses, made with the site's SECRET (shared by every process), so any process can
 * check an address another made:
 * - short-lived addresses of private files on local disk: a CV is read through
 *   `/media/private/<key>?expires=<unix seconds>&sig=<HMAC-SHA256>`;
 * - tokens `<subject>.<expires>.<sig>` for a purpose (a blog post's share preview, 7 days).
 */

/** Signed addresses expire within 5 minutes. */
export const SIGNED_URL_TTL_SECONDS = 5 * 60;
export const PRIVATE_MEDIA_PREFIX = '/media/private/';

function signature(secret: string, key: string, expires: number, purpose = 'media-private'): string {
  return createHmac('sha256', secret).update(`${purpose}\n${key}\n${expires}`).digest('base64url');
}

const sameSignature = (expected: string, given: string) =>
  expected.length === given.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));

/** A token for `subject` (letters, digits, '-' and '_'), signed for `purpose`, valid `ttlSeconds` from `now`. */
export function signedToken(
  secret: string,
  purpose: string,
  subject: string,
  { now = Date.now(), ttlSeconds }: { now?: number; ttlSeconds: number },
): { token: string; expires: Date } {
  if (!/^[\w-]{1,100}$/.test(subject)) throw new Error('A token subject is letters, digits, - and _');
  const expires = Math.floor(now / 1000) + ttlSeconds;
  return {
    token: `${subject}.${expires}.${signature(secret, subject, expires, purpose)}`,
    expires: new Date(expires * 1000),
  };
}

/**
 * The subject of a token signed for `purpose` that has not expired, else null (a token of another
 * purpose, a changed one, or one whose expiry is further away than `maxTtlSeconds`).
 */
export function verifiedToken(
  secret: string,
  purpose: string,
  token: string,
  { now = Date.now(), maxTtlSeconds }: { now?: number; maxTtlSeconds: number },
): string | null {
  const m = /^([\w-]{1,100})\.(\d{1,12})\.([\w-]{20,100})$/.exec(token);
  if (!m) return null;
  const at = Number(m[2]);
  const nowSeconds = Math.floor(now / 1000);
  if (at < nowSeconds || at > nowSeconds + maxTtlSeconds) return null;
  return sameSignature(signature(secret, m[1], at, purpose), m[3]) ? m[1] : null;
}

/**
 * The signed path of `key` for reader `reader` (a user id, signed with the key so the address says
 * who it was made for: the read is logged as theirs), valid for `ttlSeconds` (at most 5 minutes)
 * from `now`.
 */
export function signedMediaPath(
  secret: string,
  key: string,
  reader: number,
  { now = Date.now(), ttlSeconds = SIGNED_URL_TTL_SECONDS } = {},
): string {
  const expires = Math.floor(now / 1000) + Math.min(ttlSeconds, SIGNED_URL_TTL_SECONDS);
  const sig = signature(secret, `${key}\n${reader}`, expires);
  return `${PRIVATE_MEDIA_PREFIX}${key}?by=${reader}&expires=${expires}&sig=${sig}`;
}

/**
 * The reader (user id) `sig` signs `key` for until `expires`, when that moment has not passed;
 * else null. An expiry further away than the TTL is refused too (a signature is never valid for
 * longer than 5 minutes).
 */
export function verifyMediaSignature(
  secret: string,
  key: string,
  q: { by?: string; expires?: string; sig?: string },
  now = Date.now(),
): number | null {
  const { by, expires, sig } = q;
  if (!by || !expires || !sig || !/^[1-9]\d{0,11}$/.test(by) || !/^\d{1,12}$/.test(expires)) return null;
  if (!/^[\w-]{20,100}$/.test(sig)) return null;
  const at = Number(expires);
  const nowSeconds = Math.floor(now / 1000);
  if (at < nowSeconds || at > nowSeconds + SIGNED_URL_TTL_SECONDS) return null;
  return sameSignature(signature(secret, `${key}\n${by}`, at), sig) ? Number(by) : null;
}
