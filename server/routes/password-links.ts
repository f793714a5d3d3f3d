import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageAnswer } from '../../src/api/contract/auth';
import {
  ForgotPasswordBody,
  ForgotPasswordStatus,
  NoticePrefs,
  NoticePrefsBody,
  PASSWORD_LINK_MESSAGES as M,
  ResetPasswordBody,
} from '../../src/api/contract/mail';
import {
  deleteUserSessions,
  findLogin,
  getUser,
  noticePrefsOf,
  releaseAttempt,
  reserveAttempt,
  setNoticePrefs,
  updateUser,
} from '../db/auth.repo';
import { deletePasswordTokens, peekPasswordToken, takePasswordToken } from '../db/password-token.repo';
import { HttpError } from '../http-error';
import { auditedChange } from '../db/audit.repo';
import { hashPassword, passwordProblem } from '../lib/passwords';
import { hashToken, queuePasswordLink } from '../mail/mails';
import { mailLang } from '../mail/templates';
import { LOGIN_WINDOW_MS, TOO_MANY_LOGINS } from './auth';

/**
 * Password links and notices of the signed-in user:
 * - GET /api/auth/forgot-password: whether the site can mail a reset link (SMTP_URL is set).
 * - POST /api/auth/forgot-password `{ email }`: mails a single-use link (RESET_LINK_MINUTES) to an
 *   active account; the same answer whether or not the address has one. Each request counts
 *   against the sign-in limit (RATE_LIMIT_LOGIN_FAILURES per 15 minutes, per address and per
 *   email). Without mail: 409 with the advice to ask an administrator.
 * - POST /api/auth/reset-password `{ token, password }`: a reset or invitation link sets the
 *   password once (the password rules first, without using the link up), and every session of
 *   the account ends.
 * - GET/PATCH /api/auth/notices: which notices the signed-in user gets.
 */
const passwordLinks: FastifyPluginAsyncZod = async (app) => {
  const limit = app.config.RATE_LIMIT_LOGIN_FAILURES;

  app.get(
    '/auth/forgot-password',
    { schema: { response: { 200: ForgotPasswordStatus } } },
    async (_r, reply) => {
      reply.header('cache-control', 'no-store');
      return { available: app.mail.configured };
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      config: { rateLimit: app.publicRateLimit },
      schema: { body: ForgotPasswordBody, response: { 200: MessageAnswer } },
    },
    async (request, reply) => {
      app.checkSameOrigin(request);
      if (!app.mail.configured) throw new HttpError(409, M.unavailable);
      const { email, lang } = request.body;
      const now = new Date();
      const keys = [`reset-ip:${request.ip}`, `reset-email:${email.slice(0, 254)}`];
      const attempt = await reserveAttempt(
        app.db,
        keys,
        new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString(),
        now,
      );
      if (keys.some((key) => (attempt.counts[key] ?? 0) > limit)) {
        // a refused request does not count, or anyone could keep an address's resets refused
        await releaseAttempt(app.db, attempt.ids);
        reply.header('retry-after', String(LOGIN_WINDOW_MS / 1000));
        throw new HttpError(429, TOO_MANY_LOGINS);
      }
      // The answer does not wait for the account's lookup and the link's writes, so it takes as
      // long whether or not the address has an account.
      void (async () => {
        const account = await findLogin(app.db, email);
        if (!account || Number(account.disabled) !== 0) return;
        await auditedChange(
          app.db,
          (trx) =>
            queuePasswordLink(
              trx,
              app.config,
              { userId: account.user_id, email: account.email, purpose: 'reset', lang },
              now,
            ),
          {
            actor: null,
            action: 'password_link',
            entity: 'admin_user',
            entityId: account.user_id,
            detail: { ip: request.ip },
          },
        );
        app.mail.poke();
      })().catch((err: unknown) => request.log.error({ err }, 'A password link could not be queued'));
      return { message: M.sent };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: { rateLimit: app.publicRateLimit },
      schema: { body: ResetPasswordBody, response: { 200: MessageAnswer } },
    },
    async (request) => {
      app.checkSameOrigin(request);
      const { token, password } = request.body;
      const tokenHash = hashToken(token);
      const link = await peekPasswordToken(app.db, tokenHash);
      const user = link && (await getUser(app.db, link.user_id));
      if (!link || !user || user.disabled) throw new HttpError(400, M.invalid, { form: M.invalid });
      const problem = passwordProblem(password, user.email);
      if (problem) throw new HttpError(400, problem, { password: problem });
      const passwordHash = await hashPassword(password);
      await auditedChange(
        app.db,
        async (trx) => {
          // used once: of two uses at once, one deletes the row and the other finds it gone
          if (!(await takePasswordToken(trx, tokenHash)))
            throw new HttpError(400, M.invalid, { form: M.invalid });
          // the password is set: the user's other links (an invitation, an older reset) end too
          await deletePasswordTokens(trx, user.user_id);
          await updateUser(trx, user.user_id, {
            passwordHash,
            mustChangePassword: false,
            passwordExpiresAt: null,
          });
          await deleteUserSessions(trx, user.user_id);
        },
        {
          actor: { user_id: user.user_id, email: user.email },
          action: link.purpose === 'invite' ? 'invitation_accepted' : 'password_reset_link',
          entity: 'admin_user',
          entityId: user.user_id,
          detail: { ip: request.ip },
        },
      );
      return { message: M.done };
    },
  );

  app.get(
    '/auth/notices',
    { config: { permission: 'signed-in' }, schema: { response: { 200: NoticePrefs } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return noticePrefsOf(app.db, request.user!);
    },
  );

  app.patch(
    '/auth/notices',
    {
      config: { permission: 'signed-in' },
      schema: { body: NoticePrefsBody, response: { 200: NoticePrefs } },
    },
    async (request) => {
      const user = request.user!;
      const current = await noticePrefsOf(app.db, user);
      const { applications, messages, lang } = request.body;
      if ((applications && current.applications === null) || (messages && current.messages === null)) {
        throw new HttpError(403, 'Your role cannot read these, so it gets no notices of them.');
      }
      await auditedChange(
        app.db,
        (trx) =>
          setNoticePrefs(trx, user.user_id, {
            applications,
            messages,
            ...(lang === undefined ? {} : { lang: mailLang(lang) }),
          }),
        {
          actor: user,
          action: 'notices',
          entity: 'admin_user',
          entityId: user.user_id,
          detail: { applications, messages },
        },
      );
      return noticePrefsOf(app.db, user);
    },
  );
};

export default passwordLinks;
