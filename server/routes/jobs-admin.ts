import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  JOB_FORM_FIELDS,
  JOB_MESSAGES,
  ManageJobOpeningAnswer,
  ManageJobOpeningBody,
  jobErrorMessage,
  jobFormErrors,
  type JobErrorCode,
  type JobFormErrors,
  type JobFormField,
  type JobFormValues,
} from '../../src/api/contract/jobs-admin';
import {
  createOpening,
  deleteOpening,
  getJobType,
  getOpening,
  updateOpening,
  type OpeningInput,
} from '../db/jobs.repo';
import { HttpError } from '../http-error';
import { recordAudit } from '../db/audit.repo';

/**
 * POST /api/manage-job-openings (jobs.manage): mode 1 creates, 2 updates,
 * 3 deletes (only mode and job_id). Fields are checked with the admin form's own rules
 * (src/api/contract/jobs-admin.ts), the rich text is sanitised by jobs.repo.ts
 * (server/lib/rich-text.ts), and every change is recorded in the audit log. Answers
 * `{ message, row }` with the saved (or deleted) row.
 */
/** The job form's text of a code, naming its field. */
const messageOf = (field: string, code: string) =>
  jobErrorMessage(field as JobFormField, code as JobErrorCode);

/** A refusal for fields, led by the first field's message (field order, as the form shows it). */
function refused(codes: JobFormErrors) {
  const [field, code] = Object.entries(codes)[0]!;
  return HttpError.fields(messageOf(field, code!), codes, messageOf);
}

const jobsAdmin: FastifyPluginAsyncZod = async (app) => {
  // a saved change shows at once on the public list of this process (plugins/public-reads.ts)
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400)
      app.publicReads.invalidate('jobs');
    return payload;
  });
  app.post(
    '/manage-job-openings',
    {
      config: { permission: 'jobs.manage' },
      schema: { body: ManageJobOpeningBody, response: { 200: ManageJobOpeningAnswer } },
    },
    async (request) => {
      const body = request.body;
      const db = app.db;
      if (body.mode === 3) {
        const row = body.job_id ? await getOpening(db, body.job_id) : undefined;
        if (!row) throw new HttpError(404, 'Job opening not found');
        await db.transaction().execute(async (trx) => {
          // deleted a moment ago by a twin of this request: nothing to delete or audit
          if (!(await deleteOpening(trx, row.job_id))) throw new HttpError(404, 'Job opening not found');
          await recordAudit(trx, {
            actor: request.user,
            action: 'delete',
            entity: 'job_opening',
            entityId: row.job_id,
            detail: { job_title: row.job_title },
          });
        });
        return { message: JOB_MESSAGES.deleted, row };
      }

      const values = Object.fromEntries(
        JOB_FORM_FIELDS.map((f) => [
          f,
          f === 'job_type_id' ? String(body.job_type_id ?? '') : (body[f] ?? ''),
        ]),
      ) as JobFormValues;
      const codes = jobFormErrors(values);
      if (Object.keys(codes).length > 0) throw refused(codes);
      const jobType = await getJobType(db, body.job_type_id!);
      if (!jobType) throw refused({ job_type_id: 'typeRequired' });
      const input: OpeningInput = {
        job_title: values.job_title,
        department: values.department,
        location: values.location,
        job_type_id: jobType.job_type_id,
        description: values.description,
        requirement: values.requirement,
        about_role: values.about_role,
        responsibility: values.responsibility,
      };

      if (body.mode === 1) {
        const row = await db.transaction().execute(async (trx) => {
          const saved = await createOpening(trx, input);
          await recordAudit(trx, {
            actor: request.user,
            action: 'create',
            entity: 'job_opening',
            entityId: saved.job_id,
            detail: { job_title: saved.job_title },
          });
          return saved;
        });
        return { message: JOB_MESSAGES.created, row };
      }

      if (!body.job_id) throw new HttpError(404, 'Job opening not found');
      const before = await getOpening(db, body.job_id);
      if (!before) throw new HttpError(404, 'Job opening not found');
      const row = await db.transaction().execute(async (trx) => {
        const saved = await updateOpening(trx, body.job_id!, input);
        if (!saved) throw new HttpError(404, 'Job opening not found');
        const changed = JOB_FORM_FIELDS.filter((f) => String(before[f]) !== String(saved[f]));
        await recordAudit(trx, {
          actor: request.user,
          action: 'update',
          entity: 'job_opening',
          entityId: saved.job_id,
          detail: { job_title: saved.job_title, changed },
        });
        return saved;
      });
      return { message: JOB_MESSAGES.updated, row };
    },
  );
};

export default jobsAdmin;
