import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ManageJobOpeningAnswer, ManageJobOpeningBody } from '../../src/api/contract/jobs-admin';
import { versionOfRequest } from '../lib/versions';
import * as openings from '../services/openings';

/**
 * POST /api/manage-job-openings (jobs.manage): mode 1 creates, 2 updates, 3 deletes (only mode and
 * job_id). An update sends `If-Match` with the version it is based on (428 without, 409 with the
 * opening as it is now when it changed since) and may send only the fields it changes. The rules,
 * the audit row and the public list's refresh are the service's (services/openings.ts). Answers
 * `{ message, row }` with the saved (or deleted) row.
 */
const jobsAdmin: FastifyPluginAsyncZod = async (app) => {
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
      if (body.mode === 1) return openings.createOpening(ctx, body);
      // a change sends the version it is based on, and only the fields it changes
      return openings.updateOpening(ctx, body.job_id, body, versionOfRequest(request.headers));
    },
  );
};

export default jobsAdmin;
