import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import type { Permission } from '../../src/api/contract/auth';
import { ID_MAX, whole } from '../../src/api/contract/ids';
import { EditorId, PresenceAnswer, PresenceBody } from '../../src/api/contract/presence';
import { REVISION_ENTITIES } from '../../src/api/contract/revisions';
import * as presence from '../services/presence';

/**
 * Who else is editing (src/api/contract/presence.ts), each kind of record under the permission
 * that edits it: PUT /api/admin/presence/{entity}/{id} with { editor_id } renews this editor and
 * answers the others; DELETE /api/admin/presence/{entity}/{id}/{editor_id} when it closes.
 */
const PERMISSION: Record<(typeof REVISION_ENTITIES)[number], Permission> = {
  blog_post: 'blog.manage',
  job_opening: 'jobs.manage',
};
const RecordParams = z.object({ id: whole(1, ID_MAX) });
const LeaveParams = z.object({ id: whole(1, ID_MAX), editor_id: EditorId });

const adminPresence: FastifyPluginAsyncZod = async (app) => {
  for (const entity of REVISION_ENTITIES) {
    const config = { permission: PERMISSION[entity] };
    app.put(
      `/admin/presence/${entity}/:id`,
      { config, schema: { params: RecordParams, body: PresenceBody, response: { 200: PresenceAnswer } } },
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
