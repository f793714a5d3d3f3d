import {
  newUserRefusal,
  roleChangeRefusal,
  userChangeRefusal,
  type Actor,
  OWNER_ROLE,
  type CreateUserBody,
  type Permission,
  type RoleBody,
  type UpdateUserBody,
  type UserChangeKind,
  type UserRow,
  DISPLAY_NAME_MAX,
  type ProfileBody,
} from '../../contract/auth';
import { lastChangeOf } from '../db/audit.repo';
import { staleVersion } from '../lib/versions';
import * as repo from '../db/auth.repo';
import { serializeOn } from '../db/database';
import type { Database } from '../db/schema';
import { deletePasswordTokens } from '../db/password-token.repo';
import type { Kysely } from 'kysely';
import { HttpError } from '../http-error';
import { hashPassword, oneTimePassword, passwordProblem } from '../lib/passwords';
import { cleanName } from '../lib/plain-text';
import { queuePasswordLink } from '../mail/mails';
import { inTransaction, mailConfigured, type Change, type ServiceContext } from './context';

/**
 * Users and roles (users.manage). Who may change whom is the contract's rules
 * (userChangeRefusal, newUserRefusal, roleChangeRefusal; 403 with their message): nobody changes
 * their own account or role here, only an owner touches an owner, nobody grants or touches a
 * permission they do not hold. At least one active user keeps users.manage: the last one cannot be
 * disabled, demoted or deleted (409). Every change writes its audit row in its transaction; `by` is
 * the signed-in user the rules are checked for (the context's actor).
 */

const LAST_MANAGER = 'At least one active user must be able to manage users.';
const EMAIL_TAKEN = 'A user with this email already exists.';
const ROLE_TAKEN = 'A role with this name already exists.';

type Role = NonNullable<Awaited<ReturnType<typeof repo.getRole>>>;
type Db = Kysely<Database>;

const oneTimeExpiry = (ctx: ServiceContext) =>
  new Date(ctx.now().getTime() + ctx.config.ONE_TIME_PASSWORD_HOURS * 3_600_000);

async function roleByName(ctx: ServiceContext, name: string): Promise<Role> {
  const roleId = await repo.roleIdByName(ctx.db, name);
  const role = roleId === undefined ? undefined : await repo.getRole(ctx.db, roleId);
  if (!role) throw new HttpError(400, 'Choose a role.', { role: 'Choose a role.' });
  return role;
}

/** 403 with the rule's message unless `by` may do `kind` to the user. */
async function checkUserChange(
  ctx: ServiceContext,
  by: Actor,
  target: UserRow,
  kind: UserChangeKind,
  newRole?: Role,
) {
  const current = await repo.getRole(ctx.db, target.role_id);
  const refusal = userChangeRefusal(
    by,
    { user_id: target.user_id, role: target.role, permissions: current?.permissions ?? [] },
    kind,
    newRole,
  );
  if (refusal) throw new HttpError(403, refusal);
}

/** A change refused (409) if no active user manager would be left after it. */
function keepingAManager<T>(ctx: ServiceContext, change: (c: Change) => Promise<T>): Promise<T> {
  return inTransaction(ctx, async (c) => {
    // two such changes at once (two owners disabling each other) must not both see the other
    // still there: they take turns
    await serializeOn(c.trx, 'user-managers');
    const result = await change(c);
    if ((await repo.countActiveUserManagers(c.trx)) === 0) throw new HttpError(409, LAST_MANAGER);
    return result;
  });
}

async function userOrNotFound(db: Db, id: number): Promise<UserRow> {
  const user = await repo.getUser(db, id);
  if (!user) throw new HttpError(404, 'User not found');
  return user;
}

export const listUsers = (ctx: ServiceContext) => repo.listUsers(ctx.db);
export const listRoles = (ctx: ServiceContext) => repo.listRoles(ctx.db);

/**
 * A new user. With a chosen password it works at once; without one, with mail the user is invited
 * to choose their own through a link (the random password nobody saw never works), and without
 * mail they get a one-time password shown once.
 */
export async function createUser(ctx: ServiceContext, by: Actor & { email: string }, body: CreateUserBody) {
  const { email, password } = body;
  const role = await roleByName(ctx, body.role);
  const refusal = newUserRefusal(by, role);
  if (refusal) throw new HttpError(403, refusal);
  if (await repo.emailTaken(ctx.db, email)) throw new HttpError(409, EMAIL_TAKEN, { email: EMAIL_TAKEN });
  const chosen = password !== undefined && password !== '';
  if (chosen) {
    const problem = passwordProblem(password, email);
    if (problem) throw new HttpError(400, problem, { password: problem });
  }
  const secret = chosen ? password : oneTimePassword();
  const invite = !chosen && mailConfigured(ctx);
  const oneTime = !chosen && !invite;
  const passwordHash = await hashPassword(secret);
  const userId = await inTransaction(ctx, async (c) => {
    const id = await repo.createUser(c.trx, {
      email,
      passwordHash,
      roleId: role.role_id,
      mustChangePassword: oneTime,
      passwordExpiresAt: oneTime ? oneTimeExpiry(ctx) : undefined,
    });
    if (invite) {
      await queuePasswordLink(c.trx, ctx.config, {
        userId: id,
        email,
        purpose: 'invite',
        lang: body.lang,
        inviter: by.email,
      });
      c.announce({ type: 'mail.queued' });
    }
    await c.audit({
      action: 'create',
      entity: 'admin_user',
      entityId: id,
      detail: { email, role: role.name, ...(invite ? { invited: true } : {}) },
    });
    return id;
  });
  const user = (await repo.getUser(ctx.db, userId))!;
  if (invite) return { message: 'Invitation sent', user, mailed_to: email };
  return { message: 'User created', user, ...(oneTime ? { one_time_password: secret } : {}) };
}

/** 409 with the user or role as it is now, and who changed it last (docs/decisions/022). */
async function staleAccount(db: ServiceContext['db'], entity: 'admin_user' | 'admin_role', id: number) {
  const current = entity === 'admin_user' ? await repo.getUser(db, id) : await repo.getRole(db, id);
  if (!current) return new HttpError(404, entity === 'admin_user' ? 'User not found' : 'Role not found');
  return staleVersion(current, await lastChangeOf(db, entity, id));
}

/**
 * Gives a user another role, or disables or enables them (a disabled user's sessions and links
 * end), if their access is still at `version` (409 with the user as they are now otherwise).
 */
export async function updateUser(
  ctx: ServiceContext,
  by: Actor,
  id: number,
  body: UpdateUserBody,
  version: number,
) {
  const before = await userOrNotFound(ctx.db, id);
  if (before.version !== version) throw await staleAccount(ctx.db, 'admin_user', id);
  const role = body.role !== undefined ? await roleByName(ctx, body.role) : undefined;
  const { disabled } = body;
  if (role && role.name !== before.role) await checkUserChange(ctx, by, before, 'role', role);
  if (disabled !== undefined && disabled !== before.disabled)
    await checkUserChange(ctx, by, before, 'disable');
  const detail: Record<string, unknown> = { email: before.email };
  if (role && role.name !== before.role) detail.role = { from: before.role, to: role.name };
  if (disabled !== undefined && disabled !== before.disabled) detail.disabled = disabled;
  await keepingAManager(ctx, async (c) => {
    if (!(await repo.changeAccess(c.trx, id, { roleId: role?.role_id, disabled }, version, c.at)))
      throw await staleAccount(c.trx, 'admin_user', id);
    if (disabled) {
      await repo.deleteUserSessions(c.trx, id);
      await deletePasswordTokens(c.trx, id);
    }
    await c.audit({ action: 'update', entity: 'admin_user', entityId: id, detail });
  });
  return { message: 'User updated', user: (await repo.getUser(ctx.db, id))! };
}

/**
 * Resets a user's password: the old one stops working now (it may be why the reset was asked: a
 * leaked password) and their sessions end. With mail they get a link and choose the password
 * themselves; without, a one-time password is shown once (and a link mailed earlier stops working).
 */
export async function resetPassword(ctx: ServiceContext, by: Actor, id: number, lang: string | undefined) {
  const user = await userOrNotFound(ctx.db, id);
  await checkUserChange(ctx, by, user, 'reset');
  if (mailConfigured(ctx)) {
    const unusable = await hashPassword(oneTimePassword() + oneTimePassword());
    await inTransaction(ctx, async (c) => {
      await repo.updateUser(c.trx, id, {
        passwordHash: unusable,
        mustChangePassword: false,
        passwordExpiresAt: null,
      });
      await queuePasswordLink(c.trx, ctx.config, { userId: id, email: user.email, purpose: 'reset', lang });
      await repo.deleteUserSessions(c.trx, id);
      await c.audit({
        action: 'reset_password',
        entity: 'admin_user',
        entityId: id,
        detail: { email: user.email, link: true },
      });
      c.announce({ type: 'mail.queued' });
    });
    return { message: 'Reset link sent', user: (await repo.getUser(ctx.db, id))!, mailed_to: user.email };
  }
  const secret = oneTimePassword();
  const passwordHash = await hashPassword(secret);
  await inTransaction(ctx, async (c) => {
    await deletePasswordTokens(c.trx, id);
    await repo.updateUser(c.trx, id, {
      passwordHash,
      mustChangePassword: true,
      passwordExpiresAt: oneTimeExpiry(ctx),
    });
    await repo.deleteUserSessions(c.trx, id);
    await c.audit({
      action: 'reset_password',
      entity: 'admin_user',
      entityId: id,
      detail: { email: user.email },
    });
  });
  return { message: 'Password reset', user: (await repo.getUser(ctx.db, id))!, one_time_password: secret };
}

export async function deleteUser(ctx: ServiceContext, by: Actor, id: number) {
  const user = await userOrNotFound(ctx.db, id);
  await checkUserChange(ctx, by, user, 'delete');
  await keepingAManager(ctx, async (c) => {
    await repo.deleteUser(c.trx, id);
    await c.audit({
      action: 'delete',
      entity: 'admin_user',
      entityId: id,
      detail: { email: user.email, role: user.role },
    });
  });
  return { message: 'User deleted' };
}

/** Whether a role requires a second factor is an owner's decision (docs/decisions/024). */
export const FACTOR_RULE_OWNER_ONLY = 'Only an owner can decide whether a role requires a second factor.';

export async function createRole(
  ctx: ServiceContext,
  by: Actor,
  { name, permissions, requires_second_factor: requires = false }: RoleBody,
) {
  const refusal = roleChangeRefusal(by, undefined, permissions as Permission[]);
  if (refusal) throw new HttpError(403, refusal, { permissions: refusal });
  if (requires && by.role !== OWNER_ROLE) throw new HttpError(403, FACTOR_RULE_OWNER_ONLY);
  if (await repo.roleNameTaken(ctx.db, name)) throw new HttpError(409, ROLE_TAKEN, { name: ROLE_TAKEN });
  const roleId = await inTransaction(ctx, async (c) => {
    const id = await repo.createRole(c.trx, name, permissions, c.at, requires);
    await c.audit({
      action: 'create',
      entity: 'admin_role',
      entityId: id,
      detail: { name, permissions, ...(requires ? { requires_second_factor: true } : {}) },
    });
    return id;
  });
  return { message: 'Role created', role: (await repo.getRole(ctx.db, roleId))! };
}

/** Renames a role and sets its permissions, if it is still at `version` (409 otherwise). */
export async function updateRole(
  ctx: ServiceContext,
  by: Actor,
  id: number,
  { name, permissions, requires_second_factor: requires }: RoleBody,
  version: number,
) {
  const role = await repo.getRole(ctx.db, id);
  if (!role) throw new HttpError(404, 'Role not found');
  if (role.version !== version) throw await staleAccount(ctx.db, 'admin_role', id);
  const ruleChanges = requires !== undefined && requires !== role.requires_second_factor;
  const sameAccess =
    name === role.name &&
    permissions.length === role.permissions.length &&
    permissions.every((p) => role.permissions.includes(p));
  if (ruleChanges && by.role !== OWNER_ROLE) throw new HttpError(403, FACTOR_RULE_OWNER_ONLY);
  // an owner may require a second factor of any role, built-in or their own, without changing it otherwise
  if (!(ruleChanges && sameAccess)) {
    if (role.built_in) throw new HttpError(409, 'Built-in roles cannot be changed.');
    const refusal = roleChangeRefusal(by, role, permissions as Permission[]);
    if (refusal) throw new HttpError(403, refusal);
  }
  if (await repo.roleNameTaken(ctx.db, name, id)) throw new HttpError(409, ROLE_TAKEN, { name: ROLE_TAKEN });
  await keepingAManager(ctx, async (c) => {
    if (!(await repo.updateRole(c.trx, id, name, permissions, version, requires)))
      throw await staleAccount(c.trx, 'admin_role', id);
    await c.audit({
      action: 'update',
      entity: 'admin_role',
      entityId: id,
      detail: {
        name,
        permissions,
        ...(ruleChanges ? { requires_second_factor: requires } : {}),
        before: {
          name: role.name,
          permissions: role.permissions,
          ...(ruleChanges ? { requires_second_factor: role.requires_second_factor } : {}),
        },
      },
    });
  });
  return { message: 'Role updated', role: (await repo.getRole(ctx.db, id))! };
}

export async function deleteRole(ctx: ServiceContext, by: Actor, id: number) {
  const role = await repo.getRole(ctx.db, id);
  if (!role) throw new HttpError(404, 'Role not found');
  if (role.built_in) throw new HttpError(409, 'Built-in roles cannot be deleted.');
  const refusal = roleChangeRefusal(by, role);
  if (refusal) throw new HttpError(403, refusal);
  if (role.user_count > 0) {
    throw new HttpError(
      409,
      `This role is given to ${role.user_count} user(s); give them another role first.`,
    );
  }
  await inTransaction(ctx, async (c) => {
    await repo.deleteRole(c.trx, id);
    await c.audit({ action: 'delete', entity: 'admin_role', entityId: id, detail: { name: role.name } });
  });
  return { message: 'Role deleted' };
}

/**
 * A person's display name, the name readers see on the posts they write (docs/decisions/025-blog-publishing.md): their own
 * choice, one line of at most DISPLAY_NAME_MAX characters ('' for none). Audited.
 */
export async function setDisplayName(ctx: ServiceContext, userId: number, body: ProfileBody) {
  const name = cleanName(body.display_name);
  if (Array.from(name).length > DISPLAY_NAME_MAX)
    throw HttpError.fields(
      'Please correct the highlighted fields.',
      { display_name: 'tooLong' },
      {
        tooLong: `At most ${DISPLAY_NAME_MAX} characters`,
      },
    );
  await inTransaction(ctx, async (c) => {
    if (!(await repo.setDisplayName(c.trx, userId, name))) throw new HttpError(404, 'User not found');
    await c.audit({
      action: 'update',
      entity: 'admin_user',
      entityId: userId,
      detail: { display_name: name },
    });
  });
  return { display_name: name };
}
