import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ManageJobOpeningAnswer, ManageJobOpeningBody } from '../../src/api/contract/jobs-admin';
import * as openings from '../services/openings';

/**
 * POST /api/manage-job-openings (jobs.manage): mode 1 creates, 2 updates, 3 deletes (only mode and
 * job_id). The rules, the audit row and the public list's refresh are the service's
 * (services/openings.ts). Answers `{ message, row }` with the saved (or deleted) row.
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
      return openings.updateOpening(ctx, body.job_id, body);
    },
  );
};

export default jobsAdmin;
