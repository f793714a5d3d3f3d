import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ContactMessageRows,
  ContactMessagesQuery,
  MESSAGE_ADMIN_TEXTS as M,
  MessageHandledAnswer,
  MessageHandledBody,
  MessageIdParams,
} from '../../src/api/contract/admin-messages';
import { listContactMessages, setMessageHandled } from '../db/contact-admin.repo';
import { HttpError } from '../http-error';
import { recordAudit } from '../db/audit.repo';

/**
 * The contact messages inbox:
 * - GET   /api/admin/contact-messages?search=&pagenum=&pagesize=&handled= (messages.read);
 * - PATCH /api/admin/contact-messages/{message_id} with { handled } (messages.manage, audited).
 */
const adminMessages: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/contact-messages',
    {
      config: { permission: 'messages.read' },
      schema: { querystring: ContactMessagesQuery, response: { 200: ContactMessageRows } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listContactMessages(app.db, request.query);
    },
  );

  app.patch(
    '/admin/contact-messages/:message_id',
    {
      config: { permission: 'messages.manage' },
      schema: { params: MessageIdParams, body: MessageHandledBody, response: { 200: MessageHandledAnswer } },
    },
    async (request) => {
      const id = Number(request.params.message_id);
      const { handled } = request.body;
      const row = await app.db.transaction().execute(async (trx) => {
        const updated = await setMessageHandled(trx, id, handled);
        if (updated?.changed) {
          await recordAudit(trx, {
            actor: request.user,
            action: 'update',
            entity: 'contact_message',
            entityId: id,
            detail: { handled },
          });
        }
        return updated?.row;
      });
      if (!row) throw new HttpError(404, M.notFound);
      return { message: handled ? M.markedHandled : M.markedOpen, row };
    },
  );
};

export default adminMessages;
