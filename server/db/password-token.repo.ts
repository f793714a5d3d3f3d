import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Single-use password links (migration 0900): a reset asked for on the sign-in page, or the
 * invitation of a new user. Only the SHA-256 of a link's token is stored; using it deletes it.
 */

type Db = Kysely<Database>;

export type PasswordLinkPurpose = 'reset' | 'invite';

/** Stores a link's token hash; earlier unused links of the same user and purpose stop working. */
export async function storePasswordToken(
  db: Db,
  o: { tokenHash: string; userId: number; purpose: PasswordLinkPurpose; expiresAt: Date },
  now = new Date(),
): Promise<void> {
  await db
    .deleteFrom('password_token')
    .where((eb) =>
      eb.or([
        eb.and([eb('user_id', '=', o.userId), eb('purpose', '=', o.purpose)]),
        eb('expires_at', '<', now.toISOString()),
      ]),
    )
    .execute();
  await db
    .insertInto('password_token')
    .values({
      token_hash: o.tokenHash,
      user_id: o.userId,
      purpose: o.purpose,
      created_at: now.toISOString(),
      expires_at: o.expiresAt.toISOString(),
    })
    .execute();
}

/**
 * Uses a link: deletes its row and answers its user and purpose when it existed and had not
 * expired. Two uses at once: one DELETE wins, the other finds nothing.
 */
export async function takePasswordToken(
  db: Db,
  tokenHash: string,
  now = new Date(),
): Promise<{ user_id: number; purpose: PasswordLinkPurpose } | undefined> {
  const row = await db
    .deleteFrom('password_token')
    .where('token_hash', '=', tokenHash)
    .returning(['user_id', 'purpose', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at < now.toISOString()) return undefined;
  return { user_id: row.user_id, purpose: row.purpose };
}

/** Every link of a user stops working (their password changed some other way, or they were disabled). */
export async function deletePasswordTokens(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('password_token').where('user_id', '=', userId).execute();
}

/** The user of a link that still works, without using it (to check the new password first). */
export async function peekPasswordToken(
  db: Db,
  tokenHash: string,
  now = new Date(),
): Promise<{ user_id: number; purpose: PasswordLinkPurpose } | undefined> {
  return db
    .selectFrom('password_token')
    .select(['user_id', 'purpose'])
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>=', now.toISOString())
    .executeTakeFirst();
}
