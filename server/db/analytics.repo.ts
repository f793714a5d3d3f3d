import { sql, type Kysely } from 'kysely';
import type { AnalyticsViewTable } from './analytics.schema';
import type { Database } from './schema';

/**
 * Visit figures (migration 2800, docs/decisions/028-visit-figures.md): the day's secret, the page
 * views as they come, their daily figures (by page and by visit) and the sources of applications
 * and contact messages, read for the Insights screen.
 */

type Db = Kysely<Database>;
export type ViewRow = Omit<AnalyticsViewTable, 'view_id'>;

export const DIMENSIONS = [
  'referrer_host',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'device',
  'language',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** The day's secret, made by `make` if this is the first visit of the day (one per day in any process). */
export async function daySecret(db: Db, day: string, make: () => string): Promise<string> {
  await db
    .insertInto('analytics_salt')
    .values({ day, secret: make() })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
  const row = await db
    .selectFrom('analytics_salt')
    .select('secret')
    .where('day', '=', day)
    .executeTakeFirstOrThrow();
  return row.secret;
}

/** Forgets the secrets of the days before `day`: their visitors can never be recognised again. */
export async function deleteSecretsBefore(db: Db, day: string): Promise<number> {
  const result = await db.deleteFrom('analytics_salt').where('day', '<', day).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Rows per INSERT: 13 values each, well under both databases' limit of bound values. */
const INSERT_CHUNK = 500;

export async function insertViews(db: Db, rows: readonly ViewRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('analytics_view')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .execute();
    }
  });
}

/** Deletes the page views of the days before `day` (their daily figures stay). */
export async function deleteViewsBefore(db: Db, day: string): Promise<number> {
  const result = await db.deleteFrom('analytics_view').where('day', '<', day).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The id of the newest page view written (0 for none). */
export async function lastViewId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('analytics_view')
    .select((eb) => eb.fn.max('view_id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The earliest day that still has page views, if any. */
export async function firstViewDay(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('analytics_view')
    .select((eb) => eb.fn.min('day').as('day'))
    .executeTakeFirst();
  return row?.day ?? undefined;
}

/**
 * Makes the daily figures of the days from `from` to `to` again from their page views, in one
 * transaction (a reader sees the old figures or the new, never none). A visit is a visitor's views
 * of one day that came in on the same page with the same dimensions.
 */
export async function rollUpDays(db: Db, from: string, to: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('analytics_page_day').where('day', '>=', from).where('day', '<=', to).execute();
    await trx.deleteFrom('analytics_visit_day').where('day', '>=', from).where('day', '<=', to).execute();
    await trx
      .insertInto('analytics_page_day')
      .columns(['day', 'path', ...DIMENSIONS, 'views', 'visitors'])
      .expression(
        trx
          .selectFrom('analytics_view')
          .select(['day', 'path', ...DIMENSIONS])
          .select([sql<number>`count(*)`.as('views'), sql<number>`count(distinct visitor)`.as('visitors')])
          .where('day', '>=', from)
          .where('day', '<=', to)
          .groupBy(['day', 'path', ...DIMENSIONS]),
      )
      .execute();
    const visits = trx
      .selectFrom('analytics_view')
      .select(['day', 'visitor', 'landing', ...DIMENSIONS])
      .select(sql<number>`count(*)`.as('views'))
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy(['day', 'visitor', 'landing', ...DIMENSIONS])
      .as('v');
    await trx
      .insertInto('analytics_visit_day')
      .columns(['day', 'landing', ...DIMENSIONS, 'visits', 'visitors', 'views', 'bounces'])
      .expression(
        trx
          .selectFrom(visits)
          .select(['v.day', 'v.landing', ...DIMENSIONS.map((d) => `v.${d}` as const)])
          .select([
            sql<number>`count(*)`.as('visits'),
            sql<number>`count(distinct v.visitor)`.as('visitors'),
            sql<number>`sum(v.views)`.as('views'),
            sql<number>`sum(case when v.views = 1 then 1 else 0 end)`.as('bounces'),
          ])
          .groupBy(['v.day', 'v.landing', ...DIMENSIONS.map((d) => `v.${d}` as const)]),
      )
      .execute();
    await sumDimensions(trx, from, to);
  });
}

/**
 * Sums each dimension alone (and the total) per day from the daily figures of the days from
 * `from` to `to`, replacing what was there: what the screen reads without a filter.
 */
export async function sumDimensions(trx: Db, from: string, to: string): Promise<void> {
  await trx.deleteFrom('analytics_dim_day').where('day', '>=', from).where('day', '<=', to).execute();
  for (const dim of ['total', 'landing', ...DIMENSIONS] as const) {
    await trx
      .insertInto('analytics_dim_day')
      .columns(['dim', 'day', 'key', 'visits', 'visitors', 'views', 'bounces'])
      .expression(
        trx
          .selectFrom('analytics_visit_day')
          .select([
            sql.lit(dim).as('dim'),
            'day',
            (dim === 'total' ? sql.lit('') : sql.ref(dim)).as('key'),
            sql<number>`sum(visits)`.as('visits'),
            sql<number>`sum(visitors)`.as('visitors'),
            sql<number>`sum(views)`.as('views'),
            sql<number>`sum(bounces)`.as('bounces'),
          ])
          .where('day', '>=', from)
          .where('day', '<=', to)
          .groupBy(dim === 'total' ? ['day'] : ['day', dim]),
      )
      .execute();
  }
  await trx
    .insertInto('analytics_dim_day')
    .columns(['dim', 'day', 'key', 'visits', 'visitors', 'views', 'bounces'])
    .expression(
      trx
        .selectFrom('analytics_page_day')
        .select([
          sql.lit('path').as('dim'),
          'day',
          'path',
          sql.lit(0).as('visits'),
          sql<number>`sum(visitors)`.as('visitors'),
          sql<number>`sum(views)`.as('views'),
          sql.lit(0).as('bounces'),
        ])
        .where('day', '>=', from)
        .where('day', '<=', to)
        .groupBy(['day', 'path']),
    )
    .execute();
}

/** What the one-dimension figures hold: the total, pages, landing pages and each dimension. */
export type DimName = 'total' | 'path' | 'landing' | Dimension;

/**
 * Sums of one dimension's daily figures over a range (no filter), grouped by its value or by
 * day (`by`), the largest first; for 'total' grouped by day, or one row of everything.
 */
export async function dimFigures(
  db: Db,
  range: { from: string; to: string },
  dim: DimName,
  by: 'key' | 'day' | undefined,
  limit = 1000,
): Promise<VisitSums[]> {
  const query = db
    .selectFrom('analytics_dim_day')
    .select(VISIT_SUMS)
    .where('dim', '=', dim)
    .where('day', '>=', range.from)
    .where('day', '<=', range.to);
  if (!by) {
    const row = await query.executeTakeFirst();
    return [{ key: '', ...visitShape(row ?? { visits: 0, visitors: 0, views: 0, bounces: 0 }) }];
  }
  const grouped = query.select(sql.ref<string>(by).as('key')).groupBy(by);
  const rows = await (
    by === 'day'
      ? grouped.orderBy('day')
      : grouped.orderBy(
          dim === 'path'
            ? sql`sum(visitors) desc, sum(views) desc, key`
            : sql`sum(visits) desc, sum(visitors) desc, key`,
        )
  )
    .limit(limit)
    .execute();
  return rows.map((r) => ({ key: String(r.key), ...visitShape(r) }));
}

// ---------------------------------------------------------------------------------------------
// Reading the figures
// ---------------------------------------------------------------------------------------------

/** Equality filters on a figures table's columns. */
export type FigureWhere = Partial<Record<Dimension | 'path' | 'landing', string>>;

export interface FigureQuery {
  from: string;
  to: string;
  where: FigureWhere;
}

const n = (v: unknown) => Number(v ?? 0);

/**
 * Sums of a page's daily figures (views, visitors), grouped by `by` (a column or 'day'); the
 * largest first, `limit` rows. Without `by`: one row, the sums over everything that matches.
 */
export async function pageFigures(
  db: Db,
  q: FigureQuery,
  by?: Dimension | 'path' | 'day',
  limit = 1000,
): Promise<{ key: string; views: number; visitors: number }[]> {
  let query = db
    .selectFrom('analytics_page_day')
    .select([sql<number>`sum(views)`.as('views'), sql<number>`sum(visitors)`.as('visitors')])
    .where('day', '>=', q.from)
    .where('day', '<=', q.to);
  for (const [col, value] of Object.entries(q.where)) {
    if (col !== 'landing') query = query.where(col as Dimension | 'path', '=', value);
  }
  if (!by) {
    const row = await query.executeTakeFirst();
    return [{ key: '', views: n(row?.views), visitors: n(row?.visitors) }];
  }
  const rows = await query
    .select(sql.ref<string>(by).as('key'))
    .groupBy(by)
    .orderBy(by === 'day' ? sql`key` : sql`sum(visitors) desc, sum(views) desc, key`)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ key: String(r.key), views: n(r.views), visitors: n(r.visitors) }));
}

/** The sums a visit figure answers, selected alike from the visit and the one-dimension tables. */
const VISIT_SUMS = [
  sql<number>`sum(visits)`.as('visits'),
  sql<number>`sum(visitors)`.as('visitors'),
  sql<number>`sum(views)`.as('views'),
  sql<number>`sum(bounces)`.as('bounces'),
];
const visitShape = (r: { visits: unknown; visitors: unknown; views: unknown; bounces: unknown }) => ({
  visits: n(r.visits),
  visitors: n(r.visitors),
  views: n(r.views),
  bounces: n(r.bounces),
});

export interface VisitSums {
  key: string;
  visits: number;
  visitors: number;
  views: number;
  bounces: number;
}

/** Sums of the daily visit figures, grouped like pageFigures. */
export async function visitFigures(
  db: Db,
  q: FigureQuery,
  by?: Dimension | 'landing' | 'day',
  limit = 1000,
): Promise<VisitSums[]> {
  let query = db
    .selectFrom('analytics_visit_day')
    .select(VISIT_SUMS)
    .where('day', '>=', q.from)
    .where('day', '<=', q.to);
  for (const [col, value] of Object.entries(q.where)) {
    if (col !== 'path') query = query.where(col as Dimension | 'landing', '=', value);
  }
  if (!by) {
    const row = await query.executeTakeFirst();
    return [{ key: '', ...visitShape(row ?? { visits: 0, visitors: 0, views: 0, bounces: 0 }) }];
  }
  const rows = await query
    .select(sql.ref<string>(by).as('key'))
    .groupBy(by)
    .orderBy(by === 'day' ? sql`key` : sql`sum(visits) desc, sum(visitors) desc, key`)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ key: String(r.key), ...visitShape(r) }));
}

/** What conversions are grouped by (a column of job_application and contact_message). */
export type SourceColumn = 'landing_page' | 'referrer_host' | 'utm_campaign';

/**
 * Applications and contact messages received from `fromAt` to before `toAt` (ISO 8601), counted by
 * a source column (null: unknown), with the filters on the source columns.
 */
export async function conversionsBy(
  db: Db,
  fromAt: string,
  toAt: string,
  where: Partial<Record<SourceColumn, string>>,
  by: SourceColumn,
): Promise<{ key: string | null; applications: number; messages: number }[]> {
  const counted = async (table: 'job_application' | 'contact_message') => {
    let query = db
      .selectFrom(table)
      .select([sql.ref<string | null>(by).as('key'), sql<number>`count(*)`.as('n')])
      .where('created_at', '>=', fromAt)
      .where('created_at', '<', toAt);
    for (const [col, value] of Object.entries(where)) query = query.where(col as SourceColumn, '=', value);
    return query.groupBy(by).execute();
  };
  const [applications, messages] = await Promise.all([
    counted('job_application'),
    counted('contact_message'),
  ]);
  const rows = new Map<string | null, { key: string | null; applications: number; messages: number }>();
  const row = (key: string | null) => {
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { key, applications: 0, messages: 0 }));
    return r;
  };
  for (const a of applications) row(a.key).applications += n(a.n);
  for (const m of messages) row(m.key).messages += n(m.n);
  return [...rows.values()];
}

/** Applications received in the range per opening (its title as it was when they came). */
export async function applicationsPerOpening(
  db: Db,
  fromAt: string,
  toAt: string,
  where: Partial<Record<SourceColumn, string>>,
): Promise<{ job_id: number | null; job_title: string; applications: number }[]> {
  let query = db
    .selectFrom('job_application')
    .select(['job_id', sql<string | null>`max(job_title)`.as('job_title'), sql<number>`count(*)`.as('n')])
    .where('created_at', '>=', fromAt)
    .where('created_at', '<', toAt);
  for (const [col, value] of Object.entries(where)) query = query.where(col as SourceColumn, '=', value);
  const rows = await query
    .groupBy('job_id')
    .orderBy(sql`count(*) desc`)
    .limit(100)
    .execute();
  return rows.map((r) => ({
    job_id: r.job_id === null ? null : Number(r.job_id),
    job_title: r.job_title ?? '',
    applications: n(r.n),
  }));
}
