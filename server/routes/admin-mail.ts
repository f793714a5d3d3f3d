import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, MessageAnswer, type Permission } from '../../src/api/contract/auth';
import { MailQuery, MailRows, PASSWORD_LINK_KINDS } from '../../src/api/contract/mail';
import { listMail, retryMail } from '../db/mail.repo';
import { HttpError } from '../http-error';
import { auditedChange } from '../db/audit.repo';

/**
 * The Mail screen (users.manage): GET /api/admin/mail lists the outbox, newest first (recipient,
 * subject, status, the start of the body); POST /api/admin/mail/:id/retry puts a mail that was
 * not sent back in line at once, with a new 24 hours before it is given up.
 */
/**
 * The kinds of mail a reader of the Mail screen may see: what a mail says of applications or
 * messages stays with those who may read them (the digest names both); password links show
 * without their token.
 */
export function kindsFor(permissions: readonly Permission[]): string[] {
  const kinds: string[] = [...PASSWORD_LINK_KINDS];
  const applications = permissions.includes('applications.read');
  const messages = permissions.includes('messages.read');
  if (applications) kinds.push('application-ack', 'application-notice');
  if (messages) kinds.push('message-ack', 'message-notice');
  if (applications && messages) kinds.push('digest');
  return kinds;
}

const adminMail: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/mail',
    {
      config: { permission: 'users.manage' },
      schema: { querystring: MailQuery, response: { 200: MailRows } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listMail(app.db, request.query, kindsFor(request.user!.permissions));
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
          if (!(await retryMail(trx, id, kindsFor(request.user!.permissions))))
            throw new HttpError(
              404,
              'No mail waits with this number: it was sent, or it is a password link (its person asks for a new one).',
            );
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
