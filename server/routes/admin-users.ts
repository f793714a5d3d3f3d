import { clearUserFactors } from '../services/factors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { versionOfRequest } from '../lib/versions';
import { z } from 'zod/mini';
import {
  AuditQuery,
  AuditRows,
  BackupStatus,
  CreateUserAnswer,
  CreateUserBody,
  IdParams,
  MessageAnswer,
  ResetUserBody,
  RoleAnswer,
  RoleBody,
  RoleRows,
  UpdateUserBody,
  UserAnswer,
  UserRows,
} from '../../contract/auth';
import * as accounts from '../services/accounts';
import { activity } from '../services/audit';
import { backupStatus } from '../services/backups';

/**
 * Users and roles (users.manage; services/accounts.ts: who may change whom, the last user manager,
 * invitations and resets), the activity log and the backup status (audit.read).
 */
const adminUsers: FastifyPluginAsyncZod = async (app) => {
  const users = { config: { permission: 'users.manage' as const } };
  /** Changes that grant power or touch how someone signs in also need a fresh proof. */
  const granting = { config: { permission: 'users.manage' as const, freshProof: true } };

  app.get('/admin/users', { ...users, schema: { response: { 200: UserRows } } }, (request, reply) => {
    reply.header('cache-control', 'no-store');
    return accounts.listUsers(app.services(request));
  });

  app.post(
    '/admin/users',
    { ...granting, schema: { body: CreateUserBody, response: { 200: CreateUserAnswer } } },
    async (request) => accounts.createUser(app.services(request), request.user!, request.body),
  );

  app.patch(
    '/admin/users/:id',
    { ...granting, schema: { params: IdParams, body: UpdateUserBody, response: { 200: UserAnswer } } },
    async (request) =>
      accounts.updateUser(
        app.services(request),
        request.user!,
        request.params.id,
        request.body,
        versionOfRequest(request.headers),
      ),
  );

  app.post(
    '/admin/users/:id/reset-password',
    {
      ...granting,
      schema: { params: IdParams, body: z.nullish(ResetUserBody), response: { 200: CreateUserAnswer } },
    },
    async (request) =>
      accounts.resetPassword(app.services(request), request.user!, request.params.id, request.body?.lang),
  );

  app.delete(
    '/admin/users/:id',
    { ...users, schema: { params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => accounts.deleteUser(app.services(request), request.user!, request.params.id),
  );

  // a lost phone: an owner (only an owner for an owner) clears a colleague's second factors
  app.delete(
    '/admin/users/:id/factors',
    { ...granting, schema: { params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => clearUserFactors(app.services(request), request.user!, request.params.id),
  );

  app.get('/admin/roles', { ...users, schema: { response: { 200: RoleRows } } }, (request, reply) => {
    reply.header('cache-control', 'no-store');
    return accounts.listRoles(app.services(request));
  });

  app.post(
    '/admin/roles',
    { ...granting, schema: { body: RoleBody, response: { 200: RoleAnswer } } },
    async (request) => accounts.createRole(app.services(request), request.user!, request.body),
  );

  app.patch(
    '/admin/roles/:id',
    { ...granting, schema: { params: IdParams, body: RoleBody, response: { 200: RoleAnswer } } },
    async (request) =>
      accounts.updateRole(
        app.services(request),
        request.user!,
        request.params.id,
        request.body,
        versionOfRequest(request.headers),
      ),
  );

  app.delete(
    '/admin/roles/:id',
    { ...users, schema: { params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => accounts.deleteRole(app.services(request), request.user!, request.params.id),
  );

  app.get(
    '/admin/backup-status',
    { config: { permission: 'audit.read' }, schema: { response: { 200: BackupStatus } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return backupStatus(app.services(request));
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
      return activity(app.services(request), request.query);
    },
  );
};

export default adminUsers;
