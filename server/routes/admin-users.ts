import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import {
  type Actor,
  AuditQuery,
  type SessionUser,
  AuditRows,
  BACKUP_STALE_HOURS,
  BackupStatus,
  CreateUserAnswer,
  CreateUserBody,
  ResetUserBody,
  IdParams,
  MessageAnswer,
  RoleAnswer,
  RoleBody,
  RoleRows,
  UpdateUserBody,
  UserAnswer,
  UserRows,
  newUserRefusal,
  roleChangeRefusal,
  userChangeRefusal,
  type UserChangeKind,
  type UserRow,
} from '../../src/api/contract/auth';
import {
  countActiveUserManagers,
  createRole,
  createUser,
  deleteRole,
  deleteUser,
  deleteUserSessions,
  emailTaken,
  getRole,
  getUser,
  listRoles,
  listUsers,
  roleIdByName,
  roleNameTaken,
  updateRole,
  updateUser,
} from '../db/auth.repo';
import { serializeOn } from '../db/database';
import { mailCounts } from '../db/mail.repo';
import { deletePasswordTokens } from '../db/password-token.repo';
import { HttpError } from '../http-error';
import { auditedChange, listAudit, type AuditEntry } from '../db/audit.repo';
import { newestBackup } from '../lib/backup';
import { hashPassword, oneTimePassword, passwordProblem } from '../lib/passwords';
import { queuePasswordLink } from '../mail/mails';

/**
 * Users, roles and the audit log: /api/admin/users, /api/admin/roles (users.manage) and
 * /api/admin/audit (audit.read). Every change writes its audit row in the change's transaction.
 * Who may change whom is decided by the contract's rules (userChangeRefusal, newUserRefusal,
 * roleChangeRefusal; 403 with their message): nobody changes their own account or role here, only
 * an owner touches an owner, nobody grants or touches a permission they do not hold. At least one
 * active user keeps users.manage: the last one cannot be disabled, demoted or deleted (409).
 */
const LAST_MANAGER = 'At least one active user must be able to manage users.';

const adminUsers: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  type Role = NonNullable<Awaited<ReturnType<typeof getRole>>>;

  async function roleByName(name: string) {
    const roleId = await roleIdByName(db, name);
    const role = roleId === undefined ? undefined : await getRole(db, roleId);
    if (!role) throw new HttpError(400, 'Choose a role.', { role: 'Choose a role.' });
    return role;
  }

  const oneTimeExpiry = () => new Date(Date.now() + app.config.ONE_TIME_PASSWORD_HOURS * 3_600_000);
  const actorOf = (request: { user: SessionUser | null }) => request.user!;

  /** 403 with the rule's message unless `actor` may do `kind` to the user. */
  async function checkUserChange(actor: Actor, target: UserRow, kind: UserChangeKind, newRole?: Role) {
    const current = await getRole(db, target.role_id);
    const refusal = userChangeRefusal(
      actor,
      { user_id: target.user_id, role: target.role, permissions: current?.permissions ?? [] },
      kind,
      newRole,
    );
    if (refusal) throw new HttpError(403, refusal);
  }

  /** An audited change (db/audit.repo.ts), refused (409) if no active user manager would be left. */
  async function keepingAManager(
    change: (trx: typeof db) => Promise<void>,
    entry: AuditEntry,
  ): Promise<void> {
    await auditedChange(
      db,
      async (trx) => {
        // two such changes at once (two owners disabling each other) must not both see the other
        // still there: they take turns
        await serializeOn(trx, 'user-managers');
        await change(trx);
        if ((await countActiveUserManagers(trx)) === 0) throw new HttpError(409, LAST_MANAGER);
      },
      entry,
    );
  }

  app.get(
    '/admin/users',
    { config: { permission: 'users.manage' }, schema: { response: { 200: UserRows } } },
    (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return listUsers(db);
    },
  );

  app.post(
    '/admin/users',
    {
      config: { permission: 'users.manage' },
      schema: { body: CreateUserBody, response: { 200: CreateUserAnswer } },
    },
    async (request) => {
      const { email, password } = request.body;
      const role = await roleByName(request.body.role);
      const refusal = newUserRefusal(actorOf(request), role);
      if (refusal) throw new HttpError(403, refusal);
      if (await emailTaken(db, email)) {
        throw new HttpError(409, 'A user with this email already exists.', {
          email: 'A user with this email already exists.',
        });
      }
      let secret = password;
      const chosen = secret !== undefined && secret !== '';
      if (chosen) {
        const problem = passwordProblem(secret!, email);
        if (problem) throw new HttpError(400, problem, { password: problem });
      } else {
        secret = oneTimePassword();
      }
      // With mail, a user made without a password is invited: they choose their own through a
      // link (INVITATION_HOURS), and the random password nobody saw never works for anyone.
      const invite = !chosen && app.mail.configured;
      const oneTime = !chosen && !invite;
      const passwordHash = await hashPassword(secret!);
      const userId = await auditedChange(
        db,
        async (trx) => {
          const id = await createUser(trx, {
            email,
            passwordHash,
            roleId: role.role_id,
            mustChangePassword: oneTime,
            passwordExpiresAt: oneTime ? oneTimeExpiry() : undefined,
          });
          if (invite) {
            await queuePasswordLink(trx, app.config, {
              userId: id,
              email,
              purpose: 'invite',
              lang: request.body.lang,
              inviter: actorOf(request).email,
            });
          }
          return id;
        },
        (id) => ({
          actor: request.user,
          action: 'create',
          entity: 'admin_user',
          entityId: id,
          detail: { email, role: role.name, ...(invite ? { invited: true } : {}) },
        }),
      );
      if (invite) app.mail.poke();
      const user = (await getUser(db, userId))!;
      if (invite) return { message: 'Invitation sent', user, mailed_to: email };
      return { message: 'User created', user, ...(oneTime ? { one_time_password: secret } : {}) };
    },
  );

  app.patch(
    '/admin/users/:id',
    {
      config: { permission: 'users.manage' },
      schema: { params: IdParams, body: UpdateUserBody, response: { 200: UserAnswer } },
    },
    async (request) => {
      const { id } = request.params;
      const before = await getUser(db, id);
      if (!before) throw new HttpError(404, 'User not found');
      const role = request.body.role !== undefined ? await roleByName(request.body.role) : undefined;
      const disabled = request.body.disabled;
      const actor = actorOf(request);
      if (role && role.name !== before.role) await checkUserChange(actor, before, 'role', role);
      if (disabled !== undefined && disabled !== before.disabled)
        await checkUserChange(actor, before, 'disable');
      const detail: Record<string, unknown> = { email: before.email };
      if (role && role.name !== before.role) detail.role = { from: before.role, to: role.name };
      if (disabled !== undefined && disabled !== before.disabled) detail.disabled = disabled;
      await keepingAManager(
        async (trx) => {
          await updateUser(trx, id, { roleId: role?.role_id, disabled });
          if (disabled) {
            await deleteUserSessions(trx, id);
            await deletePasswordTokens(trx, id);
          }
        },
        { actor, action: 'update', entity: 'admin_user', entityId: id, detail },
      );
      return { message: 'User updated', user: (await getUser(db, id))! };
    },
  );

  app.post(
    '/admin/users/:id/reset-password',
    {
      config: { permission: 'users.manage' },
      schema: { params: IdParams, body: z.nullish(ResetUserBody), response: { 200: CreateUserAnswer } },
    },
    async (request) => {
      const { id } = request.params;
      const user = await getUser(db, id);
      if (!user) throw new HttpError(404, 'User not found');
      await checkUserChange(actorOf(request), user, 'reset');
      if (app.mail.configured) {
        // With mail, the user gets a reset link and chooses the password themselves. As with a
        // one-time password, the old password stops working now (it may be why the reset was
        // asked: a leaked password) and their sessions end: it becomes one nobody knows.
        const unusable = await hashPassword(oneTimePassword() + oneTimePassword());
        await auditedChange(
          db,
          async (trx) => {
            await updateUser(trx, id, {
              passwordHash: unusable,
              mustChangePassword: false,
              passwordExpiresAt: null,
            });
            await queuePasswordLink(trx, app.config, {
              userId: id,
              email: user.email,
              purpose: 'reset',
              lang: request.body?.lang,
            });
            await deleteUserSessions(trx, id);
          },
          {
            actor: request.user,
            action: 'reset_password',
            entity: 'admin_user',
            entityId: id,
            detail: { email: user.email, link: true },
          },
        );
        app.mail.poke();
        return { message: 'Reset link sent', user: (await getUser(db, id))!, mailed_to: user.email };
      }
      const secret = oneTimePassword();
      const passwordHash = await hashPassword(secret);
      await auditedChange(
        db,
        async (trx) => {
          await deletePasswordTokens(trx, id); // a link mailed earlier stops working too
          await updateUser(trx, id, {
            passwordHash,
            mustChangePassword: true,
            passwordExpiresAt: oneTimeExpiry(),
          });
          await deleteUserSessions(trx, id);
        },
        {
          actor: request.user,
          action: 'reset_password',
          entity: 'admin_user',
          entityId: id,
          detail: { email: user.email },
        },
      );
      return { message: 'Password reset', user: (await getUser(db, id))!, one_time_password: secret };
    },
  );

  app.delete(
    '/admin/users/:id',
    {
      config: { permission: 'users.manage' },
      schema: { params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => {
      const { id } = request.params;
      const user = await getUser(db, id);
      if (!user) throw new HttpError(404, 'User not found');
      await checkUserChange(actorOf(request), user, 'delete');
      await keepingAManager((trx) => deleteUser(trx, id), {
        actor: request.user,
        action: 'delete',
        entity: 'admin_user',
        entityId: id,
        detail: { email: user.email, role: user.role },
      });
      return { message: 'User deleted' };
    },
  );

  app.get(
    '/admin/roles',
    { config: { permission: 'users.manage' }, schema: { response: { 200: RoleRows } } },
    (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return listRoles(db);
    },
  );

  app.post(
    '/admin/roles',
    { config: { permission: 'users.manage' }, schema: { body: RoleBody, response: { 200: RoleAnswer } } },
    async (request) => {
      const { name, permissions } = request.body;
      const refusal = roleChangeRefusal(actorOf(request), undefined, permissions);
      if (refusal) throw new HttpError(403, refusal, { permissions: refusal });
      if (await roleNameTaken(db, name)) {
        throw new HttpError(409, 'A role with this name already exists.', {
          name: 'A role with this name already exists.',
        });
      }
      const roleId = await auditedChange(
        db,
        (trx) => createRole(trx, name, permissions),
        (id) => ({
          actor: request.user,
          action: 'create',
          entity: 'admin_role',
          entityId: id,
          detail: { name, permissions },
        }),
      );
      return { message: 'Role created', role: (await getRole(db, roleId))! };
    },
  );

  app.patch(
    '/admin/roles/:id',
    {
      config: { permission: 'users.manage' },
      schema: { params: IdParams, body: RoleBody, response: { 200: RoleAnswer } },
    },
    async (request) => {
      const { id } = request.params;
      const { name, permissions } = request.body;
      const role = await getRole(db, id);
      if (!role) throw new HttpError(404, 'Role not found');
      if (role.built_in) throw new HttpError(409, 'Built-in roles cannot be changed.');
      const refusal = roleChangeRefusal(actorOf(request), role, permissions);
      if (refusal) throw new HttpError(403, refusal);
      if (await roleNameTaken(db, name, id)) {
        throw new HttpError(409, 'A role with this name already exists.', {
          name: 'A role with this name already exists.',
        });
      }
      await keepingAManager((trx) => updateRole(trx, id, name, permissions), {
        actor: request.user,
        action: 'update',
        entity: 'admin_role',
        entityId: id,
        detail: { name, permissions, before: { name: role.name, permissions: role.permissions } },
      });
      return { message: 'Role updated', role: (await getRole(db, id))! };
    },
  );

  app.delete(
    '/admin/roles/:id',
    {
      config: { permission: 'users.manage' },
      schema: { params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => {
      const { id } = request.params;
      const role = await getRole(db, id);
      if (!role) throw new HttpError(404, 'Role not found');
      if (role.built_in) throw new HttpError(409, 'Built-in roles cannot be deleted.');
      const refusal = roleChangeRefusal(actorOf(request), role);
      if (refusal) throw new HttpError(403, refusal);
      if (role.user_count > 0) {
        throw new HttpError(
          409,
          `This role is given to ${role.user_count} user(s); give them another role first.`,
        );
      }
      await auditedChange(db, (trx) => deleteRole(trx, id), {
        actor: request.user,
        action: 'delete',
        entity: 'admin_role',
        entityId: id,
        detail: { name: role.name },
      });
      return { message: 'Role deleted' };
    },
  );

  app.get(
    '/admin/backup-status',
    { config: { permission: 'audit.read' }, schema: { response: { 200: BackupStatus } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const dir = app.config.BACKUP_DIR;
      const last = dir ? await newestBackup(dir) : null;
      const stale = !last || Date.now() - Date.parse(last.at) > BACKUP_STALE_HOURS * 3_600_000;
      const today = new Date().toISOString().slice(0, 10);
      const mail = { configured: app.mail.configured, ...(await mailCounts(db, `${today}T00:00:00.000Z`)) };
      return { configured: dir !== undefined, last, stale, mail };
    },
  );

  app.get(
    '/admin/audit',
    {
      config: { permission: 'audit.read' },
      schema: { querystring: AuditQuery, response: { 200: AuditRows } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listAudit(db, request.query);
    },
  );
};

export default adminUsers;
