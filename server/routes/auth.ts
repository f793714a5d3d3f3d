import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangePasswordBody,
  LoginBody,
  MessageAnswer,
  SessionAnswer,
  SessionUser,
} from '../../src/api/contract/auth';
import {
  addFailures,
  clearFailures,
  countFailures,
  deleteUserSessions,
  findLogin,
  passwordHashOf,
  purgeFailures,
  sessionUserById,
  updateUser,
} from '../db/auth.repo';
import { HttpError } from '../http-error';
import { recordAudit } from '../lib/audit';
import { dummyHash, hashPassword, passwordProblem, verifyPassword } from '../lib/passwords';
import { hashSessionId } from '../plugins/auth';

/** Failed sign-ins are counted per address and per account over this window (DESIGN.md 4a). */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const INVALID_LOGIN = 'Invalid email or password.';

/**
 * Sign-in for the back office: POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me
 * (401 when signed out), GET /api/auth/session (`{ user }`, null when signed out), POST /api/auth/password (a signed-in user changes their own password). See plugins/auth.ts.
 */
const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const limit = app.config.RATE_LIMIT_LOGIN_FAILURES;

  app.post(
    '/auth/login',
    { schema: { body: LoginBody, response: { 200: SessionUser } } },
    async (request, reply) => {
      app.checkSameOrigin(request);
      const { email, password } = request.body;
      const now = new Date();
      const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
      const keys = [`ip:${request.ip}`, `email:${email.slice(0, 254)}`];
      const counts = await countFailures(app.db, keys, since);
      if (keys.some((key) => (counts[key] ?? 0) >= limit)) {
        reply.header('retry-after', String(LOGIN_WINDOW_MS / 1000));
        throw new HttpError(429, 'Too many failed sign-in attempts. Please try again in 15 minutes.');
      }
      const account = await findLogin(app.db, email);
      // Unknown emails cost one argon2 verification too, and get the same answer.
      const ok = await verifyPassword(account?.password_hash ?? (await dummyHash()), password);
      if (!account || !ok || Number(account.disabled) === 1) {
        await addFailures(app.db, keys, now);
        await purgeFailures(app.db, since); // the table holds at most the last 15 minutes
        throw new HttpError(401, INVALID_LOGIN);
      }
      await clearFailures(app.db, keys[1]);
      await purgeFailures(app.db, since);
      await app.startSession(request, reply, account.user_id);
      const user = await sessionUserById(app.db, account.user_id);
      if (!user) throw new HttpError(401, INVALID_LOGIN);
      return user;
    },
  );

  app.post('/auth/logout', { schema: { response: { 200: MessageAnswer } } }, async (request, reply) => {
    app.checkSameOrigin(request);
    await app.endSession(request, reply);
    return { message: 'Signed out' };
  });

  app.get(
    '/auth/me',
    { config: { permission: 'signed-in' }, schema: { response: { 200: SessionUser } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return request.user!;
    },
  );

  // The admin's first question, answered 200 either way so a signed-out visit logs no failed
  // request in the browser console: `{ user }` with the user or null.
  app.get('/auth/session', { schema: { response: { 200: SessionAnswer } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { user: await app.currentUser(request) };
  });

  app.post(
    '/auth/password',
    {
      config: { permission: 'signed-in' },
      schema: { body: ChangePasswordBody, response: { 200: SessionUser } },
    },
    async (request, reply) => {
      const user = request.user!;
      const { current_password, new_password } = request.body;
      const hash = await passwordHashOf(app.db, user.user_id);
      if (!hash || !(await verifyPassword(hash, current_password))) {
        throw new HttpError(400, 'Current password is incorrect.', {
          current_password: 'Current password is incorrect.',
        });
      }
      const problem = passwordProblem(new_password, user.email);
      if (problem) throw new HttpError(400, problem, { new_password: problem });
      if (new_password === current_password) {
        const same = 'Choose a password different from the current one.';
        throw new HttpError(400, same, { new_password: same });
      }
      await updateUser(app.db, user.user_id, {
        passwordHash: await hashPassword(new_password),
        mustChangePassword: false,
      });
      // Other sessions of this account end; this one continues with a new id.
      const currentId = request.cookies[app.sessionCookieName];
      await deleteUserSessions(app.db, user.user_id, currentId ? hashSessionId(currentId) : undefined);
      await app.startSession(request, reply, user.user_id);
      await recordAudit(app.db, {
        actor: user,
        action: 'password_change',
        entity: 'admin_user',
        entityId: user.user_id,
      });
      return { ...user, must_change_password: false };
    },
  );
};

export default authRoutes;
