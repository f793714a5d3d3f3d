import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APPLICATION_LIST_MESSAGES as M,
  ApplicationDeleteAnswer,
  ApplicationIdParams,
  ApplicationListRows,
  ApplicationStatusAnswer,
  ApplicationStatusBody,
  BindJobApplicationsQuery,
  ExportApplicationsQuery,
  dateRangeError,
} from '../../src/api/contract/admin-applications';
import {
  applicationBatches,
  CSV_HEADER,
  csvRow,
  deleteApplications,
  getApplicationRow,
  listApplications,
  setApplicationStatus,
} from '../db/application-list.repo';
import { HttpError } from '../http-error';
import { recordAudit } from '../db/audit.repo';
import { startRetentionSchedule } from '../lib/retention';

/**
 * The admin's job applications:
 * - GET  /api/bind-job-applications (applications.read): filtered page, newest first;
 * - POST /api/admin/job-applications/{id}/status (applications.manage, audited);
 * - DELETE /api/admin/job-applications/{id} (applications.manage): the row and its CV; the audit
 *   row keeps only that a deletion happened;
 * - GET  /api/admin/job-applications/export.csv (applications.read): every matching row, streamed.
 * It also starts the daily retention purge (lib/retention.ts) in every process but tests.
 */

function checkRange(q: { startdate: string; enddate: string }) {
  const wrong = dateRangeError(q.startdate, q.enddate);
  if (wrong) throw new HttpError(400, wrong.message, { [wrong.field]: wrong.message });
}

const adminApplications: FastifyPluginAsyncZod = async (app) => {
  startRetentionSchedule(app);

  app.get(
    '/bind-job-applications',
    {
      config: { permission: 'applications.read' },
      schema: { querystring: BindJobApplicationsQuery, response: { 200: ApplicationListRows } },
    },
    async (request, reply) => {
      const q = request.query;
      checkRange(q);
      reply.header('cache-control', 'private, no-store');
      const rows = await listApplications(app.db, q);
      if (q.applicationid && rows.length === 0 && q.pagenum === 1) {
        // asked for one application that does not exist (or no longer does)
        const exists = await getApplicationRow(app.db, q.applicationid);
        if (!exists) throw new HttpError(404, M.notFound);
      }
      return rows;
    },
  );

  app.post(
    '/admin/job-applications/:application_id/status',
    {
      config: { permission: 'applications.manage' },
      schema: {
        params: ApplicationIdParams,
        body: ApplicationStatusBody,
        response: { 200: ApplicationStatusAnswer },
      },
    },
    async (request) => {
      const id = Number(request.params.application_id);
      const { status } = request.body;
      const row = await app.db.transaction().execute(async (trx) => {
        const changed = await setApplicationStatus(trx, id, status);
        if (!changed) return undefined;
        if (changed.previous !== status) {
          await recordAudit(trx, {
            actor: request.user,
            action: 'status',
            entity: 'job_application',
            entityId: id,
            detail: { from: changed.previous, to: status },
          });
        }
        return getApplicationRow(trx, id);
      });
      if (!row) throw new HttpError(404, M.notFound);
      return { message: M.statusUpdated, row };
    },
  );

  app.delete(
    '/admin/job-applications/:application_id',
    {
      config: { permission: 'applications.manage' },
      schema: { params: ApplicationIdParams, response: { 200: ApplicationDeleteAnswer } },
    },
    async (request) => {
      const id = Number(request.params.application_id);
      let deleted: number;
      try {
        // Only that a deletion happened: no id, name, email or file key stays behind.
        deleted = await deleteApplications(app.db, app.storage, [id], () => ({
          actor: request.user,
          action: 'delete',
          entity: 'job_application',
        }));
      } catch (err) {
        request.log.error({ err }, 'Application deletion failed; nothing was deleted');
        throw new HttpError(503, 'The application could not be deleted right now. Please try again.');
      }
      if (deleted === 0) throw new HttpError(404, M.notFound);
      request.log.info('Job application and CV deleted by an admin');
      return { message: M.deleted };
    },
  );

  app.get(
    '/admin/job-applications/export.csv',
    { config: { permission: 'applications.read' }, schema: { querystring: ExportApplicationsQuery } },
    async (request, reply) => {
      const q = request.query;
      checkRange(q);
      const db = app.db;
      const log = request.log;
      let count = 0;
      async function* lines() {
        // a BOM so that spreadsheets read names in any script as UTF-8
        yield `\uFEFF${CSV_HEADER}`;
        for await (const batch of applicationBatches(db, q)) {
          count += batch.length;
          yield batch.map(csvRow).join('');
          // let other requests (and the socket) have a turn between batches: SQLite answers
          // synchronously, so a long export would otherwise hold the event loop
          await new Promise((resolve) => setImmediate(resolve));
        }
        log.info({ rows: count }, 'Job applications exported as CSV');
      }
      await recordAudit(app.db, {
        actor: request.user,
        action: 'export',
        entity: 'job_application',
        detail: { search: q.search, startdate: q.startdate, enddate: q.enddate, status: q.status },
      });
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="job-applications-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines(), { objectMode: false }));
    },
  );
};

export default adminApplications;
