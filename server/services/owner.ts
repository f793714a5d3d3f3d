import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config';
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
import { HttpError } from '../http-error';
import { hashPassword, passwordProblem } from '../lib/passwords';
import { inTransaction, type ServiceContext } from './context';

/**
 * The owner accounts: the rules of an owner's email and password, and the three ways the first
 * owner is made, each audited: `npm run create-admin`, ADMIN_EMAIL / ADMIN_PASSWORD on a first
 * start, and the printed setup address (the first five minutes, below).
 */

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
  ctx: ServiceContext,
  email: string,
  password: string,
  via: string,
): Promise<number> {
  const clean = checkOwnerAccount(email, password);
  await ensureBuiltInRoles(ctx.db, ctx.config.REQUIRE_SECOND_FACTOR);
  if (await emailTaken(ctx.db, clean))
    throw new OwnerAccountError(`A user with the email ${clean} already exists`);
  const roleId = (await roleIdByName(ctx.db, 'owner'))!;
  const passwordHash = await hashPassword(password);
  return inTransaction({ ...ctx, actor: null }, async (c) => {
    const id = await createUser(c.trx, { email: clean, passwordHash, roleId, mustChangePassword: false });
    await c.audit({
      action: 'create',
      entity: 'admin_user',
      entityId: id,
      detail: { email: clean, role: 'owner', via },
    });
    return id;
  });
}

/**
 * On start: the built-in roles exist, and with ADMIN_EMAIL + ADMIN_PASSWORD set and no user yet,
 * the first owner is created. Answers what it did, for the start-up log.
 */
export async function prepareAccounts(
  ctx: ServiceContext,
  config: Pick<Config, 'ADMIN_EMAIL' | 'ADMIN_PASSWORD'>,
) {
  await ensureBuiltInRoles(ctx.db, ctx.config.REQUIRE_SECOND_FACTOR);
  if (!config.ADMIN_EMAIL || !config.ADMIN_PASSWORD) return { created: false as const };
  // set, with accounts made: it does nothing, and it waits in the environment for anyone to read
  if ((await countUsers(ctx.db)) > 0) return { created: false as const, passwordLeftSet: true as const };
  await createOwner(ctx, config.ADMIN_EMAIL, config.ADMIN_PASSWORD, 'ADMIN_EMAIL');
  return { created: true as const, email: config.ADMIN_EMAIL.trim().toLowerCase() };
}

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
export async function issueSetupToken(ctx: ServiceContext, now = ctx.now()): Promise<string | null> {
  const db = ctx.db;
  if ((await countUsers(db)) > 0) return null;
  const token = randomBytes(32).toString('base64url');
  // a restart prints a new address: the ones printed before stop working
  await clearSetupTokens(db);
  await storeSetupToken(db, hashOf(token), new Date(now.getTime() + SETUP_TOKEN_HOURS * 3_600_000), now);
  return token;
}

/** Whether the site still needs its first account (the sign-in page says how to make it). */
export async function setupNeeded(ctx: ServiceContext): Promise<boolean> {
  return (await countUsers(ctx.db)) === 0;
}

/**
 * The shell command that makes the owner on this server: `npm run create-admin` from a checkout;
 * the compiled script in the container image (scripts/container-server.mjs runs this module as .js
 * at its own path, without npm).
 */
export const createAdminCommand = (moduleUrl = import.meta.url) =>
  moduleUrl.endsWith('.js')
    ? 'node server/scripts/create-admin.js --email you@example.com'
    : 'npm run create-admin -- --email you@example.com';

export const SETUP_REFUSED =
  'This setup address is not valid any more. Ask whoever runs the server for a new one, or use npm run create-admin.';
export const SETUP_DONE = 'The site already has an account: sign in instead.';

/**
 * Creates the first owner with a setup token: 400 for a weak password or a bad email (the rule's
 * message, on its field), 404 for an unknown, used or expired token, 409 once any user exists.
 * Two setups at once create one owner: the check and the creation take turns.
 */
export async function ownerFromSetupToken(
  ctx: ServiceContext,
  token: string,
  email: string,
  password: string,
): Promise<number> {
  const now = ctx.now();
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
  return inTransaction({ ...ctx, actor: null }, async ({ trx, audit }) => {
    await serializeOn(trx, 'first-owner');
    // inside the turn: two setups at once would both add the built-in roles, and one would fail
    await ensureBuiltInRoles(trx, ctx.config.REQUIRE_SECOND_FACTOR);
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
    await audit({
      action: 'create',
      entity: 'admin_user',
      entityId: userId,
      detail: { email: clean, role: 'owner', via: 'setup address' },
    });
    return userId;
  });
}
