import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived addresses of private files on local disk: a CV is
 * read through `/media/private/<key>?expires=<unix seconds>&sig=<HMAC-SHA256>`, signed with the
 * site's SECRET (shared by every process), so any process can check an address another made.
 */

/** Signed addresses expire within 5 minutes. */
export const SIGNED_URL_TTL_SECONDS = 5 * 60;
export const PRIVATE_MEDIA_PREFIX = '/media/private/';

function signature(secret: string, key: string, expires: number): string {
  return createHmac('sha256', secret).update(`media-private\n${key}\n${expires}`).digest('base64url');
}

/** The signed path of `key`, valid for `ttlSeconds` (at most 5 minutes) from `now`. */
export function signedMediaPath(
  secret: string,
  key: string,
  { now = Date.now(), ttlSeconds = SIGNED_URL_TTL_SECONDS } = {},
): string {
  const expires = Math.floor(now / 1000) + Math.min(ttlSeconds, SIGNED_URL_TTL_SECONDS);
  return `${PRIVATE_MEDIA_PREFIX}${key}?expires=${expires}&sig=${signature(secret, key, expires)}`;
}

/**
 * Whether `sig` signs `key` until `expires` and that moment has not passed. An expiry further away
 * than the TTL is refused too (a signature is never valid for longer than 5 minutes).
 */
export function verifyMediaSignature(
  secret: string,
  key: string,
  expires: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): boolean {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires) || !/^[\w-]{20,100}$/.test(sig)) return false;
  const at = Number(expires);
  const nowSeconds = Math.floor(now / 1000);
  if (at < nowSeconds || at > nowSeconds + SIGNED_URL_TTL_SECONDS) return false;
  const expected = Buffer.from(signature(secret, key, at));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
