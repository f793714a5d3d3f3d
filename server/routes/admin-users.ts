import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuditQuery,
  AuditRows,
  CreateUserAnswer,
  CreateUserBody,
  IdParams,
  MessageAnswer,
  RoleAnswer,
  RoleBody,
  RoleRows,
  UpdateUserBody,
  UserAnswer,
  UserRows,
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
import { HttpError } from '../http-error';
import { listAudit, recordAudit } from '../lib/audit';
import { hashPassword, oneTimePassword, passwordProblem } from '../lib/passwords';

/**
 * Users, roles and the audit log (DESIGN.md section 4): /api/admin/users, /api/admin/roles
 * (users.manage) and /api/admin/audit (audit.read). Every change is in the audit log. At least
 * one active user keeps users.manage: the last one cannot be disabled, demoted or deleted.
 */
const LAST_MANAGER = 'At least one active user must be able to manage users.';

const adminUsers: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  async function roleByName(name: string) {
    const roleId = await roleIdByName(db, name);
    const role = roleId === undefined ? undefined : await getRole(db, roleId);
    if (!role) throw new HttpError(400, 'Choose a role.', { role: 'Choose a role.' });
    return role;
  }

  /** Runs a change, then refuses it (409) if no active user manager would be left. */
  async function keepingAManager<T>(change: (trx: typeof db) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (trx) => {
      const result = await change(trx);
      if ((await countActiveUserManagers(trx)) === 0) throw new HttpError(409, LAST_MANAGER);
      return result;
    });
  }

  app.get(
    '/admin/users',
    { config: { permission: 'users.manage' }, schema: { response: { 200: UserRows } } },
    () => listUsers(db),
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
      if (await emailTaken(db, email)) {
        throw new HttpError(409, 'A user with this email already exists.', {
          email: 'A user with this email already exists.',
        });
      }
      let secret = password;
      if (secret !== undefined && secret !== '') {
        const problem = passwordProblem(secret, email);
        if (problem) throw new HttpError(400, problem, { password: problem });
      } else {
        secret = oneTimePassword();
      }
      const oneTime = secret !== password;
      const userId = await createUser(db, {
        email,
        passwordHash: await hashPassword(secret),
        roleId: role.role_id,
        mustChangePassword: oneTime,
      });
      await recordAudit(db, {
        actor: request.user,
        action: 'create',
        entity: 'admin_user',
        entityId: userId,
        detail: { email, role: role.name },
      });
      const user = (await getUser(db, userId))!;
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
      await keepingAManager(async (trx) => {
        await updateUser(trx, id, { roleId: role?.role_id, disabled });
        if (disabled) await deleteUserSessions(trx, id);
      });
      const detail: Record<string, unknown> = { email: before.email };
      if (role && role.name !== before.role) detail.role = { from: before.role, to: role.name };
      if (disabled !== undefined && disabled !== before.disabled) detail.disabled = disabled;
      await recordAudit(db, {
        actor: request.user,
        action: 'update',
        entity: 'admin_user',
        entityId: id,
        detail,
      });
      return { message: 'User updated', user: (await getUser(db, id))! };
    },
  );

  app.post(
    '/admin/users/:id/reset-password',
    {
      config: { permission: 'users.manage' },
      schema: { params: IdParams, response: { 200: CreateUserAnswer } },
    },
    async (request) => {
      const { id } = request.params;
      const user = await getUser(db, id);
      if (!user) throw new HttpError(404, 'User not found');
      const secret = oneTimePassword();
      await updateUser(db, id, { passwordHash: await hashPassword(secret), mustChangePassword: true });
      await deleteUserSessions(db, id);
      await recordAudit(db, {
        actor: request.user,
        action: 'reset_password',
        entity: 'admin_user',
        entityId: id,
        detail: { email: user.email },
      });
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
      if (id === request.user!.user_id) throw new HttpError(409, 'You cannot delete your own account.');
      const user = await getUser(db, id);
      if (!user) throw new HttpError(404, 'User not found');
      await keepingAManager((trx) => deleteUser(trx, id));
      await recordAudit(db, {
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
    () => listRoles(db),
  );

  app.post(
    '/admin/roles',
    { config: { permission: 'users.manage' }, schema: { body: RoleBody, response: { 200: RoleAnswer } } },
    async (request) => {
      const { name, permissions } = request.body;
      if (await roleNameTaken(db, name)) {
        throw new HttpError(409, 'A role with this name already exists.', {
          name: 'A role with this name already exists.',
        });
      }
      const roleId = await createRole(db, name, permissions);
      await recordAudit(db, {
        actor: request.user,
        action: 'create',
        entity: 'admin_role',
        entityId: roleId,
        detail: { name, permissions },
      });
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
      if (await roleNameTaken(db, name, id)) {
        throw new HttpError(409, 'A role with this name already exists.', {
          name: 'A role with this name already exists.',
        });
      }
      await keepingAManager((trx) => updateRole(trx, id, name, permissions));
      await recordAudit(db, {
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
      if (role.user_count > 0) {
        throw new HttpError(
          409,
          `This role is given to ${role.user_count} user(s); give them another role first.`,
        );
      }
      await deleteRole(db, id);
      await recordAudit(db, {
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
