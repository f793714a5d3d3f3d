import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, MessageAnswer } from '../../contract/auth';
import { MailQuery, MailRows, MailSettings } from '../../contract/mail';
import * as mail from '../services/mail';

/**
 * The Mail screen (users.manage; services/mail.ts): GET /api/admin/mail lists the outbox, newest
 * first (recipient, subject, status, the start of the body); POST /api/admin/mail/:id/retry puts a
 * mail that was not sent back in line at once, with a new 24 hours before it is given up; GET
 * /api/admin/mail/settings says whether mail is sent, its From and where replies go.
 */
const adminMail: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/mail',
    {
      config: { permission: 'users.manage' },
      schema: { querystring: MailQuery, response: { 200: MailRows } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return mail.listOutbox(app.services(request), request.query, request.user!.permissions);
    },
  );

  app.get(
    '/admin/mail/settings',
    { config: { permission: 'users.manage' }, schema: { response: { 200: MailSettings } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return mail.mailSettings(app.services(request));
    },
  );

  app.post(
    '/admin/mail/:id/retry',
    {
      config: { permission: 'users.manage' },
      schema: { params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => mail.retry(app.services(request), request.params.id, request.user!.permissions),
  );
};

export default adminMail;
