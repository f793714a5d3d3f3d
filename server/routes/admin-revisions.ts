import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../contract/ids';
import {
  EDITING_PERMISSION,
  REVISION_ENTITIES,
  RestoreAnswer,
  RevisionDetail,
  RevisionParams,
  RevisionRows,
} from '../../contract/revisions';
import { versionOfRequest } from '../lib/versions';
import * as revisions from '../services/revisions';

/**
 * The History of a record (contract/revisions.ts), each kind of record under the
 * permission that edits it (blog_post: blog.manage; job_opening: jobs.manage):
 * - GET  /api/admin/revisions/{entity}/{id}: its revisions, newest first, never cached;
 * - GET  /api/admin/revisions/{entity}/{id}/{revision_id}: one, with the fields before it;
 * - POST /api/admin/revisions/{entity}/{id}/{revision_id}/restore with If-Match (428 without, 409
 *   with the record as it is now when it changed since the editor read it).
 */
const adminRevisions: FastifyPluginAsyncZod = async (app) => {
  for (const entity of REVISION_ENTITIES) {
    const config = { permission: EDITING_PERMISSION[entity] };
    app.get(
      `/admin/revisions/${entity}/:id`,
      { config, schema: { params: IdParams, response: { 200: RevisionRows } } },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return revisions.listRevisions(app.services(request), entity, request.params.id);
      },
    );
    app.get(
      `/admin/revisions/${entity}/:id/:revision_id`,
      { config, schema: { params: RevisionParams, response: { 200: RevisionDetail } } },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        const { id, revision_id } = request.params;
        return revisions.getRevision(app.services(request), entity, id, revision_id);
      },
    );
    app.post(
      `/admin/revisions/${entity}/:id/:revision_id/restore`,
      { config, schema: { params: RevisionParams, response: { 200: RestoreAnswer } } },
      async (request) => {
        const { id, revision_id } = request.params;
        return revisions.restoreRevision(
          app.services(request),
          entity,
          id,
          revision_id,
          versionOfRequest(request.headers),
        );
      },
    );
  }
};

export default adminRevisions;
