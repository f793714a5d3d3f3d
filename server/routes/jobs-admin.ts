import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../contract/ids';
import { BindJobOpeningsQuery, JobOpeningRows } from '../../contract/jobs';
import {
  JobStatusAnswer,
  JobStatusBody,
  ManageJobOpeningAnswer,
  ManageJobOpeningBody,
} from '../../contract/jobs-admin';
import { idempotentChange } from '../lib/idempotency';
import { versionOfRequest } from '../lib/versions';
import * as openings from '../services/openings';

/**
 * POST /api/manage-job-openings (jobs.manage): mode 1 creates, 2 updates, 3 deletes (only mode and
 * job_id). An update sends `If-Match` with the version it is based on (428 without, 409 with the
 * opening as it is now when it changed since) and may send only the fields it changes. The rules,
 * the audit row and the public list's refresh are the service's (services/openings.ts). Answers
 * `{ message, row }` with the saved (or deleted) row. An opening with applications is not deleted
 * (409 with their number): it is closed instead. A create or an update may carry an
 * `Idempotency-Key` (the back office's send queue: a change made offline is sent again until it
 * gets an answer): a repeat by the same person within 24 hours gets the first answer and changes
 * nothing again.
 * - GET /api/admin/job-openings: the bind-job-openings query, every opening (Draft, Open, Closed)
 *   with its number of applications, never cached.
 * - PATCH /api/admin/job-openings/{id} with { status } and If-Match: open, close or set back to Draft;
 *   closing may move the applications still open to Rejected with a reason and mail the candidates
 *   (`applications: 'reject'`, which also needs applications.manage).
 */
const jobsAdmin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/job-openings',
    {
      config: { permission: 'jobs.manage' },
      schema: { querystring: BindJobOpeningsQuery, response: { 200: JobOpeningRows } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return openings.listAllOpenings(app.services(request), request.query);
    },
  );

  app.patch(
    '/admin/job-openings/:id',
    {
      config: { permission: 'jobs.manage' },
      schema: { params: IdParams, body: JobStatusBody, response: { 200: JobStatusAnswer } },
    },
    async (request) =>
      openings.setStatus(
        app.services(request),
        request.params.id,
        request.body,
        versionOfRequest(request.headers),
        // rejecting the applications of a closed opening is also a change of applications
        request.user!.permissions.includes('applications.manage'),
      ),
  );

  app.post(
    '/manage-job-openings',
    {
      config: { permission: 'jobs.manage' },
      schema: { body: ManageJobOpeningBody, response: { 200: ManageJobOpeningAnswer } },
    },
    async (request) => {
      const { body } = request;
      const ctx = app.services(request);
      if (body.mode === 3) return openings.deleteOpening(ctx, body.job_id);
      return idempotentChange<ManageJobOpeningAnswer>(app, request, 'manage-job-openings', () =>
        body.mode === 1
          ? openings.createOpening(ctx, body)
          : // a change sends the version it is based on, and only the fields it changes
            openings.updateOpening(ctx, body.job_id, body, versionOfRequest(request.headers)),
      );
    },
  );
};

export default jobsAdmin;
