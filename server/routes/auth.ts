import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangePasswordBody,
  LoginBody,
  MessageAnswer,
  SessionAnswer,
  SessionUser,
  SetupBody,
  SetupStatus,
} from '../../src/api/contract/auth';
import { ownerFromSetupToken, setupNeeded } from '../lib/first-run';
import {
  clearFailures,
  deleteUserSessions,
  findLogin,
  passwordHashOf,
  purgeFailures,
  releaseAttempt,
  reserveAttempt,
  sessionUserById,
  updateUser,
} from '../db/auth.repo';
import { deletePasswordTokens } from '../db/password-token.repo';
import { HttpError } from '../http-error';
import { auditedChange, recordAudit } from '../db/audit.repo';
import { dummyHash, hashPassword, passwordProblem, verifyPassword } from '../lib/passwords';
import { hashSessionId } from '../plugins/auth';

/** Failed sign-ins are counted per address and per account over this window . */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const INVALID_LOGIN = 'Invalid email or password.';
export const TOO_MANY_LOGINS = 'Too many failed sign-in attempts. Please try again in 15 minutes.';
export const EXPIRED_ONE_TIME = 'This one-time password has expired. Ask an administrator for a new one.';
/** Sign-ins of one email checked at the same moment by one process; more wait their turn as a 429. */
export const CONCURRENT_LOGINS_PER_EMAIL = 2;

/**
 * Sign-in for the back office: POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me
 * (401 when signed out), GET /api/auth/session (`{ user }`, null when signed out), POST /api/auth/password (a signed-in user changes their own password). See plugins/auth.ts.
 */
const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const limit = app.config.RATE_LIMIT_LOGIN_FAILURES;
  /** Sign-ins being checked now, per email (argon2 costs memory and time: cap it). */
  const inFlight = new Map<string, number>();

  const tooMany = (reply: { header(name: string, value: string): unknown }) => {
    reply.header('retry-after', String(LOGIN_WINDOW_MS / 1000));
    return new HttpError(429, TOO_MANY_LOGINS);
  };

  app.post(
    '/auth/login',
    { schema: { body: LoginBody, response: { 200: SessionUser } } },
    async (request, reply) => {
      app.checkSameOrigin(request);
      const { email, password } = request.body;
      const emailKey = email.slice(0, 254);
      if ((inFlight.get(emailKey) ?? 0) >= CONCURRENT_LOGINS_PER_EMAIL) throw tooMany(reply);
      inFlight.set(emailKey, (inFlight.get(emailKey) ?? 0) + 1);
      try {
        return await signIn(request, reply, email, password, emailKey);
      } finally {
        const left = (inFlight.get(emailKey) ?? 1) - 1;
        if (left > 0) inFlight.set(emailKey, left);
        else inFlight.delete(emailKey);
      }
    },
  );

  async function signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    password: string,
    emailKey: string,
  ) {
    const now = new Date();
    const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
    const keys = [`ip:${request.ip}`, `email:${emailKey}`];
    // The attempt is reserved before the password is checked (see reserveAttempt), so parallel
    // guesses cannot all pass a count taken before any of them was recorded.
    const attempt = await reserveAttempt(app.db, keys, since, now);
    if (keys.some((key) => (attempt.counts[key] ?? 0) > limit)) {
      await releaseAttempt(app.db, attempt.ids);
      throw tooMany(reply);
    }
    const account = await findLogin(app.db, email);
    // Unknown emails cost one argon2 verification too, and get the same answer.
    const ok = await verifyPassword(account?.password_hash ?? (await dummyHash()), password);
    if (!account || !ok || Number(account.disabled) === 1) {
      await purgeFailures(app.db, since); // the table holds at most the last 15 minutes
      await recordAudit(app.db, {
        actor: null,
        action: 'login_failed',
        entity: 'admin_user',
        entityId: account?.user_id ?? null,
        detail: { email: emailKey, ip: request.ip },
      });
      throw new HttpError(401, INVALID_LOGIN);
    }
    await releaseAttempt(app.db, attempt.ids);
    const expires = account.password_expires_at;
    if (Number(account.must_change_password) === 1 && expires && Date.parse(expires) < now.getTime()) {
      throw new HttpError(401, EXPIRED_ONE_TIME);
    }
    await clearFailures(app.db, keys[1]);
    await purgeFailures(app.db, since);
    await app.startSession(request, reply, account.user_id);
    const user = await sessionUserById(app.db, account.user_id);
    if (!user) throw new HttpError(401, INVALID_LOGIN);
    await recordAudit(app.db, {
      actor: user,
      action: 'login',
      entity: 'admin_user',
      entityId: user.user_id,
      detail: { ip: request.ip },
    });
    return user;
  }

  // The first five minutes (lib/first-run.ts): whether an account exists, and the first owner made
  // with the printed setup address, signed in at once.
  app.get('/auth/setup', { schema: { response: { 200: SetupStatus } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { needed: await setupNeeded(app.db) };
  });

  app.post(
    '/auth/setup',
    {
      config: { rateLimit: app.publicRateLimit },
      schema: { body: SetupBody, response: { 200: SessionUser } },
    },
    async (request, reply) => {
      app.checkSameOrigin(request);
      const { token, email, password } = request.body;
      const userId = await ownerFromSetupToken(app.db, token, email, password);
      await app.startSession(request, reply, userId);
      const user = await sessionUserById(app.db, userId);
      if (!user) throw new HttpError(500, 'The account was made but could not be signed in');
      return user;
    },
  );

  app.post('/auth/logout', { schema: { response: { 200: MessageAnswer } } }, async (request, reply) => {
    app.checkSameOrigin(request);
    const user = await app.currentUser(request);
    await app.endSession(request, reply);
    if (user) {
      await recordAudit(app.db, {
        actor: user,
        action: 'logout',
        entity: 'admin_user',
        entityId: user.user_id,
      });
    }
    // the browser drops its HTTP cache of this site (admin answers a shared device may hold);
    // "cache" leaves Cache Storage, so the public pages' offline copy stays (security model)
    reply.header('clear-site-data', '"cache"');
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
      const passwordHash = await hashPassword(new_password);
      await auditedChange(
        app.db,
        async (trx) => {
          await updateUser(trx, user.user_id, {
            passwordHash,
            mustChangePassword: false,
            passwordExpiresAt: null,
          });
          await deletePasswordTokens(trx, user.user_id); // an unused reset link stops working
        },
        { actor: user, action: 'password_change', entity: 'admin_user', entityId: user.user_id },
      );
      // Other sessions of this account end; this one continues with a new id.
      const currentId = request.cookies[app.sessionCookieName];
      await deleteUserSessions(app.db, user.user_id, currentId ? hashSessionId(currentId) : undefined);
      await app.startSession(request, reply, user.user_id);
      return { ...user, must_change_password: false };
    },
  );
};

export default authRoutes;
