import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the server keeps for itself, with keys derived from SECRET (HKDF-SHA256, one key per
 * purpose, so a key for one use never serves another):
 *
 *   const sealed = seal(config.SECRET, 'totp', base32);   // 'v1.<iv>.<tag>.<data>', base64url
 *   open(config.SECRET, 'totp', sealed);                  // the text, or null when it was not ours
 *   keyedHash(config.SECRET, 'recovery', code);           // HMAC-SHA256, hex
 *
 * AES-256-GCM: a database copy without SECRET reveals no authenticator secret, and a sealed value
 * changed in the database is refused (null), not used. Changing SECRET makes every sealed value
 * and keyed hash unreadable: the people then set their factors up again (docs/decisions/024).
 */
const keyFor = (secret: string, purpose: string) =>
  Buffer.from(hkdfSync('sha256', secret, 'manna', `manna ${purpose}`, 32));

export function seal(secret: string, purpose: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), iv);
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function open(secret: string, purpose: string, sealed: string): string | null {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

export const keyedHash = (secret: string, purpose: string, text: string) =>
  createHmac('sha256', keyFor(secret, purpose)).update(text).digest('hex');
