import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACTING_USER_HEADER, NOT_THE_AUTHOR } from '../../contract/acting-user';
import { isPermission, type Permission, type SessionUser } from '../../contract/auth';
import { deleteSession, findSession, insertSession, purgeSessions, touchSession } from '../db/auth.repo';
import { HttpError } from '../http-error';
import { requireFreshProof } from '../services/factors';
import fp from 'fastify-plugin';

/**
 * Sessions and permissions of the back office.
 *
 * A route declares what it needs in its config and the check runs before its handler:
 *
 *   app.post('/manage-job-openings', { config: { permission: 'jobs.manage' }, schema }, handler)
 *   app.get('/admin/users', { config: { permission: 'users.manage' } }, handler)
 *   app.post('/auth/password', { config: { permission: 'signed-in' } }, handler)
 *
 * or, equivalently, adds the hook itself: `{ onRequest: app.requirePermission('blog.manage') }` (config is
 * preferred: the route-table test reads it).
 * Signed out: 401. Signed in without the permission: 403. A state-changing request (POST, PUT,
 * PATCH, DELETE) without a same-origin `Origin` header (or, when a client sends no Origin, the
 * `X-Manna-CSRF: 1` header) gets 403 before anything else. In the handler `request.user` is the
 * signed-in user. Every `/api/admin/*` route must declare a permission; one that does not is
 * refused to everyone (403) and the route-table test fails. A request that names its author
 * (`X-Manna-Acting-User`, a change the back office kept offline) is refused with 409 when another
 * user is signed in: the device's send queue keeps it for its author.
 *
 * Session ids are 256 random bits in an HttpOnly, SameSite=Strict cookie (`__Host-manna_session`
 * with Secure over https, `manna_session` over http); the database keeps only their SHA-256.
 * A session ends after 8 hours without a request or 7 days after sign-in, at sign-out, and when
 * its user is disabled or deleted.
 */

export type RouteAccess = Permission | 'signed-in';
/** A hook usable as `onRequest` or `preHandler`. */
export type AccessHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a caller needs: a permission, or 'signed-in' for any signed-in user. */
    permission?: RouteAccess;
    /**
     * The change grants power or touches how someone signs in: it also needs the session's full
     * proof at most 5 minutes old (403 `reauth` otherwise; docs/decisions/009-security-model.md).
     */
    freshProof?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user, once a permission check or `app.currentUser` has run; else null. */
    user: SessionUser | null;
    /** The signed-in session (its hash and last full proof), beside `user`. */
    adminSession: { hash: string; provedAt: string | null } | null;
    /** A session whose password was right and whose second step is not done (and not expired). */
    pendingSignIn: { user: SessionUser; hash: string; createdAt: string } | null;
  }
  interface FastifyInstance {
    /** A hook (onRequest or preHandler): 401 signed out, 403 without the permission (and the same-origin check). */
    requirePermission(permission: RouteAccess): AccessHook;
    /** The same check inside a handler (for a permission that depends on the request); answers the user. */
    checkPermission(request: FastifyRequest, permission: RouteAccess): Promise<SessionUser>;
    /** The signed-in user or null (reads the cookie once per request). */
    currentUser(request: FastifyRequest): Promise<SessionUser | null>;
    /**
     * The user of the request's session as it is stored now (a long request asks again: signed
     * out, disabled, expired or a password to change is null), without marking the session used.
     */
    sessionUserNow(request: FastifyRequest): Promise<SessionUser | null>;
    /**
     * Starts a new session for the user (a new id every time) and sets the cookie; 'verify': the
     * password was right and the session can only finish the second step (docs/decisions/024).
     */
    startSession(
      request: FastifyRequest,
      reply: FastifyReply,
      userId: number,
      stage?: 'full' | 'verify',
    ): Promise<void>;
    /** Ends the request's session (if any) and clears the cookie. */
    endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** 403 unless a state-changing request is same-origin. */
    checkSameOrigin(request: FastifyRequest): void;
    sessionCookieName: string;
    /** Every /api route with what it requires (null: public), from the route table; for the access test. */
    accessTable: { method: string; url: string; permission: RouteAccess | null }[];
  }
}

export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per session. */
const TOUCH_EVERY_MS = 60 * 1000;
export const CSRF_HEADER = 'x-manna-csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * While an account still has its one-time password, these are all it may call: who am I, change
 * my password, sign out. Anything else is 403 until the user picks their own password.
 */
const WHILE_PASSWORD_MUST_CHANGE = new Set([
  '/api/auth/me',
  '/api/auth/session',
  '/api/auth/password',
  '/api/auth/logout',
]);
export const MUST_CHANGE_PASSWORD = 'Choose your own password first.';
/**
 * While a person's role requires a second factor they do not have, these are all they may call:
 * who am I, sign out, and adding a factor (docs/decisions/024-second-factors.md).
 */
const WHILE_FACTOR_SETUP = new Set([
  '/api/auth/me',
  '/api/auth/session',
  '/api/auth/logout',
  '/api/auth/factors',
  '/api/auth/factors/totp',
  '/api/auth/factors/totp/confirm',
  '/api/auth/factors/passkey/options',
  '/api/auth/factors/passkey',
  '/api/auth/reauth',
  // their own sessions: the setup screen shows them, and a stolen one can be ended right away
  '/api/auth/sessions',
  '/api/auth/sessions/:id',
]);
export const FACTOR_SETUP_REQUIRED = 'Your role requires a second factor: set one up first.';
/** The second step of a sign-in has to be done this soon after the password (services/sign-in.ts). */
const SECOND_STEP_MS = 5 * 60 * 1000;
export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');
const loaded = Symbol('manna.userLoaded');

type Options = { isHttps: boolean; publicUrl: string; now?: () => Date };

export const auth = fp<Options>(
  async (app, { isHttps, publicUrl, now = () => new Date() }) => {
    const cookieName = isHttps ? '__Host-manna_session' : 'manna_session';
    const publicOrigin = new URL(publicUrl).origin;
    app.decorate('sessionCookieName', cookieName);
    const accessTable: { method: string; url: string; permission: RouteAccess | null }[] = [];
    app.decorate('accessTable', accessTable);
    app.decorateRequest('user', null);
    app.decorateRequest('adminSession', null);
    app.decorateRequest('pendingSignIn', null);

    function checkSameOrigin(request: FastifyRequest) {
      if (SAFE_METHODS.has(request.method)) return;
      const origin = request.headers.origin;
      if (origin) {
        if (origin === publicOrigin || origin === `${request.protocol}://${request.host}`) return;
        throw new HttpError(403, 'Cross-site request refused');
      }
      if (request.headers[CSRF_HEADER] === '1') return;
      throw new HttpError(403, 'Cross-site request refused');
    }

    /**
     * The session of the request's cookie as stored now, or null when it ended (expired ones are
     * deleted); `touch` marks it used (a request a person made), a re-read does not.
     */
    async function readSession(request: FastifyRequest, touch: boolean) {
      const id = request.cookies[cookieName];
      if (!id || id.length > 200) return null;
      const hash = hashSessionId(id);
      const found = await findSession(app.db, hash);
      if (!found) return null;
      const t = now().getTime();
      const expired =
        found.disabled ||
        t - Date.parse(found.lastSeenAt) > SESSION_IDLE_MS ||
        t - Date.parse(found.createdAt) > SESSION_ABSOLUTE_MS ||
        (found.stage === 'verify' && t - Date.parse(found.createdAt) > SECOND_STEP_MS);
      if (expired) {
        await deleteSession(app.db, hash);
        return null;
      }
      // the password alone signs nobody in: this session can only finish its second step
      if (found.stage === 'verify') {
        request.pendingSignIn = { user: found.user, hash, createdAt: found.createdAt };
        return null;
      }
      if (touch && t - Date.parse(found.lastSeenAt) > TOUCH_EVERY_MS) await touchSession(app.db, hash, now());
      return { found, hash };
    }

    async function currentUser(request: FastifyRequest): Promise<SessionUser | null> {
      const r = request as FastifyRequest & { [loaded]?: boolean };
      if (r[loaded]) return request.user;
      r[loaded] = true;
      const session = await readSession(request, true);
      if (!session) return null;
      request.user = session.found.user;
      request.adminSession = { hash: session.hash, provedAt: session.found.provedAt };
      return session.found.user;
    }

    async function checkPermission(request: FastifyRequest, permission: RouteAccess): Promise<SessionUser> {
      checkSameOrigin(request);
      const user = await currentUser(request);
      if (!user) throw new HttpError(401, 'Please sign in.');
      if (user.must_change_password && !WHILE_PASSWORD_MUST_CHANGE.has(request.routeOptions.url ?? '')) {
        throw new HttpError(403, MUST_CHANGE_PASSWORD);
      }
      if (user.factor_setup_required && !WHILE_FACTOR_SETUP.has(request.routeOptions.url ?? '')) {
        throw new HttpError(403, FACTOR_SETUP_REQUIRED);
      }
      if (permission !== 'signed-in' && !user.permissions.includes(permission)) {
        throw new HttpError(403, 'You do not have permission to do this.');
      }
      // a change made offline is sent later under whoever is signed in then: it names its author,
      // and waits (409) while someone else is signed in on that device
      const author = request.headers[ACTING_USER_HEADER];
      if (author !== undefined && author !== String(user.user_id)) throw new HttpError(409, NOT_THE_AUTHOR);
      return user;
    }

    app.decorate('checkSameOrigin', checkSameOrigin);
    app.decorate('currentUser', currentUser);
    app.decorate('sessionUserNow', async (request: FastifyRequest) => {
      const session = await readSession(request, false);
      return session && !session.found.user.must_change_password && !session.found.user.factor_setup_required
        ? session.found.user
        : null;
    });
    app.decorate('checkPermission', checkPermission);
    app.decorate('requirePermission', (permission: RouteAccess): AccessHook => {
      if (permission !== 'signed-in' && !isPermission(permission))
        throw new Error(`Unknown permission ${String(permission)}`);
      return async (request) => {
        await checkPermission(request, permission);
      };
    });

    app.decorate(
      'startSession',
      async (
        request: FastifyRequest,
        reply: FastifyReply,
        userId: number,
        stage: 'full' | 'verify' = 'full',
      ) => {
        const old = request.cookies[cookieName];
        if (old) await deleteSession(app.db, hashSessionId(old));
        const at = now();
        await purgeSessions(
          app.db,
          new Date(at.getTime() - SESSION_IDLE_MS).toISOString(),
          new Date(at.getTime() - SESSION_ABSOLUTE_MS).toISOString(),
        );
        const id = randomBytes(32).toString('base64url');
        await insertSession(app.db, hashSessionId(id), userId, at, {
          stage,
          publicId: randomBytes(12).toString('base64url'),
          userAgent: request.headers['user-agent'],
          ip: request.ip,
        });
        reply.setCookie(cookieName, id, {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          secure: isHttps,
          maxAge: SESSION_ABSOLUTE_MS / 1000,
        });
      },
    );

    app.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
      const id = request.cookies[cookieName];
      if (id) await deleteSession(app.db, hashSessionId(id));
      request.user = null;
      request.adminSession = null;
      request.pendingSignIn = null;
      reply.clearCookie(cookieName, { path: '/', httpOnly: true, sameSite: 'strict', secure: isHttps });
    });

    // Routes that declare `config.permission` get the check as their first onRequest hook (before the
    // body is read or validated, so a signed-out caller gets 401 whatever it sent); admin routes
    // that declare none are refused.
    app.addHook('onRoute', (route) => {
      const permission = route.config?.permission;
      const isAdmin = /^\/api\/admin(\/|$)/.test(route.url);
      if (/^\/api(\/|$)/.test(route.url)) {
        for (const method of [route.method].flat()) {
          if (method !== 'HEAD') accessTable.push({ method, url: route.url, permission: permission ?? null });
        }
      }
      if (!permission && !isAdmin) return;
      const freshProof = route.config?.freshProof === true;
      const check: AccessHook = permission
        ? async (request) => {
            await checkPermission(request, permission);
            if (freshProof) requireFreshProof(app.services(request), request.adminSession!);
          }
        : async () => {
            throw new HttpError(403, 'This endpoint declares no permission');
          };
      if (permission && permission !== 'signed-in' && !isPermission(permission)) {
        throw new Error(`Route ${route.method} ${route.url}: unknown permission ${String(permission)}`);
      }
      const existing = route.onRequest
        ? Array.isArray(route.onRequest)
          ? route.onRequest
          : [route.onRequest]
        : [];
      route.onRequest = [check, ...existing];
    });
  },
  { name: 'auth', dependencies: ['@fastify/cookie'], decorators: { fastify: ['db', 'config'] } },
);

/** For tests and scripts: the cookie header of a session id. */
export const sessionCookie = (app: FastifyInstance, id: string) => `${app.sessionCookieName}=${id}`;
