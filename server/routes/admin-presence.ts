import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LeaveParams, PresenceAnswer, PresenceBody } from '../../contract/presence';
import { IdParams } from '../../contract/ids';
import { EDITING_PERMISSION, REVISION_ENTITIES } from '../../contract/revisions';
import * as presence from '../services/presence';

/**
 * Who else is editing (contract/presence.ts), each kind of record under the permission
 * that edits it: PUT /api/admin/presence/{entity}/{id} with { editor_id } renews this editor and
 * answers the others; DELETE /api/admin/presence/{entity}/{id}/{editor_id} when it closes.
 */

const adminPresence: FastifyPluginAsyncZod = async (app) => {
  for (const entity of REVISION_ENTITIES) {
    const config = { permission: EDITING_PERMISSION[entity] };
    app.put(
      `/admin/presence/${entity}/:id`,
      { config, schema: { params: IdParams, body: PresenceBody, response: { 200: PresenceAnswer } } },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return presence.renew(app.services(request), {
          entity,
          entityId: request.params.id,
          editorId: request.body.editor_id,
        });
      },
    );
    app.delete(
      `/admin/presence/${entity}/:id/:editor_id`,
      { config, schema: { params: LeaveParams } },
      async (request, reply) => {
        await presence.leave(app.services(request), {
          entity,
          entityId: request.params.id,
          editorId: request.params.editor_id,
        });
        return reply.code(204).send();
      },
    );
  }
};

export default adminPresence;
