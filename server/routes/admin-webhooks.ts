import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { IdParams, MessageAnswer } from '../../contract/auth';
import { whole, ID_MAX } from '../../contract/ids';
import { WebhookAnswer, WebhookBody, WebhookDeliveries, WebhookRows } from '../../contract/webhooks';
import { versionOfRequest } from '../lib/versions';
import * as webhooks from '../services/webhooks';

const DeliveryParams = z.object({ id: whole(1, ID_MAX), deliveryId: whole(1, ID_MAX) });
const manage = { permission: 'webhooks.manage' } as const;

/**
 * The Webhooks screen (webhooks.manage; services/webhooks.ts, docs/decisions/037-webhooks.md): the
 * endpoints (GET, POST; PATCH with If-Match; DELETE), an endpoint's newest deliveries with each
 * attempt, "Send a test event" and "Send again" (both wake the sender at once).
 */
const adminWebhooks: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/webhooks',
    { config: manage, schema: { response: { 200: WebhookRows } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return webhooks.list(app.services(request));
    },
  );

  app.post(
    '/admin/webhooks',
    { config: manage, schema: { body: WebhookBody, response: { 200: WebhookAnswer } } },
    async (request) => webhooks.create(app.services(request), request.body),
  );

  app.patch(
    '/admin/webhooks/:id',
    { config: manage, schema: { params: IdParams, body: WebhookBody, response: { 200: WebhookAnswer } } },
    async (request) =>
      webhooks.update(
        app.services(request),
        request.params.id,
        versionOfRequest(request.headers),
        request.body,
      ),
  );

  app.delete(
    '/admin/webhooks/:id',
    { config: manage, schema: { params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => webhooks.remove(app.services(request), request.params.id),
  );

  app.get(
    '/admin/webhooks/:id/deliveries',
    { config: manage, schema: { params: IdParams, response: { 200: WebhookDeliveries } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return webhooks.deliveries(app.services(request), request.params.id);
    },
  );

  app.post(
    '/admin/webhooks/:id/test',
    { config: manage, schema: { params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => {
      const answer = await webhooks.sendTest(app.services(request), request.params.id);
      app.webhooks.poke();
      return answer;
    },
  );

  app.post(
    '/admin/webhooks/:id/deliveries/:deliveryId/resend',
    { config: manage, schema: { params: DeliveryParams, response: { 200: MessageAnswer } } },
    async (request) => {
      const answer = await webhooks.resend(
        app.services(request),
        request.params.id,
        request.params.deliveryId,
      );
      app.webhooks.poke();
      return answer;
    },
  );
};

export default adminWebhooks;
