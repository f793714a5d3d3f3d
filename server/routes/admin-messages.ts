import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { versionOfRequest } from '../lib/versions';
import {
  ContactMessageRows,
  ContactMessagesQuery,
  MessageDeleteAnswer,
  MessageHandledAnswer,
  MessageHandledBody,
  MessageIdParams,
} from '../../src/api/contract/admin-messages';
import * as messages from '../services/messages';

/**
 * The contact messages inbox:
 * - GET   /api/admin/contact-messages?search=&pagenum=&pagesize=&handled= (messages.read);
 * - PATCH /api/admin/contact-messages/{message_id} with { handled } (messages.manage, audited) and
 *   If-Match (428 without; 409 with the message as it is now when it changed the other way);
 * - DELETE /api/admin/contact-messages/{message_id} (messages.manage): the message for good, audited
 *   without its content; 404 when it is already gone.
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
      return messages.listMessages(app.services(request), request.query);
    },
  );

  app.patch(
    '/admin/contact-messages/:message_id',
    {
      config: { permission: 'messages.manage' },
      schema: { params: MessageIdParams, body: MessageHandledBody, response: { 200: MessageHandledAnswer } },
    },
    async (request) =>
      messages.setHandled(
        app.services(request),
        Number(request.params.message_id),
        request.body.handled,
        versionOfRequest(request.headers),
      ),
  );

  app.delete(
    '/admin/contact-messages/:message_id',
    {
      config: { permission: 'messages.manage' },
      schema: { params: MessageIdParams, response: { 200: MessageDeleteAnswer } },
    },
    async (request) => messages.deleteMessage(app.services(request), Number(request.params.message_id)),
  );
};

export default adminMessages;
