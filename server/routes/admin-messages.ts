import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { versionOfRequest } from '../lib/versions';
import {
  ContactMessageRows,
  ContactMessagesQuery,
  MessageDeleteAnswer,
  MessageHandledAnswer,
  MessageHandledBody,
  MessageIdParams,
  AssigneeBody,
  Assignees,
  ReplyAnswer,
  ReplyBody,
} from '../../contract/admin-messages';
import * as messages from '../services/messages';
import * as thread from '../services/message-thread';
import { Timeline } from '../../contract/application-timeline';

/**
 * The contact messages inbox:
 * - GET   /api/admin/contact-messages?search=&pagenum=&pagesize=&handled= (messages.read);
 * - PATCH /api/admin/contact-messages/{message_id} with { handled } (messages.manage, audited) and
 *   If-Match (428 without; 409 with the message as it is now when it changed the other way);
 * - DELETE /api/admin/contact-messages/{message_id} (messages.manage): the message for good, audited
 *   without its content; 404 when it is already gone;
 * - GET   /api/admin/contact-messages/{message_id}/timeline (messages.read): received, assignments,
 *   replies with their delivery state (services/message-thread.ts);
 * - POST  /api/admin/contact-messages/{message_id}/replies (messages.manage): a reply to its writer;
 * - PUT   /api/admin/contact-messages/{message_id}/assignee (messages.manage, If-Match);
 * - GET   /api/admin/contact-messages/assignees (messages.read): whom a message can be assigned to.
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

  app.get(
    '/admin/contact-messages/assignees',
    { config: { permission: 'messages.read' }, schema: { response: { 200: Assignees } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return thread.assignees(app.services(request));
    },
  );

  app.get(
    '/admin/contact-messages/:message_id/timeline',
    {
      config: { permission: 'messages.read' },
      schema: { params: MessageIdParams, response: { 200: Timeline } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return thread.threadOf(app.services(request), Number(request.params.message_id));
    },
  );

  app.post(
    '/admin/contact-messages/:message_id/replies',
    {
      config: { permission: 'messages.manage' },
      schema: { params: MessageIdParams, body: ReplyBody, response: { 201: ReplyAnswer } },
    },
    async (request, reply) => {
      const answer = await thread.sendReply(
        app.services(request),
        Number(request.params.message_id),
        request.body.text,
      );
      return reply.code(201).send(answer);
    },
  );

  app.put(
    '/admin/contact-messages/:message_id/assignee',
    {
      config: { permission: 'messages.manage' },
      schema: { params: MessageIdParams, body: AssigneeBody, response: { 200: MessageHandledAnswer } },
    },
    async (request) =>
      thread.assignMessage(
        app.services(request),
        Number(request.params.message_id),
        request.body.user_id,
        versionOfRequest(request.headers),
      ),
  );
};

export default adminMessages;
