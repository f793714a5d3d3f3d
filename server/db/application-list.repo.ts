import { formatPhone } from '../../contract/phone-check';
import { sql, type Kysely } from 'kysely';
import { COUNT_CAP } from '../../contract/paging';
import {
  APPLICATION_CSV_COLUMNS,
  type ApplicationListRow,
  type ApplicationStatus,
  type BindJobApplicationsQuery,
  type ExportApplicationsQuery,
} from '../../contract/admin-applications';
import { csvLine } from '../lib/csv';
import { forUpdate } from './database';
import type { Database } from './schema';
import { countMatches, ftsRowids, searchPlan, tsMatches, type SearchPlan } from './full-text';
import { deleteStoredFiles } from './files.repo';
import { removeTimelines } from './application-timeline.repo';

/**
 * The admin's view of job applications: the filtered, paged list, the CSV export in
 * batches, status changes and deletion of an application with its CV. Plain functions taking `db`
 * first. Writes of the public form are in applications.repo.ts.
 */

type Db = Kysely<Database>;
type Filters = Omit<ExportApplicationsQuery, never>;

/** The first instant of a day and of the day after it, for an inclusive UTC day range. */
export const dayStart = (day: string) => `${day}T00:00:00.000Z`;
export function nextDayStart(day: string): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

/**
 * A search with at least this many matches is common ('com' is in nearly every email): SQLite
 * walks the list in page order (`+application_id` keeps it from starting at the matches; see
 * full-text.ts `searchPlan`).
 */
const COMMON_MATCHES = 2_000;

function filtered(db: Db, f: Filters, plan: SearchPlan) {
  let query = db.selectFrom('job_application as a');
  if (f.applicationid) query = query.where('a.application_id', '=', f.applicationid);
  if (f.status) query = query.where('a.status', '=', f.status);
  if (f.job_id) query = query.where('a.job_id', '=', f.job_id);
  if (f.startdate) query = query.where('a.created_at', '>=', dayStart(f.startdate));
  if (f.enddate) query = query.where('a.created_at', '<', nextDayStart(f.enddate));
  if (plan.kind === 'postgres') {
    query = query.where(tsMatches(plan.tsquery, 'a.search_vector'));
  } else if (plan.kind === 'sqlite') {
    const matches = ftsRowids('job_application_fts', plan.match);
    query = query.where(
      plan.common ? sql<number>`+a.application_id` : sql.ref('a.application_id'),
      'in',
      matches,
    );
  }
  return query;
}

type Filtered = ReturnType<typeof filtered>;

function withColumns(query: Filtered) {
  return query.leftJoin('job_opening as o', 'o.job_id', 'a.job_id').select([
    'a.application_id',
    'a.job_id',
    'a.full_name',
    'a.email',
    'a.contact_number',
    'a.address',
    // the opening's title while it exists; the one applied for once it is deleted
    sql<string | null>`coalesce(o.job_title, a.job_title)`.as('job_title'),
    'a.created_at',
    'a.resume',
    'a.status',
    'a.is_duplicate',
    'a.consent_at',
    'a.version',
    'a.lang',
  ]);
}

type RawRow = {
  application_id: number;
  job_id: number | null;
  full_name: string;
  email: string;
  contact_number: string;
  address: string;
  job_title: string | null;
  created_at: string;
  resume: string;
  status: string;
  is_duplicate: number | boolean;
  consent_at: string;
  version: number;
  lang: string;
};

function toRow(r: RawRow): ApplicationListRow {
  return {
    application_id: Number(r.application_id),
    job_id: r.job_id === null ? null : Number(r.job_id),
    full_name: r.full_name,
    email: r.email,
    contact_number: r.contact_number,
    contact_display: formatPhone(r.contact_number),
    address: r.address,
    job_title: r.job_title,
    applied_date: r.created_at,
    resume: r.resume,
    status: r.status,
    is_duplicate: Boolean(Number(r.is_duplicate)),
    consent_at: r.consent_at,
    version: Number(r.version),
    lang: r.lang,
  };
}

type Listed = ReturnType<typeof withColumns>;

/** Newest first, ties by newest id; with a selective PostgreSQL search the sort happens after it. */
function ordered(query: Listed, sortAfterSearch: boolean): Listed {
  return query
    .orderBy(sortAfterSearch ? sql`a.created_at || ''` : sql.ref('a.created_at'), 'desc')
    .orderBy(sortAfterSearch ? sql`a.application_id + 0` : sql.ref('a.application_id'), 'desc');
}

/** Matching applications, capped at COUNT_CAP (reads at most that many index entries). */
export async function countApplications(db: Db, f: Filters, plan?: SearchPlan): Promise<number> {
  plan ??= await searchPlan(db, f.search, 'job_application_fts', COMMON_MATCHES);
  if (plan.kind === 'sqlite' && !f.applicationid && !f.status && !f.job_id && !f.startdate && !f.enddate) {
    // only a search: the index has one row per application (triggers keep it so), so its own
    // matches are the count, without visiting the applications
    return countMatches(db, 'job_application_fts', plan.match, COUNT_CAP);
  }
  const capped = filtered(db, f, plan).select('a.application_id').limit(COUNT_CAP);
  const { n } = await db
    .selectFrom(capped.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * GET bind-job-applications: one page, newest first, `total_count` (exact up to 10,000) on the
 * first row. An empty page answers [].
 */
export async function listApplications(db: Db, q: BindJobApplicationsQuery): Promise<ApplicationListRow[]> {
  const plan = await searchPlan(db, q.search, 'job_application_fts', COMMON_MATCHES);
  // PostgreSQL misjudges how many rows a prefix search matches; the capped count decides whether
  // to sort after the full-text index (few matches) or read the list index in order (many).
  const total = plan.kind === 'postgres' ? await countApplications(db, q, plan) : undefined;
  const sortAfterSearch = plan.kind === 'postgres' && total! < COMMON_MATCHES;
  const rows = (await ordered(withColumns(filtered(db, q, plan)), sortAfterSearch)
    .limit(q.pagesize)
    .offset(q.pagesize * (q.pagenum - 1))
    .execute()) as RawRow[];
  if (rows.length === 0) return [];
  const count = total ?? (await countApplications(db, q, plan));
  return rows.map((r, i) => (i === 0 ? { ...toRow(r), total_count: count } : toRow(r)));
}

export async function getApplicationRow(
  db: Db,
  applicationId: number,
): Promise<ApplicationListRow | undefined> {
  const row = (await withColumns(db.selectFrom('job_application as a'))
    .where('a.application_id', '=', applicationId)
    .executeTakeFirst()) as RawRow | undefined;
  return row && toRow(row);
}

/**
 * Every matching application in list order, `batchSize` rows at a time (keyset paging on the
 * list index), so an export of any size holds one batch in memory.
 */
export async function* applicationBatches(
  db: Db,
  f: Filters,
  batchSize = 500,
): AsyncGenerator<ApplicationListRow[]> {
  const plan = await searchPlan(db, f.search, 'job_application_fts', COMMON_MATCHES);
  let after: { created_at: string; application_id: number } | undefined;
  for (;;) {
    let query = withColumns(filtered(db, f, plan));
    if (after) {
      const { created_at, application_id } = after;
      query = query.where((eb) =>
        eb.or([
          eb('a.created_at', '<', created_at),
          eb.and([eb('a.created_at', '=', created_at), eb('a.application_id', '<', application_id)]),
        ]),
      );
    }
    const rows = (await ordered(query, false).limit(batchSize).execute()) as RawRow[];
    if (rows.length === 0) return;
    yield rows.map(toRow);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    after = { created_at: last.created_at, application_id: Number(last.application_id) };
  }
}

// ---------------------------------------------------------------------------------------------
// CSV
// ---------------------------------------------------------------------------------------------

export const CSV_HEADER = csvLine([...APPLICATION_CSV_COLUMNS]);

export function csvRow(r: ApplicationListRow, notes = ''): string {
  return csvLine([
    r.application_id,
    r.full_name,
    r.email,
    r.contact_number,
    r.address,
    r.job_title ?? 'N/A',
    r.applied_date,
    r.status,
    r.is_duplicate ? 'yes' : 'no',
    r.consent_at,
    notes,
  ]);
}

// ---------------------------------------------------------------------------------------------
// Changes
// ---------------------------------------------------------------------------------------------

/** Sets the status; answers the previous one, or undefined when there is no such application. */
/**
 * An opening's applications still being decided (`statuses`), locked until the caller's
 * transaction ends, with what a rejection mail needs.
 */
export async function undecidedApplicationsOf(db: Db, jobId: number, statuses: readonly string[]) {
  return forUpdate(
    db,
    db
      .selectFrom('job_application')
      .select(['application_id', 'status', 'version', 'email', 'full_name', 'job_title', 'lang'])
      .where('job_id', '=', jobId)
      .where('status', 'in', [...statuses])
      .orderBy('application_id'),
  ).execute();
}

export async function setApplicationStatus(
  db: Db,
  applicationId: number,
  status: ApplicationStatus,
  version: number,
): Promise<{ previous: string; stale: boolean } | undefined> {
  // locked until the caller's transaction ends, so racing changes take turns and each sees the last
  const current = await forUpdate(
    db,
    db
      .selectFrom('job_application')
      .select(['status', 'version'])
      .where('application_id', '=', applicationId),
  ).executeTakeFirst();
  if (!current) return undefined;
  // already as asked (a double click, a colleague's same choice): nothing to write, no conflict
  if (current.status === status) return { previous: current.status, stale: false };
  // changed since the person read it: nothing is written (docs/decisions/022)
  if (Number(current.version) !== version) return { previous: current.status, stale: true };
  await db
    .updateTable('job_application')
    .set({ status, version: version + 1 })
    .where('application_id', '=', applicationId)
    .execute();
  return { previous: current.status, stale: false };
}

/**
 * Removes applications and their stored_file rows; answers how many went and the keys of the CV
 * files no remaining application uses (the service removes those files in the same transaction).
 * The rows are locked first: a deletion racing this one waits, then finds them gone. The audit rows
 * about them keep what happened but no longer which application it happened to. Call it inside a
 * transaction (services/applications.ts deleteApplications).
 */
export async function removeApplications(
  trx: Db,
  applicationIds: number[],
): Promise<{ count: number; unusedKeys: string[] }> {
  if (applicationIds.length === 0) return { count: 0, unusedKeys: [] };
  const rows = await forUpdate(
    trx,
    trx
      .selectFrom('job_application')
      .select(['application_id', 'resume'])
      .where('application_id', 'in', applicationIds),
  ).execute();
  if (rows.length === 0) return { count: 0, unusedKeys: [] };
  // its notes and the mails to its candidate are the candidate's data too
  await removeTimelines(
    trx,
    rows.map((r) => r.application_id),
  );
  await trx
    .deleteFrom('job_application')
    .where(
      'application_id',
      'in',
      rows.map((r) => r.application_id),
    )
    .execute();
  const keys = [...new Set(rows.map((r) => r.resume))];
  // a key another application still uses (never made by this server, but possible in old data) stays
  const shared = new Set(
    (await trx.selectFrom('job_application').select('resume').where('resume', 'in', keys).execute()).map(
      (r) => r.resume,
    ),
  );
  const unusedKeys = keys.filter((k) => !shared.has(k));
  await deleteStoredFiles(trx, unusedKeys);
  await trx
    .updateTable('audit_log')
    .set({ entity_id: null })
    .where('entity', '=', 'job_application')
    .where(
      'entity_id',
      'in',
      rows.map((r) => String(r.application_id)),
    )
    .execute();
  return { count: rows.length, unusedKeys };
}

/** Ids of applications stored before `cutoff` (ISO), oldest first, at most `limit`. */
export async function applicationsStoredBefore(db: Db, cutoff: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('job_application')
    .select('application_id')
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .orderBy('application_id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.application_id));
}

/** Applications stored from `since` (inclusive) to `until` (exclusive), oldest first, at most `limit`, and how many in all (the daily digest). */
export async function applicationsBetween(db: Db, since: string, until: string, limit: number) {
  const base = db
    .selectFrom('job_application')
    .leftJoin('job_opening', 'job_opening.job_id', 'job_application.job_id')
    .where('job_application.created_at', '>=', since)
    .where('job_application.created_at', '<', until);
  const rows = await base
    .select([
      'job_application.full_name as name',
      sql<string | null>`coalesce(job_opening.job_title, job_application.job_title)`.as('job'),
    ])
    .orderBy('job_application.application_id')
    .limit(limit)
    .execute();
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}
