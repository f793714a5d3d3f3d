import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BindJobOpeningsQuery, JobOpeningRows, JobTypeRows } from '../../contract/jobs';
import { listJobTypes, listOpenings } from '../services/openings';

/**
 * Public job reads: GET /api/bind-job-openings and GET /api/bind-job-types.
 * Writes (POST manage-job-openings) live in routes/jobs-admin.ts.
 *
 * Answers are reused for PUBLIC_READ_CACHE_MS (plugins/public-reads.ts; a save in the admin of
 * this process forgets them at once) and sent with `Cache-Control: no-cache` and a weak ETag (a
 * repeat visit revalidates and gets 304), compressed (brotli or gzip) from 1 KB, since rows carry
 * four rich-text fields.
 */
const jobs: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/bind-job-openings',
    { schema: { querystring: BindJobOpeningsQuery, response: { 200: JobOpeningRows } } },
    async (request, reply) => {
      const q = request.query;
      const key = JSON.stringify([q.jobid, q.search, q.pagenum, q.pagesize]);
      return app.publicReads.answer(request, reply, {
        area: 'jobs',
        key,
        rows: () => listOpenings(app.services(request), q),
        cacheControl: 'no-cache',
      });
    },
  );

  app.get('/bind-job-types', { schema: { response: { 200: JobTypeRows } } }, async (request, reply) =>
    app.publicReads.answer(request, reply, {
      area: 'jobs',
      key: 'types',
      rows: () => listJobTypes(app.services(request)),
      cacheControl: 'no-cache',
    }),
  );
};

export default jobs;
