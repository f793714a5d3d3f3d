import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Second factors, recovery codes and the sessions list (migration 2000; services/factors.ts).
 * Secrets arrive sealed and codes hashed: this file never sees a plain secret or code.
 */
type Db = Kysely<Database>;

export type FactorKind = 'totp' | 'passkey';

const factorColumns = [
  'factor_id',
  'user_id',
  'kind',
  'name',
  'confirmed',
  'secret',
  'last_step',
  'credential_id',
  'public_key',
  'sign_count',
  'transports',
  'created_at',
  'last_used_at',
] as const;

/** Every factor of a user, confirmed or not, oldest first. */
export const factorsOf = (db: Db, userId: number) =>
  db
    .selectFrom('admin_factor')
    .select(factorColumns)
    .where('user_id', '=', userId)
    .orderBy('factor_id')
    .execute();

export type FactorRow = Awaited<ReturnType<typeof factorsOf>>[number];

export async function hasConfirmedFactor(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('admin_factor')
    .select('factor_id')
    .where('user_id', '=', userId)
    .where('confirmed', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

export const factorByCredential = (db: Db, credentialId: string) =>
  db
    .selectFrom('admin_factor')
    .select(factorColumns)
    .where('credential_id', '=', credentialId)
    .where('kind', '=', 'passkey')
    .executeTakeFirst();

export async function insertFactor(
  db: Db,
  f: {
    userId: number;
    kind: FactorKind;
    name: string;
    confirmed: boolean;
    secret?: string;
    credentialId?: string;
    publicKey?: string;
    signCount?: number;
    transports?: string;
  },
  now: Date,
): Promise<number> {
  const { factor_id } = await db
    .insertInto('admin_factor')
    .values({
      user_id: f.userId,
      kind: f.kind,
      name: f.name,
      confirmed: f.confirmed ? 1 : 0,
      secret: f.secret ?? null,
      credential_id: f.credentialId ?? null,
      public_key: f.publicKey ?? null,
      sign_count: f.signCount ?? null,
      transports: f.transports ?? null,
      created_at: now.toISOString(),
    })
    .returning('factor_id')
    .executeTakeFirstOrThrow();
  return factor_id;
}

/** Removes a user's authenticator apps still waiting for their first code. */
export async function deleteUnconfirmedTotp(db: Db, userId: number): Promise<void> {
  await db
    .deleteFrom('admin_factor')
    .where('user_id', '=', userId)
    .where('kind', '=', 'totp')
    .where('confirmed', '=', 0)
    .execute();
}

/**
 * Records a use of an authenticator app at `step` when it is later than the last one (a code works
 * once: of two uses of one code, one updates the row and the other finds the step taken); answers
 * whether it did. `confirm` also makes a new app count, under the name its owner gave it.
 */
export async function useTotpStep(
  db: Db,
  factorId: number,
  step: number,
  now: Date,
  confirm?: { name: string },
): Promise<boolean> {
  const result = await db
    .updateTable('admin_factor')
    .set({
      last_step: step,
      last_used_at: now.toISOString(),
      ...(confirm ? { confirmed: 1, name: confirm.name } : {}),
    })
    .where('factor_id', '=', factorId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records a passkey's use with its new signature counter. */
export async function usePasskey(db: Db, factorId: number, signCount: number, now: Date): Promise<void> {
  await db
    .updateTable('admin_factor')
    .set({ sign_count: signCount, last_used_at: now.toISOString() })
    .where('factor_id', '=', factorId)
    .execute();
}

/** Deletes one factor of a user; answers whether it was there. */
export async function deleteFactor(db: Db, userId: number, factorId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('admin_factor')
    .where('user_id', '=', userId)
    .where('factor_id', '=', factorId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes every factor and recovery code of a user; answers how many factors there were. */
export async function clearFactors(db: Db, userId: number): Promise<number> {
  const result = await db.deleteFrom('admin_factor').where('user_id', '=', userId).executeTakeFirst();
  await db.deleteFrom('recovery_code').where('user_id', '=', userId).execute();
  return Number(result.numDeletedRows);
}

// Recovery codes ------------------------------------------------------------------------------

/** Replaces a user's recovery codes with these hashes. */
export async function replaceRecoveryCodes(
  db: Db,
  userId: number,
  hashes: string[],
  now: Date,
): Promise<void> {
  await db.deleteFrom('recovery_code').where('user_id', '=', userId).execute();
  const at = now.toISOString();
  await db
    .insertInto('recovery_code')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: at })))
    .execute();
}

/** Uses up a recovery code of the user (a delete: of two uses at once, one finds it gone). */
export async function takeRecoveryCode(db: Db, userId: number, hash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('recovery_code')
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_code')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

// Roles ---------------------------------------------------------------------------------------

export async function roleRequiresFactor(db: Db, roleId: number): Promise<boolean> {
  const row = await db
    .selectFrom('admin_role')
    .select('requires_second_factor')
    .where('role_id', '=', roleId)
    .executeTakeFirst();
  return Number(row?.requires_second_factor ?? 0) === 1;
}

// Sessions ------------------------------------------------------------------------------------

/** A user's signed-in sessions (the second step done), the most recently seen first. */
export const sessionsOf = (db: Db, userId: number) =>
  db
    .selectFrom('admin_session')
    .select(['session_hash', 'public_id', 'created_at', 'last_seen_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('stage', '=', 'full')
    .orderBy('last_seen_at', 'desc')
    .execute();

/** Ends one session of the user by its public id; answers whether it was there. */
export async function deleteSessionByPublicId(db: Db, userId: number, publicId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('admin_session')
    .where('user_id', '=', userId)
    .where('public_id', '=', publicId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Marks a session's full proof as given now. */
export async function markProved(db: Db, sessionHash: string, now: Date): Promise<void> {
  await db
    .updateTable('admin_session')
    .set({ proved_at: now.toISOString() })
    .where('session_hash', '=', sessionHash)
    .execute();
}

// Passkey challenges --------------------------------------------------------------------------

export async function storeChallenge(
  db: Db,
  c: { challenge: string; purpose: 'register' | 'sign-in'; userId: number | null; expiresAt: Date },
  now: Date,
): Promise<void> {
  await db.deleteFrom('webauthn_challenge').where('expires_at', '<', now.toISOString()).execute();
  await db
    .insertInto('webauthn_challenge')
    .values({
      challenge: c.challenge,
      purpose: c.purpose,
      user_id: c.userId,
      expires_at: c.expiresAt.toISOString(),
    })
    .execute();
}

/** Takes a challenge (once: it is deleted) when it is of this purpose and user and not expired. */
export async function takeChallenge(
  db: Db,
  challenge: string,
  purpose: 'register' | 'sign-in',
  userId: number | null,
  now: Date,
): Promise<boolean> {
  let q = db
    .deleteFrom('webauthn_challenge')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('expires_at', '>=', now.toISOString());
  q = userId === null ? q.where('user_id', 'is', null) : q.where('user_id', '=', userId);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
