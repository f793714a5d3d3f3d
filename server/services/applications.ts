import fsp from 'node:fs/promises';
import {
  APPLICATION_MESSAGES as M,
  ApplicationJobId,
  applicationFormErrors,
  consentGiven,
  DEFAULT_PHONE_COUNTRY,
  phoneE164,
  type ApplicationErrors,
} from '../../contract/applications';
import { cleanSource } from '../../contract/insights';
import { phoneCheck } from '../../contract/phone-check';
import {
  APPLICATION_LIST_MESSAGES as LIST,
  dateRangeError,
  type ApplicationStatus,
  type BindJobApplicationsQuery,
  type ExportApplicationsQuery,
} from '../../contract/admin-applications';
import * as list from '../db/application-list.repo';
import { applicationIdOfResume, insertApplication } from '../db/applications.repo';
import { sessionUserById } from '../db/auth.repo';
import { notesOf } from '../db/application-timeline.repo';
import { nameOf } from './application-timeline';
import type { AuditEntry } from '../db/audit.repo';
import { getOpening } from '../db/jobs.repo';
import { OPEN } from '../../contract/jobs';
import { lastChangeOf } from '../db/audit.repo';
import { staleVersion } from '../lib/versions';
import { HttpError } from '../http-error';
import { checkResume, cleanFileName } from '../lib/file-check';
import { queueApplicationMails, queueCandidateMail } from '../mail/mails';
import { COMPANY, type CandidateMailTemplate } from '../../contract/candidate-mail';
import { UNDECIDED_STATUSES } from '../../contract/jobs-admin';
import { mailLang } from '../mail/templates';
import { inTransaction, type Change, type ServiceContext } from './context';

/**
 * Job applications. `receiveApplication` is the public form's one write path: the rules of the
 * Apply form again, the opening, the CV's content (never its name or declared type; a PDF that
 * carries scripts is refused), the file in the store, then in one transaction the file row, the
 * application, the candidate's acknowledgment and the staff notices; the stored file is removed
 * if that transaction fails. docs/decisions/011-careers-openings-applications-files.md.
 */

/** A refusal for fields, with each one's message and code (contract/form-rules.ts). */
export const refusedApplication = (status: number, codes: ApplicationErrors) =>
  HttpError.fields(
    status === 400 ? 'Please correct the highlighted fields.' : M[Object.values(codes)[0]!],
    codes,
    M,
    status,
  );

/** A form as the route read it: its text fields, and the CV saved at `file.path`. */
export interface ApplicationForm {
  fields: Record<string, string>;
  file?: { name: string; size: number; path: string };
  idempotencyKey: string | null;
}

export interface Receipt {
  status: number;
  body: { Message: string; application_id?: number };
}

export async function receiveApplication(
  ctx: ServiceContext,
  { fields, file, idempotencyKey }: ApplicationForm,
): Promise<Receipt> {
  // Honeypot: people never see the field; a filled one gets a normal answer and nothing is kept.
  if (fields.website?.trim()) {
    ctx.log.info({}, 'Job application honeypot filled; nothing stored');
    return { status: 201, body: { Message: M.success } };
  }

  const text = (name: string) => (fields[name] ?? '').trim();
  const data = {
    full_name: text('full_name'),
    email: text('email'),
    contact_number: text('contact_number'),
    // a client that names no country (an older form, another API client): India, as the spec's form
    contact_country: text('contact_country').toUpperCase() || DEFAULT_PHONE_COUNTRY,
    address: text('address'),
    resume: file ? { name: file.name, size: file.size } : null,
    consent: consentGiven(fields.consent),
  };
  // the bytes are read below: the content decides the CV's type, not its name
  const codes: ApplicationErrors = applicationFormErrors(data, { typeByName: false, phone: phoneCheck });
  const fileName = file && cleanFileName(file.name);
  if (!codes.resume && fileName === undefined) codes.resume = 'resumeName';
  const jobId = ApplicationJobId.safeParse(fields.job_id ?? '');
  if (!jobId.success) codes.job_id = 'jobInvalid';
  if (Object.keys(codes).length > 0) throw refusedApplication(400, codes);
  const job = Number(jobId.data);
  const opening = await getOpening(ctx.db, job);
  // a Draft or Closed opening takes no applications, as if it were gone
  if (!opening || opening.status !== OPEN) throw refusedApplication(404, { job_id: 'jobGone' });

  const check = await checkResume(await fsp.readFile(file!.path));
  if (!check.ok) {
    ctx.log.info({ reason: check.reason }, 'CV refused by the content check');
    // a PDF with scripts or attachments: 422, with what the candidate can do about it
    throw check.active
      ? refusedApplication(422, { resume: 'resumeActive' })
      : refusedApplication(415, { resume: 'resumeType' });
  }

  const key = await ctx.storage.put(
    { path: file!.path },
    { prefix: 'cv', ext: check.type.ext, contentType: check.type.contentType },
  );
  try {
    const { application_id, is_duplicate } = await inTransaction(ctx, async (c) => {
      const stored = await insertApplication(
        c.trx,
        {
          job_id: job,
          full_name: data.full_name,
          email: data.email,
          // E.164: the rules above passed it, so it has one
          contact_number: phoneE164(data.contact_number, data.contact_country, phoneCheck)!,
          address: data.address,
          consent_at: c.at.toISOString(),
          idempotency_key: idempotencyKey,
          lang: mailLang(fields.lang),
          source: cleanSource(fields),
          file: {
            key,
            content_type: check.type.contentType,
            byte_size: file!.size,
            original_name: fileName!,
          },
        },
        c.at,
      );
      // the candidate's acknowledgment and the staff notices, kept only with the application
      await queueApplicationMails(
        c.trx,
        ctx.config,
        {
          applicationId: stored.application_id,
          name: data.full_name,
          email: data.email,
          job: opening.job_title,
          lang: fields.lang,
        },
        c.at,
      );
      c.announce({ type: 'application.received', application_id: stored.application_id, job_id: job });
      c.announce({ type: 'mail.queued' });
      return stored;
    });
    ctx.log.info({ application_id, job_id: job, is_duplicate }, 'Job application stored');
    return { status: 201, body: { Message: M.success, application_id } };
  } catch (err) {
    await ctx.storage.delete(key); // no row references it: do not keep it
    throw err;
  }
}

// --- The back office ------------------------------------------------------------------------

/** The admin list's date range, checked (400 naming the field). */
function checkRange(q: { startdate: string; enddate: string }) {
  const wrong = dateRangeError(q.startdate, q.enddate);
  if (wrong) throw new HttpError(400, wrong.message, { [wrong.field]: wrong.message });
}

/** A filtered page, newest first; 404 when one application was asked for and does not exist. */
export async function listApplications(ctx: ServiceContext, q: BindJobApplicationsQuery) {
  checkRange(q);
  const rows = await list.listApplications(ctx.db, q);
  if (q.applicationid && rows.length === 0 && q.pagenum === 1) {
    if (!(await list.getApplicationRow(ctx.db, q.applicationid))) throw new HttpError(404, LIST.notFound);
  }
  return rows;
}

/**
 * Moves an application to `status` if it is still at `version` (409 with the application as it is
 * now otherwise); audited when it changes (a repeat changes nothing).
 */
export async function setStatus(ctx: ServiceContext, id: number, status: ApplicationStatus, version: number) {
  const row = await inTransaction(ctx, async (c) => {
    const changed = await list.setApplicationStatus(c.trx, id, status, version);
    if (!changed) return undefined;
    if (changed.stale) {
      const current = await list.getApplicationRow(c.trx, id);
      throw staleVersion(current, await lastChangeOf(c.trx, 'job_application', id));
    }
    if (changed.previous !== status) {
      await c.audit({
        action: 'status',
        entity: 'job_application',
        entityId: id,
        detail: { from: changed.previous, to: status },
      });
      c.announce({ type: 'application.status_changed', application_id: id, from: changed.previous, status });
    }
    return list.getApplicationRow(c.trx, id);
  });
  if (!row) throw new HttpError(404, LIST.notFound);
  return { message: LIST.statusUpdated, row };
}

/**
 * Deletes applications with their CVs: in one transaction the rows, their file rows, the audit row
 * of `audit(count)` and then the files; a file that cannot be removed rolls the rows back, so a
 * retry finds everything still there. Answers how many were deleted.
 */
export async function deleteApplications(
  ctx: ServiceContext,
  ids: number[],
  audit: (count: number) => Omit<AuditEntry, 'actor'>,
): Promise<number> {
  return inTransaction(ctx, async (c) => {
    const { count, unusedKeys } = await list.removeApplications(c.trx, ids);
    if (count === 0) return 0;
    await c.audit(audit(count));
    c.announce({ type: 'application.deleted', application_ids: ids });
    for (const key of unusedKeys) await ctx.storage.delete(key);
    return count;
  });
}

/** An admin deletes one application and its CV; the audit row keeps only that it happened. */
export async function deleteApplication(ctx: ServiceContext, id: number) {
  let deleted: number;
  try {
    deleted = await deleteApplications(ctx, [id], () => ({ action: 'delete', entity: 'job_application' }));
  } catch (err) {
    ctx.log.error({ err }, 'Application deletion failed; nothing was deleted');
    throw new HttpError(503, 'The application could not be deleted right now. Please try again.');
  }
  if (deleted === 0) throw new HttpError(404, LIST.notFound);
  ctx.log.info({}, 'Job application and CV deleted by an admin');
  return { message: LIST.deleted };
}

/**
 * Every application matching `q` as CSV lines (a BOM, the header, then batches), the export on
 * record first. Yields to the event loop between batches: SQLite answers synchronously, so a long
 * export would otherwise hold every other request.
 */
export async function exportApplications(ctx: ServiceContext, q: ExportApplicationsQuery) {
  checkRange(q);
  await inTransaction(ctx, (c) =>
    c.audit({
      action: 'export',
      entity: 'job_application',
      detail: {
        search: q.search,
        startdate: q.startdate,
        enddate: q.enddate,
        status: q.status,
        job_id: q.job_id,
      },
    }),
  );
  const db = ctx.db;
  async function* lines() {
    let count = 0;
    // a BOM so that spreadsheets read names in any script as UTF-8
    yield `\uFEFF${list.CSV_HEADER}`;
    for await (const batch of list.applicationBatches(db, q)) {
      count += batch.length;
      const notes = await notesInCsv(
        db,
        batch.map((r) => r.application_id),
      );
      yield batch.map((r) => list.csvRow(r, notes.get(r.application_id))).join('');
      await new Promise((resolve) => setImmediate(resolve));
    }
    ctx.log.info({ rows: count }, 'Job applications exported as CSV');
  }
  return lines();
}

/** The notes of these applications as the CSV's cell of each: "time, author: text", blank lines between. */
async function notesInCsv(db: ServiceContext['db'], ids: number[]): Promise<Map<number, string>> {
  const cells = new Map<number, string>();
  for (const n of await notesOf(db, ids)) {
    const note = `${n.created_at}, ${nameOf(n.display_name, n.author_email)}: ${n.text}`;
    const before = cells.get(n.application_id);
    cells.set(n.application_id, before ? `${before}\n\n${note}` : note);
  }
  return cells;
}

/**
 * Records that user `readerId` read the CV stored under `key` (through an address made for them):
 * an audit row of theirs on its application. Answers false, recording nothing, when that person
 * can no longer read applications (removed, disabled, or their role changed since).
 */
export async function recordCvRead(ctx: ServiceContext, key: string, readerId: number): Promise<boolean> {
  const reader = await sessionUserById(ctx.db, readerId);
  if (!reader?.permissions.includes('applications.read')) return false;
  const applicationId = await applicationIdOfResume(ctx.db, key);
  await inTransaction({ ...ctx, actor: { user_id: reader.user_id, email: reader.email } }, (c) =>
    c.audit({ action: 'cv_read', entity: 'job_application', entityId: applicationId ?? null }),
  );
  return true;
}

/**
 * In a closing's transaction: moves the opening's applications still being decided to Rejected,
 * each audited with the reason (their timelines show it), and with `rejection` (the rejection
 * template of each language) queues each candidate's rejection mail in the language they applied
 * in. Answers how many were moved and mailed. docs/decisions/032-closing-an-opening.md.
 */
export async function rejectUndecided(
  c: Change,
  ctx: ServiceContext,
  jobId: number,
  reason: string,
  rejection: ((lang: string) => CandidateMailTemplate) | null,
): Promise<{ rejected: number; mailed: number }> {
  const rows = await list.undecidedApplicationsOf(c.trx, jobId, UNDECIDED_STATUSES);
  for (const row of rows) {
    await list.setApplicationStatus(c.trx, row.application_id, 'Rejected', Number(row.version));
    await c.audit({
      action: 'status',
      entity: 'job_application',
      entityId: row.application_id,
      detail: { from: row.status, to: 'Rejected', reason },
    });
    c.announce({
      type: 'application.status_changed',
      application_id: row.application_id,
      from: row.status,
      status: 'Rejected',
    });
    if (!rejection) continue;
    const lang = mailLang(row.lang);
    const template = rejection(lang);
    await queueCandidateMail(
      c.trx,
      ctx.config,
      {
        applicationId: row.application_id,
        to: row.email,
        lang,
        subject: template.subject,
        body: template.body,
        vars: { name: row.full_name, job: row.job_title ?? '', company: COMPANY },
      },
      c.at,
    );
    await c.audit({
      action: 'mail',
      entity: 'job_application',
      entityId: row.application_id,
      detail: { template: 'reject', lang },
    });
  }
  if (rejection && rows.length > 0) c.announce({ type: 'mail.queued' });
  return { rejected: rows.length, mailed: rejection ? rows.length : 0 };
}
