import { describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, hashPassword, oneTimePassword, passwordProblem, verifyPassword } from './passwords';

describe('password rules', () => {
  it('needs 12 to 128 characters', () => {
    expect(passwordProblem('short pass1')).toBe('Password must be at least 12 characters long.');
    expect(passwordProblem('x'.repeat(120) + 'yzyzyzyzy')).toBe('Password must not exceed 128 characters.');
    expect(passwordProblem('twelve chars')).toBeNull();
  });

  it('refuses common passwords from the shipped list, also with digits or symbols added', () => {
    expect(passwordProblem('qwertyuiop123')).toMatch(/too common/);
    expect(passwordProblem('1q2w3e4r5t6y')).toMatch(/too common/);
    expect(passwordProblem('iloveyou2024!!')).toMatch(/too common/);
    expect(passwordProblem('aaaaaaaaaaaaaa')).toMatch(/too common/);
    expect(passwordProblem('maple orbit lantern')).toBeNull();
  });

  it('refuses the account email as the password', () => {
    expect(passwordProblem('asha.menon.editor@example.com', 'asha.menon.editor@example.com')).toBe(
      'Password must not be your email address.',
    );
  });

  it('hashes with argon2id at or above OWASP minimum and verifies', async () => {
    expect(ARGON2_OPTIONS.memoryCost).toBeGreaterThanOrEqual(19_456);
    expect(ARGON2_OPTIONS.timeCost).toBeGreaterThanOrEqual(2);
    const hash = await hashPassword('maple orbit lantern');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'maple orbit lantern')).toBe(true);
    expect(await verifyPassword(hash, 'maple orbit lanterns')).toBe(false);
    expect(await verifyPassword('garbage', 'x')).toBe(false);
  });

  it('makes 20-character one-time passwords that pass the rules', () => {
    const a = oneTimePassword();
    expect(a).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{20}$/);
    expect(passwordProblem(a)).toBeNull();
    expect(oneTimePassword()).not.toBe(a);
  });
});
