import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, MessageAnswer } from '../../src/api/contract/auth';
import { MailQuery, MailRows } from '../../src/api/contract/mail';
import { listMail, retryMail } from '../db/mail.repo';
import { HttpError } from '../http-error';
import { auditedChange } from '../db/audit.repo';

/**
 * The Mail screen (users.manage): GET /api/admin/mail lists the outbox, newest first (recipient,
 * subject, status, the start of the body); POST /api/admin/mail/:id/retry puts a mail that was
 * not sent back in line at once, with a new 24 hours before it is given up.
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
      return listMail(app.db, request.query);
    },
  );

  app.post(
    '/admin/mail/:id/retry',
    {
      config: { permission: 'users.manage' },
      schema: { params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => {
      const { id } = request.params;
      await auditedChange(
        app.db,
        async (trx) => {
          if (!(await retryMail(trx, id)))
            throw new HttpError(404, 'No mail waits with this number (it may have been sent).');
        },
        { actor: request.user, action: 'retry', entity: 'mail', entityId: id },
      );
      app.mail.poke();
      return {
        message: app.mail.configured
          ? 'The mail is being sent again.'
          : 'The mail waits in the outbox: mail is not set up (SMTP_URL).',
      };
    },
  );
};

export default adminMail;
