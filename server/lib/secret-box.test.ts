import { describe, expect, it } from 'vitest';
import { keyedHash, open, seal } from './secret-box';

const SECRET = 'a-secret-of-the-server-that-is-long-enough';

describe('secret-box', () => {
  it('opens what it sealed, and nothing sealed under another secret or purpose', () => {
    const sealed = seal(SECRET, 'totp', 'JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(open(SECRET, 'totp', sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(open(`${SECRET}!`, 'totp', sealed)).toBeNull();
    expect(open(SECRET, 'other', sealed)).toBeNull();
    // each seal is different (a random IV): two users with one secret do not look alike
    expect(seal(SECRET, 'totp', 'JBSWY3DPEHPK3PXP')).not.toBe(sealed);
  });

  it('refuses a sealed value changed in the database', () => {
    const sealed = seal(SECRET, 'totp', 'JBSWY3DPEHPK3PXP');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3], 'base64url');
    data[0] ^= 1;
    expect(open(SECRET, 'totp', [...parts.slice(0, 3), data.toString('base64url')].join('.'))).toBeNull();
    expect(open(SECRET, 'totp', 'garbage')).toBeNull();
  });

  it('hashes with a key of its own per purpose', () => {
    expect(keyedHash(SECRET, 'recovery', 'abcde-fghij')).toBe(keyedHash(SECRET, 'recovery', 'abcde-fghij'));
    expect(keyedHash(SECRET, 'recovery', 'abcde-fghij')).not.toBe(keyedHash(SECRET, 'other', 'abcde-fghij'));
    expect(keyedHash(SECRET, 'recovery', 'abcde-fghij')).toMatch(/^[0-9a-f]{64}$/);
  });
});
