import type { Kysely } from 'kysely';
import { COUNT_CAP } from '../../contract/paging';
import {
  OPEN,
  type BindJobOpeningsQuery,
  type JobOpeningRow,
  type JobStatus,
  type JobTypeRow,
  type WorkType,
} from '../../contract/jobs';
import { sanitizeRichText } from '../lib/rich-text';
import { htmlToText } from '../../contract/rich-text';
import { dialectOf } from './database';
import type { Database } from './schema';
import { ftsMatch, ftsRowids, searchTerms, tsMatches, tsQuery } from './full-text';

/**
 * Job openings and job types. Plain functions taking `db` first; they work inside a transaction
 * too. Writes go through createOpening/updateOpening so the rich text is sanitised and the
 * full-text index (search_text) stays in step.
 */

type Db = Kysely<Database>;

export interface OpeningInput {
  job_title: string;
  department: string;
  location: string;
  /** On site when left out (the service always sets it; tests and seeds may leave it out). */
  work_type?: WorkType;
  /** ISO 3166-1 alpha-2, or '' (left out: none). */
  country?: string;
  locality?: string;
  job_type_id: number;
  description: string;
  requirement: string;
  about_role: string;
  responsibility: string;
}

function openingColumns(db: Db) {
  return db
    .selectFrom('job_opening')
    .innerJoin('job_type', 'job_type.job_type_id', 'job_opening.job_type_id')
    .select([
      'job_opening.job_id',
      'job_opening.job_title',
      'job_opening.department',
      'job_opening.location',
      'job_opening.work_type',
      'job_opening.country',
      'job_opening.locality',
      'job_opening.job_type_id',
      'job_type.job_type_name',
      'job_opening.description',
      'job_opening.requirement',
      'job_opening.about_role',
      'job_opening.responsibility',
      'job_opening.created_at',
      'job_opening.version',
      'job_opening.status',
    ]);
}

type Filterable = ReturnType<typeof openingColumns>;

function applyFilters<Q extends Filterable>(
  db: Db,
  query: Q,
  q: Pick<BindJobOpeningsQuery, 'jobid' | 'search'>,
): Q {
  let out = query;
  if (q.jobid) out = out.where('job_opening.job_id', '=', q.jobid) as Q;
  const terms = searchTerms(q.search);
  if (terms.length > 0) {
    if (dialectOf(db) === 'postgres') {
      out = out.where(tsMatches(tsQuery(terms), 'job_opening.search_vector')) as Q;
    } else {
      out = out.where('job_opening.job_id', 'in', ftsRowids('job_opening_fts', ftsMatch(terms))) as Q;
    }
  }
  return out;
}

/**
 * GET bind-job-openings: the Open openings, newest first; `total_count` (capped at 10,000) on the
 * first row. `all` (the back office) lists Draft and Closed ones too, each with its number of
 * applications.
 */
export async function listOpenings(
  db: Db,
  q: BindJobOpeningsQuery,
  { all = false }: { all?: boolean } = {},
): Promise<JobOpeningRow[]> {
  const base = all ? openingColumns(db) : openingColumns(db).where('job_opening.status', '=', OPEN);
  const page = await applyFilters(db, base, q)
    .orderBy('job_opening.created_at', 'desc')
    .orderBy('job_opening.job_id', 'desc')
    .limit(q.pagesize)
    .offset(q.pagesize * (q.pagenum - 1))
    .execute();
  if (page.length === 0) return [];
  const capped = applyFilters(db, base, q).clearSelect().select('job_opening.job_id').limit(COUNT_CAP);
  const { n } = await db
    .selectFrom(capped.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const counts = all
    ? await applicationCounts(
        db,
        page.map((r) => r.job_id),
      )
    : undefined;
  return page.map((row, i) => ({
    ...row,
    ...(counts && {
      application_count: counts.get(row.job_id)?.total ?? 0,
      application_statuses: counts.get(row.job_id)?.byStatus ?? {},
    }),
    ...(i === 0 && { total_count: Number(n) }),
  }));
}

/** The open openings' addresses for the sitemap: number, title and last change, newest first. */
export function openOpeningLinks(db: Db, limit: number) {
  return db
    .selectFrom('job_opening')
    .select(['job_id', 'job_title', 'updated_at'])
    .where('status', '=', OPEN)
    .orderBy('created_at', 'desc')
    .orderBy('job_id', 'desc')
    .limit(limit)
    .execute();
}

/** How many applications each of these openings has, in all and at each status. */
async function applicationCounts(
  db: Db,
  jobIds: number[],
): Promise<Map<number, { total: number; byStatus: Record<string, number> }>> {
  const rows = await db
    .selectFrom('job_application')
    .select((eb) => ['job_id', 'status', eb.fn.countAll<number>().as('n')])
    .where('job_id', 'in', jobIds)
    .groupBy(['job_id', 'status'])
    .execute();
  const counts = new Map<number, { total: number; byStatus: Record<string, number> }>();
  for (const r of rows) {
    const id = Number(r.job_id);
    const entry = counts.get(id) ?? { total: 0, byStatus: {} };
    entry.total += Number(r.n);
    entry.byStatus[r.status] = Number(r.n);
    counts.set(id, entry);
  }
  return counts;
}

/** How many applications an opening has. */
export async function countApplicationsOf(db: Db, jobId: number): Promise<number> {
  return (await applicationCounts(db, [jobId])).get(jobId)?.total ?? 0;
}

/**
 * Sets an opening's status if it is still at `version` (one version on); answers the saved row, or
 * undefined when no opening of that id is at that version.
 */
export async function setOpeningStatus(
  db: Db,
  jobId: number,
  status: JobStatus,
  version: number,
  now = new Date(),
): Promise<JobOpeningRow | undefined> {
  const result = await db
    .updateTable('job_opening')
    .set((eb) => ({ status, updated_at: now.toISOString(), version: eb('version', '+', 1) }))
    .where('job_id', '=', jobId)
    .where('version', '=', version)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return getOpening(db, jobId);
}

export async function getOpening(db: Db, jobId: number): Promise<JobOpeningRow | undefined> {
  return openingColumns(db).where('job_opening.job_id', '=', jobId).executeTakeFirst();
}

/** When an opening last changed (its version for the site search), or undefined. */
export async function openingUpdatedAt(db: Db, jobId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('job_opening')
    .select('updated_at')
    .where('job_id', '=', jobId)
    .executeTakeFirst();
  return row?.updated_at;
}

/** GET bind-job-types: alphabetical by id (the seed order). */
export async function listJobTypes(db: Db): Promise<JobTypeRow[]> {
  return db.selectFrom('job_type').select(['job_type_id', 'job_type_name']).orderBy('job_type_id').execute();
}

export async function getJobType(db: Db, jobTypeId: number): Promise<JobTypeRow | undefined> {
  return db
    .selectFrom('job_type')
    .select(['job_type_id', 'job_type_name'])
    .where('job_type_id', '=', jobTypeId)
    .executeTakeFirst();
}

/** Adds a job type by name unless it exists; answers its row. */
export async function ensureJobType(db: Db, name: string): Promise<JobTypeRow> {
  const existing = await db
    .selectFrom('job_type')
    .select(['job_type_id', 'job_type_name'])
    .where('job_type_name', '=', name)
    .executeTakeFirst();
  if (existing) return existing;
  return db
    .insertInto('job_type')
    .values({ job_type_name: name, created_at: new Date().toISOString() })
    .returning(['job_type_id', 'job_type_name'])
    .executeTakeFirstOrThrow();
}

function cleanOpening(input: OpeningInput) {
  const rich = {
    description: sanitizeRichText(input.description),
    requirement: sanitizeRichText(input.requirement),
    about_role: sanitizeRichText(input.about_role),
    responsibility: sanitizeRichText(input.responsibility),
  };
  return {
    job_title: input.job_title.trim(),
    department: input.department.trim(),
    location: input.location.trim(),
    work_type: input.work_type ?? 'onsite',
    country: (input.country ?? '').trim(),
    locality: (input.locality ?? '').trim(),
    job_type_id: input.job_type_id,
    ...rich,
    search_text: [rich.about_role, rich.description, rich.responsibility, rich.requirement]
      .map(htmlToText)
      .join('\n'),
  };
}

/** Stores a new opening (rich text sanitised); answers the saved row with its job type name. */
export async function createOpening(
  db: Db,
  input: OpeningInput,
  now = new Date(),
  status: JobStatus = OPEN,
): Promise<JobOpeningRow> {
  const at = now.toISOString();
  const { job_id } = await db
    .insertInto('job_opening')
    .values({ ...cleanOpening(input), created_at: at, updated_at: at, status })
    .returning('job_id')
    .executeTakeFirstOrThrow();
  return (await getOpening(db, job_id))!;
}

/**
 * Replaces an opening's fields if it is still at `version` (and counts one version on); answers the
 * saved row, or undefined when no opening of that id is at that version.
 */
export async function updateOpening(
  db: Db,
  jobId: number,
  input: OpeningInput,
  version: number,
  now = new Date(),
): Promise<JobOpeningRow | undefined> {
  const result = await db
    .updateTable('job_opening')
    .set((eb) => ({ ...cleanOpening(input), updated_at: now.toISOString(), version: eb('version', '+', 1) }))
    .where('job_id', '=', jobId)
    .where('version', '=', version)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return getOpening(db, jobId);
}

/**
 * Deletes an opening; its applications stay (job_id becomes null; they keep the job's title).
 * Answers whether a row was deleted.
 */
export async function deleteOpening(db: Db, jobId: number): Promise<boolean> {
  const result = await db.deleteFrom('job_opening').where('job_id', '=', jobId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
