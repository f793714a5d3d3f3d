import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangePasswordBody,
  CodeBody,
  LoginAnswer,
  LoginBody,
  MessageAnswer,
  PasskeyBody,
  PasskeyOptions,
  SecondStepAnswer,
  SessionAnswer,
  SessionUser,
  SetupBody,
  SetupStatus,
} from '../../contract/auth';
import { HttpError } from '../http-error';
import { hashSessionId } from '../plugins/auth';
import { passkeyOptions } from '../services/factors';
import { createAdminCommand, ownerFromSetupToken, setupNeeded } from '../services/owner';
import * as signIn from '../services/sign-in';
import { concurrentChecks } from '../services/sign-in-limits';

/** Sign-ins of one email checked at the same moment by one process; more wait their turn as a 429. */
export const CONCURRENT_LOGINS_PER_EMAIL = 2;

/**
 * Sign-in for the back office (services/sign-in.ts; sessions are plugins/auth.ts's):
 * POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me (401 when signed out),
 * GET /api/auth/session (`{ user }`, null when signed out), POST /api/auth/password (a signed-in
 * user changes their own password), GET/POST /api/auth/setup (the first owner, services/owner.ts).
 * A right password of an account with a second factor starts a session that can only finish the
 * second step (docs/decisions/024): POST /api/auth/second-step (a code), POST
 * /api/auth/passkey/options and /api/auth/passkey (a passkey: the second step, or on its own from
 * the sign-in page with no session at all).
 */
const authRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Sign-ins being checked now, per email, in this process. */
  const checks = concurrentChecks(CONCURRENT_LOGINS_PER_EMAIL);

  app.post(
    '/auth/login',
    { schema: { body: LoginBody, response: { 200: LoginAnswer } } },
    async (request, reply) => {
      app.checkSameOrigin(request);
      const { email, password } = request.body;
      const ctx = app.services(request);
      const { userId, secondStep } = await signIn.passwordSignIn(ctx, {
        email,
        password,
        ip: request.ip,
        // the cap holds the verification only: a sign-in held back by the password's wait
        // (docs/decisions/009-security-model.md) does not keep the owner's out
        whileChecking: (check) => checks(email.slice(0, 254), check),
      });
      // a second factor: the password only opens the second step
      if (secondStep) {
        await app.startSession(request, reply, userId, 'verify');
        return { second_step: secondStep };
      }
      await app.startSession(request, reply, userId);
      return signIn.signedIn(ctx, userId, request.ip);
    },
  );

  app.post(
    '/auth/second-step',
    { schema: { body: CodeBody, response: { 200: SecondStepAnswer } } },
    async (request, reply) => {
      app.checkSameOrigin(request);
      await app.currentUser(request);
      const pending = request.pendingSignIn;
      if (!pending) throw new HttpError(401, signIn.SECOND_STEP_EXPIRED);
      const ctx = app.services(request);
      const used = await signIn.checkSecondStep(ctx, {
        user: pending.user,
        code: request.body.code,
        ip: request.ip,
      });
      return finishSignIn(
        request,
        reply,
        pending.user.user_id,
        used.method === 'recovery' ? used.left : undefined,
      );
    },
  );

  /** The second step is done (or a passkey alone signed in): a full session, with a new id. */
  async function finishSignIn(
    request: Parameters<typeof app.startSession>[0],
    reply: Parameters<typeof app.startSession>[1],
    userId: number,
    recoveryLeft?: number,
  ) {
    await app.startSession(request, reply, userId);
    const user = await signIn.signedIn(app.services(request), userId, request.ip);
    return recoveryLeft === undefined ? user : { ...user, recovery_left: recoveryLeft };
  }

  app.post(
    '/auth/passkey/options',
    { config: { rateLimit: app.publicRateLimit }, schema: { response: { 200: PasskeyOptions } } },
    async (request, reply) => {
      app.checkSameOrigin(request);
      reply.header('cache-control', 'no-store');
      await app.currentUser(request);
      return passkeyOptions(app.services(request), request.pendingSignIn?.user.user_id ?? null);
    },
  );

  app.post(
    '/auth/passkey',
    { schema: { body: PasskeyBody, response: { 200: SessionUser } } },
    async (request, reply) => {
      app.checkSameOrigin(request);
      await app.currentUser(request);
      const userId = await signIn.checkPasskey(app.services(request), {
        response: request.body.response,
        userId: request.pendingSignIn?.user.user_id ?? null,
        ip: request.ip,
      });
      return finishSignIn(request, reply, userId);
    },
  );

  app.get('/auth/setup', { schema: { response: { 200: SetupStatus } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const needed = await setupNeeded(app.services(request));
    // this route module runs as .js in the container image (it keeps its own path there)
    return needed ? { needed, create_admin: createAdminCommand(import.meta.url) } : { needed };
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
      const ctx = app.services(request);
      const userId = await ownerFromSetupToken(ctx, token, email, password);
      await app.startSession(request, reply, userId);
      return signIn.sessionUser(ctx, userId).catch(() => {
        throw new HttpError(500, 'The account was made but could not be signed in');
      });
    },
  );

  app.post('/auth/logout', { schema: { response: { 200: MessageAnswer } } }, async (request, reply) => {
    app.checkSameOrigin(request);
    const user = await app.currentUser(request);
    const session = request.adminSession?.hash;
    await app.endSession(request, reply);
    // this session's event streams end now, not at their next heartbeat
    if (session) app.staffStream.endSession(session);
    if (user) await signIn.recordSession({ ...app.services(request), actor: user }, 'logout');
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
    const user = await app.currentUser(request);
    const pending = request.pendingSignIn;
    if (user || !pending) return { user };
    // a reload in the middle of signing in: the second step goes on where it was
    const step = await signIn.secondStepOf(app.services(request), pending.user.user_id);
    return step
      ? { user: null, second_step: { ...step, expires_at: signIn.secondStepEnds(pending.createdAt) } }
      : { user: null };
  });

  app.post(
    '/auth/password',
    {
      config: { permission: 'signed-in' },
      schema: { body: ChangePasswordBody, response: { 200: SessionUser } },
    },
    async (request, reply) => {
      const user = request.user!;
      const currentId = request.cookies[app.sessionCookieName];
      await signIn.changeOwnPassword(app.services(request), user, {
        current: request.body.current_password,
        next: request.body.new_password,
        keepSession: currentId ? hashSessionId(currentId) : undefined,
      });
      // this session continues with a new id
      await app.startSession(request, reply, user.user_id);
      return { ...user, must_change_password: false };
    },
  );
};

export default authRoutes;
