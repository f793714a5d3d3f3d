import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../contract/auth';

/**
 * Passwords of back-office accounts: argon2id at OWASP's minimum or above (19 MiB, 2 passes,
 * 1 lane), 12 to 128 characters, refused when common (server/lib/common-passwords.txt).
 */
export const ARGON2_OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  if (!common) {
    const text = fs.readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8');
    common = new Set(
      text
        .split('\n')
        .map((line) => line.trim().toLowerCase())
        .filter((line) => line && !line.startsWith('#')),
    );
  }
  return common;
}

/**
 * Why a password is refused, or null when it is acceptable. Besides the list itself, a listed
 * password with digits or symbols added at the end ("iloveyou2024!") and one character repeated
 * are refused; so is the account's own email address.
 */
export function passwordProblem(password: string, email?: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters long.`;
  if (length > PASSWORD_MAX) return `Password must not exceed ${PASSWORD_MAX} characters.`;
  const lower = password.toLowerCase();
  const list = commonPasswords();
  const stem = lower.replace(/[\d\W_]+$/u, '');
  if (list.has(lower) || (stem.length >= 4 && list.has(stem)) || /^(.)\1+$/u.test(password)) {
    return 'This password is too common. Choose a less predictable one.';
  }
  if (email && (lower === email.toLowerCase() || lower === email.toLowerCase().split('@')[0])) {
    return 'Password must not be your email address.';
  }
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the email is unknown, so both answers take the same time. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}

/** A one-time password an owner hands over: 20 characters from an unambiguous alphabet (~100 bits). */
export function oneTimePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(40);
  let out = '';
  for (const b of bytes) {
    if (b >= 216) continue; // 216 = 4 * 54: keeps the choice uniform
    out += alphabet[b % alphabet.length];
    if (out.length === 20) break;
  }
  return out.length === 20 ? out : oneTimePassword();
}
