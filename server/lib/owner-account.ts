import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { countUsers, createUser, emailTaken, ensureBuiltInRoles, roleIdByName } from '../db/auth.repo';
import type { Database } from '../db/schema';
import { auditedChange } from '../db/audit.repo';
import { hashPassword, passwordProblem } from './passwords';

/** A refused owner account (bad email, weak password, taken email): the message says why. */
export class OwnerAccountError extends Error {
  override name = 'OwnerAccountError';
  constructor(
    message: string,
    /** The form field the message belongs to. */
    readonly field: 'email' | 'password' = 'email',
  ) {
    super(message);
  }
}

/**
 * The rules of an owner account's email and password (every way of making the first owner uses
 * them); answers the email as stored (trimmed, lower-cased), or throws OwnerAccountError.
 */
export function checkOwnerAccount(email: string, password: string): string {
  const clean = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(clean) || clean.length > 254) {
    throw new OwnerAccountError(`Not an email address: ${email}`, 'email');
  }
  const problem = passwordProblem(password, clean);
  if (problem) throw new OwnerAccountError(problem, 'password');
  return clean;
}

/**
 * Creates an owner account (role `owner`, every permission). Used by `npm run create-admin` and
 * by the first start with ADMIN_EMAIL / ADMIN_PASSWORD; nothing else creates an account without
 * a signed-in owner.
 */
export async function createOwner(
  db: Kysely<Database>,
  email: string,
  password: string,
  via: string,
): Promise<number> {
  const clean = checkOwnerAccount(email, password);
  await ensureBuiltInRoles(db);
  if (await emailTaken(db, clean))
    throw new OwnerAccountError(`A user with the email ${clean} already exists`);
  const roleId = (await roleIdByName(db, 'owner'))!;
  const passwordHash = await hashPassword(password);
  const userId = await auditedChange(
    db,
    (trx) => createUser(trx, { email: clean, passwordHash, roleId, mustChangePassword: false }),
    (id) => ({
      actor: null,
      action: 'create',
      entity: 'admin_user',
      entityId: id,
      detail: { email: clean, role: 'owner', via },
    }),
  );
  return userId;
}

/**
 * On start: the built-in roles exist, and with ADMIN_EMAIL + ADMIN_PASSWORD set and no user yet,
 * the first owner is created. Answers what it did, for the start-up log.
 */
export async function prepareAccounts(
  db: Kysely<Database>,
  config: Pick<Config, 'ADMIN_EMAIL' | 'ADMIN_PASSWORD'>,
) {
  await ensureBuiltInRoles(db);
  if (!config.ADMIN_EMAIL || !config.ADMIN_PASSWORD) return { created: false as const };
  if ((await countUsers(db)) > 0) return { created: false as const };
  await createOwner(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD, 'ADMIN_EMAIL');
  return { created: true as const, email: config.ADMIN_EMAIL.trim().toLowerCase() };
}
