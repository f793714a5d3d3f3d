import {
  OPEN,
  type BindJobOpeningsQuery,
  type JobOpeningRow,
  type JobTypeRow,
  type WorkType,
} from '../../contract/jobs';
import {
  JOB_FORM_FIELDS,
  JOB_MESSAGES,
  isRichTextField,
  jobErrorMessage,
  jobFormErrors,
  type JobErrorCode,
  type JobFormErrors,
  type JobFormField,
  type JobFormValues,
  ManageJobOpeningBody as Body,
  closeReasonError,
  type JobStatusBody,
} from '../../contract/jobs-admin';
import type { CandidateMailTemplate } from '../../contract/candidate-mail';
import { LANG_CODES } from '../../contract/languages';
import { cleanLine } from '../lib/plain-text';
import { rejectUndecided } from './applications';
import { templatesFor } from './candidate-mail';
import type { z } from 'zod/mini';
import * as repo from '../db/jobs.repo';
import { htmlToText } from '../../contract/rich-text';

/** The request's body after the contract's coercions (job_type_id a number). */
type ManageJobOpeningBody = z.output<typeof Body>;
import { HttpError } from '../http-error';
import { lastChangeOf, valuesOf } from '../db/audit.repo';
import { deleteRevisions } from '../db/revisions.repo';
import { staleVersion } from '../lib/versions';
import { inTransaction, type ServiceContext } from './context';

/**
 * Job openings: the public reads, and the back office's create, update and delete (jobs.manage).
 * Each change checks the job form's own rules (contract/jobs-admin.ts), stores through
 * db/jobs.repo.ts (which sanitises the rich text), writes its audit row in its transaction, and
 * makes the public openings stale once committed.
 */

/** The public list: Open openings only. */
export const listOpenings = (ctx: ServiceContext, q: BindJobOpeningsQuery): Promise<JobOpeningRow[]> =>
  repo.listOpenings(ctx.db, q);

/** The back office's list: every opening, Draft and Closed too, with its number of applications. */
export const listAllOpenings = (ctx: ServiceContext, q: BindJobOpeningsQuery): Promise<JobOpeningRow[]> =>
  repo.listOpenings(ctx.db, q, { all: true });

/**
 * An opening's own page: the opening as the public list shows it when it is Open; otherwise
 * whether it is Closed (its page answers 410, Gone) or not public at all (Draft, or none: 404).
 */
export async function publicOpening(
  ctx: ServiceContext,
  jobId: number,
): Promise<{ row: JobOpeningRow } | { row: null; closed: boolean }> {
  // one read: the row has the public list's columns, and its status says which page it gets
  const row = await repo.getOpening(ctx.db, jobId);
  if (row?.status === OPEN) return { row };
  return { row: null, closed: row?.status === 'Closed' };
}

/** The open openings' pages for the sitemap (newest first, at most `limit`). */
export const openOpeningLinks = (ctx: ServiceContext, limit: number) => repo.openOpeningLinks(ctx.db, limit);

export const listJobTypes = (ctx: ServiceContext): Promise<JobTypeRow[]> => repo.listJobTypes(ctx.db);

export const getOpening = (ctx: ServiceContext, jobId: number) => repo.getOpening(ctx.db, jobId);

const NOT_FOUND = 'Job opening not found';

/** A refusal for fields, led by the first field's message (field order, as the form shows it). */
function refused(codes: JobFormErrors, values?: JobFormValues) {
  // the form's text of a code, naming its field (and the character it refused)
  const messageOf = (field: string, code: string) =>
    jobErrorMessage(field as JobFormField, code as JobErrorCode, values?.[field as JobFormField]);
  const [field, code] = Object.entries(codes)[0]!;
  return HttpError.fields(messageOf(field, code!), codes, messageOf);
}

/** Where an opening is: our additions to the spec's form (docs/decisions/031-where-an-opening-is.md). */
const PLACE_FIELDS = ['work_type', 'country', 'locality'] as const;

/**
 * Whether a request names the opening's place (a change: names it otherwise than it is). One that
 * does not (a client of the spec's form, a change of other fields, a restore of a version from before
 * the place was kept) keeps the place as it is, unset for a new opening; one that does has the whole
 * place checked, as the form checks it.
 */
const namesPlace = (body: ManageJobOpeningBody, before?: JobOpeningRow) =>
  PLACE_FIELDS.some((f) => body[f] !== undefined && (!before || body[f] !== before[f]));

/** The form's values of a request, checked; answers what to store. */
async function checkedInput(
  ctx: ServiceContext,
  body: ManageJobOpeningBody,
  placeNamed: boolean,
): Promise<repo.OpeningInput> {
  const values = Object.fromEntries(
    JOB_FORM_FIELDS.map((f) => [f, f === 'job_type_id' ? String(body.job_type_id ?? '') : (body[f] ?? '')]),
  ) as JobFormValues;
  // a client of the spec's form sends no work type: the opening is on site
  if (body.work_type === undefined) values.work_type = 'onsite';
  const codes = jobFormErrors(values);
  if (!placeNamed) for (const f of PLACE_FIELDS) delete codes[f];
  if (Object.keys(codes).length > 0) throw refused(codes, values);
  const jobType = await repo.getJobType(ctx.db, body.job_type_id!);
  if (!jobType) throw refused({ job_type_id: 'typeRequired' });
  return {
    job_title: values.job_title,
    department: values.department,
    location: values.location,
    work_type: values.work_type as WorkType,
    country: values.country,
    locality: values.locality,
    job_type_id: jobType.job_type_id,
    description: values.description,
    requirement: values.requirement,
    about_role: values.about_role,
    responsibility: values.responsibility,
  };
}

export async function createOpening(ctx: ServiceContext, body: ManageJobOpeningBody) {
  const input = await checkedInput(ctx, body, namesPlace(body));
  const row = await inTransaction(ctx, async (c) => {
    // a new opening is a draft until someone publishes it, unless the request says Open
    const saved = await repo.createOpening(c.trx, input, c.at, body.status ?? 'Draft');
    await c.audit({
      action: 'create',
      entity: 'job_opening',
      entityId: saved.job_id,
      detail: { job_title: saved.job_title },
    });
    await c.revision({
      entity: 'job_opening',
      entityId: saved.job_id,
      version: saved.version ?? 1,
      fields: revisionFieldsOf(saved),
      changed: [...JOB_FORM_FIELDS, 'status'],
    });
    c.announce({ type: 'opening.added', job_id: saved.job_id, status: saved.status! });
    return saved;
  });
  const message = row.status === 'Draft' ? JOB_MESSAGES.createdDraft : JOB_MESSAGES.created;
  return { message, row: { ...row, application_count: 0 } };
}

/** The form's fields of a change: those the request sends, the opening's own for the rest. */
function mergedBody(before: JobOpeningRow, body: ManageJobOpeningBody): ManageJobOpeningBody {
  const sent = Object.fromEntries(JOB_FORM_FIELDS.map((f) => [f, body[f] ?? before[f]]));
  return { ...body, ...sent, job_type_id: body.job_type_id ?? before.job_type_id };
}

/** What a revision keeps of an opening: its fields as the form shows them, and its status. */
const revisionFieldsOf = (row: JobOpeningRow) => ({
  ...Object.fromEntries(JOB_FORM_FIELDS.map((f) => [f, row[f]])),
  status: row.status ?? 'Open',
});

/** A field as a person reads it in the Activity log (rich text as text). */
const readField = (field: string, value: unknown) =>
  isRichTextField(field as JobFormField) ? htmlToText(String(value ?? '')) : String(value ?? '');

/** An opening as the back office shows it: with its number of applications. */
const withCount = async (db: ServiceContext['db'], row: JobOpeningRow): Promise<JobOpeningRow> => ({
  ...row,
  application_count: await repo.countApplicationsOf(db, row.job_id),
});

/** 409 with the opening as it is now (or 404 when it is gone), and who changed it last. */
async function stale(db: ServiceContext['db'], jobId: number) {
  const current = await repo.getOpening(db, jobId);
  if (!current) return new HttpError(404, NOT_FOUND);
  return staleVersion(await withCount(db, current), await lastChangeOf(db, 'job_opening', jobId));
}

/**
 * Changes the fields a request sends (the others stay as they are), if the opening is still at
 * `version`: otherwise 409 with the opening as it is now (docs/decisions/022).
 */
export async function updateOpening(
  ctx: ServiceContext,
  jobId: number | undefined,
  body: ManageJobOpeningBody,
  version: number,
  restoredFrom?: number,
) {
  const before = jobId ? await repo.getOpening(ctx.db, jobId) : undefined;
  if (!before) throw new HttpError(404, NOT_FOUND);
  if (before.version !== version) throw await stale(ctx.db, before.job_id);
  const input = await checkedInput(ctx, mergedBody(before, body), namesPlace(body, before));
  // a save that changes nothing (a form saved untouched) writes nothing: no version, no revision
  if (JOB_FORM_FIELDS.every((f) => String(input[f]) === String(before[f])))
    return { message: JOB_MESSAGES.updated, row: await withCount(ctx.db, before) };
  const row = await inTransaction(ctx, async (c) => {
    const saved = await repo.updateOpening(c.trx, before.job_id, input, version, c.at);
    // changed (or deleted) between the read above and this write: the later of two saves loses
    if (!saved) throw await stale(c.trx, before.job_id);
    const changed = JOB_FORM_FIELDS.filter((f) => String(before[f]) !== String(saved[f]));
    await c.audit({
      action: restoredFrom ? 'restore' : 'update',
      entity: 'job_opening',
      entityId: saved.job_id,
      detail: {
        job_title: saved.job_title,
        changed,
        values: valuesOf(changed, before, saved, readField),
        ...(restoredFrom && { revision: restoredFrom }),
      },
    });
    await c.revision({
      entity: 'job_opening',
      entityId: saved.job_id,
      version: saved.version ?? version + 1,
      fields: revisionFieldsOf(saved),
      changed,
      restoredFrom,
      before: { version: before.version ?? version, fields: revisionFieldsOf(before) },
    });
    c.announce({ type: 'opening.edited', job_id: saved.job_id, status: saved.status!, changed });
    return saved;
  });
  return { message: JOB_MESSAGES.updated, row: await withCount(ctx.db, row) };
}

/**
 * Opens, closes or sets back to Draft an opening still at `version` (409 with the opening as it is
 * now otherwise). Only Open openings are public; closing keeps the opening and its applications.
 */
export async function setStatus(
  ctx: ServiceContext,
  jobId: number,
  body: JobStatusBody,
  version: number,
  mayReject: boolean,
) {
  const { status } = body;
  const rejecting = status === 'Closed' && body.applications === 'reject';
  const reason = rejecting ? cleanLine(body.reason ?? '') : '';
  if (rejecting) {
    if (!mayReject) throw new HttpError(403, JOB_MESSAGES.rejectNeedsPermission);
    const code = closeReasonError(reason);
    if (code) throw HttpError.fields(JOB_MESSAGES[code], { reason: code }, JOB_MESSAGES);
  }
  const before = await repo.getOpening(ctx.db, jobId);
  if (!before) throw new HttpError(404, NOT_FOUND);
  if (before.version !== version) throw await stale(ctx.db, jobId);
  if (before.status === status)
    return { message: JOB_MESSAGES.statusChanged, row: await withCount(ctx.db, before) };
  // the rejection words of every language, read before the change (saved ones, else the site's)
  const rejection = rejecting && body.mail ? await rejectionTemplates(ctx) : null;
  let outcome = { rejected: 0, mailed: 0 };
  const row = await inTransaction(ctx, async (c) => {
    const saved = await repo.setOpeningStatus(c.trx, jobId, status, version, c.at);
    if (!saved) throw await stale(c.trx, jobId);
    await c.audit({
      action: 'status',
      entity: 'job_opening',
      entityId: jobId,
      detail: { job_title: saved.job_title, from: before.status, to: status },
    });
    await c.revision({
      entity: 'job_opening',
      entityId: jobId,
      version: saved.version ?? version + 1,
      fields: revisionFieldsOf(saved),
      changed: ['status'],
      before: { version: before.version ?? version, fields: revisionFieldsOf(before) },
    });
    if (rejecting) outcome = await rejectUndecided(c, ctx, jobId, reason, rejection);
    c.announce({
      type: 'opening.status_changed',
      job_id: jobId,
      from: before.status!,
      status,
      rejected: outcome.rejected,
    });
    return saved;
  });
  return {
    message: JOB_MESSAGES.statusChanged,
    row: await withCount(ctx.db, row),
    ...(rejecting && outcome),
  };
}

/** The rejection template of each language, as a closing's mails use them. */
async function rejectionTemplates(ctx: ServiceContext) {
  const byLang = new Map<string, CandidateMailTemplate>();
  for (const lang of LANG_CODES) {
    const reject = (await templatesFor(ctx, lang)).find((t) => t.template === 'reject')!;
    byLang.set(lang, reject);
  }
  return (lang: string) => byLang.get(lang) ?? byLang.get('en')!;
}

/**
 * Deletes an opening that has no applications. One that has some is refused (409 with their
 * number): it is closed instead, so they keep their job.
 */
export async function deleteOpening(ctx: ServiceContext, jobId: number | undefined) {
  const row = jobId ? await repo.getOpening(ctx.db, jobId) : undefined;
  if (!row) throw new HttpError(404, NOT_FOUND);
  await inTransaction(ctx, async (c) => {
    // counted in the transaction that deletes: an application arriving meanwhile is not orphaned
    const applications = await repo.countApplicationsOf(c.trx, row.job_id);
    if (applications > 0)
      throw new HttpError(409, JOB_MESSAGES.hasApplications, undefined, undefined, { applications });
    // deleted a moment ago by a twin of this request: nothing to delete or audit
    if (!(await repo.deleteOpening(c.trx, row.job_id))) throw new HttpError(404, NOT_FOUND);
    await c.audit({
      action: 'delete',
      entity: 'job_opening',
      entityId: row.job_id,
      detail: { job_title: row.job_title },
    });
    await deleteRevisions(c.trx, 'job_opening', row.job_id);
    c.announce({ type: 'opening.deleted', job_id: row.job_id });
  });
  return { message: JOB_MESSAGES.deleted, row };
}
