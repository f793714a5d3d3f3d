import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageAnswer, ProfileBody } from '../../contract/auth';
import * as accounts from '../services/accounts';
import {
  ForgotPasswordBody,
  ForgotPasswordStatus,
  NoticePrefs,
  NoticePrefsBody,
  ResetPasswordBody,
} from '../../contract/mail';
import { versionOfRequest } from '../lib/versions';
import * as signIn from '../services/sign-in';

/**
 * Password links and notices of the signed-in user (services/sign-in.ts):
 * - GET /api/auth/forgot-password: whether the site can mail a reset link (SMTP_URL is set).
 * - POST /api/auth/forgot-password `{ email }`: mails a single-use link (RESET_LINK_MINUTES) to an
 *   active account; the same answer whether or not the address has one; counted against the
 *   sign-in limits. Without mail: 409 with the advice to ask an administrator.
 * - POST /api/auth/reset-password `{ token, password }`: a reset or invitation link sets the
 *   password once, and every session of the account ends.
 * - GET/PATCH /api/auth/notices: which notices the signed-in user gets.
 */
const passwordLinks: FastifyPluginAsyncZod = async (app) => {
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
    async (request) => {
      app.checkSameOrigin(request);
      const { email, lang } = request.body;
      return signIn.requestResetLink(app.services(request), { email, lang, ip: request.ip });
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
      return signIn.resetWithLink(app.services(request), { token, password, ip: request.ip });
    },
  );

  // the name readers see on the posts this person writes (docs/decisions/025-blog-publishing.md)
  app.patch(
    '/auth/profile',
    {
      config: { permission: 'signed-in' },
      schema: { body: ProfileBody, response: { 200: ProfileBody } },
    },
    async (request) => accounts.setDisplayName(app.services(request), request.user!.user_id, request.body),
  );

  app.get(
    '/auth/notices',
    { config: { permission: 'signed-in' }, schema: { response: { 200: NoticePrefs } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return signIn.noticesOf(app.services(request), request.user!);
    },
  );

  app.patch(
    '/auth/notices',
    {
      config: { permission: 'signed-in' },
      schema: { body: NoticePrefsBody, response: { 200: NoticePrefs } },
    },
    // based on the version of the choices the screen shows (If-Match; 428 without, 409 if stale)
    async (request) =>
      signIn.setNotices(
        app.services(request),
        request.user!,
        request.body,
        versionOfRequest(request.headers),
      ),
  );
};

export default passwordLinks;
