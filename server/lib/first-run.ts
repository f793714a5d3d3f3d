import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  clearSetupTokens,
  countUsers,
  createUser,
  emailTaken,
  ensureBuiltInRoles,
  roleIdByName,
  storeSetupToken,
  useSetupToken,
} from '../db/auth.repo';
import { serializeOn } from '../db/database';
import type { Database } from '../db/schema';
import { HttpError } from '../http-error';
import { recordAudit } from '../db/audit.repo';
import { OwnerAccountError, checkOwnerAccount } from './owner-account';
import { hashPassword } from './passwords';

/**
 * The first five minutes: a server that starts with no user account prints a one-time setup
 * address (`/admin/setup?token=...`, like Grafana's or Jupyter's first-run token). Whoever opens it
 * creates the owner account, with the same rules as `npm run create-admin`, and is signed in. The
 * token is random (32 bytes), only its SHA-256 is stored, it works once and for 24 hours, and no
 * token works once any user exists. Each start with no user prints a new one, which ends the ones
 * printed before.
 */

export const SETUP_TOKEN_HOURS = 24;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** On start with no users: a new setup token (answered, to be printed), or null when users exist. */
export async function issueSetupToken(db: Kysely<Database>, now = new Date()): Promise<string | null> {
  if ((await countUsers(db)) > 0) return null;
  const token = randomBytes(32).toString('base64url');
  // a restart prints a new address: the ones printed before stop working
  await clearSetupTokens(db);
  await storeSetupToken(db, hashOf(token), new Date(now.getTime() + SETUP_TOKEN_HOURS * 3_600_000), now);
  return token;
}

/** Whether the site still needs its first account (the sign-in page says how to make it). */
export async function setupNeeded(db: Kysely<Database>): Promise<boolean> {
  return (await countUsers(db)) === 0;
}

export const SETUP_REFUSED =
  'This setup address is not valid any more. Ask whoever runs the server for a new one, or use npm run create-admin.';
export const SETUP_DONE = 'The site already has an account: sign in instead.';

/**
 * Creates the first owner with a setup token: 400 for a weak password or a bad email (the rule's
 * message, on its field), 404 for an unknown, used or expired token, 409 once any user exists.
 * Two setups at once create one owner: the check and the creation take turns.
 */
export async function ownerFromSetupToken(
  db: Kysely<Database>,
  token: string,
  email: string,
  password: string,
  now = new Date(),
): Promise<number> {
  let clean: string;
  try {
    clean = checkOwnerAccount(email, password);
  } catch (err) {
    if (err instanceof OwnerAccountError) {
      throw new HttpError(400, err.message, { [err.field]: err.message });
    }
    throw err;
  }
  const passwordHash = await hashPassword(password);
  await ensureBuiltInRoles(db);
  return db.transaction().execute(async (trx) => {
    await serializeOn(trx, 'first-owner');
    if ((await countUsers(trx)) > 0) throw new HttpError(409, SETUP_DONE);
    if (!(await useSetupToken(trx, hashOf(token), now))) throw new HttpError(404, SETUP_REFUSED);
    if (await emailTaken(trx, clean)) throw new HttpError(409, SETUP_DONE);
    const userId = await createUser(trx, {
      email: clean,
      passwordHash,
      roleId: (await roleIdByName(trx, 'owner'))!,
      mustChangePassword: false,
    });
    await clearSetupTokens(trx);
    await recordAudit(trx, {
      actor: null,
      action: 'create',
      entity: 'admin_user',
      entityId: userId,
      detail: { email: clean, role: 'owner', via: 'setup address' },
    });
    return userId;
  });
}
