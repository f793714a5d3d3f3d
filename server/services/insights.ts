import { createHash, randomBytes } from 'node:crypto';
import {
  addDays,
  cleanHost,
  cleanPath,
  cleanTag,
  isPrivatePath,
  publicLanding,
  visitSource,
  INSIGHT_FILTERS,
  INSIGHTS_MAX_DAYS,
  INSIGHTS_TOP,
  rangeOf,
  previousPeriod,
  type ConversionRow,
  type InsightFilters,
  type InsightRow,
  type InsightsAnswer,
  type InsightsQuery,
  type InsightTable,
  type InsightTotals,
  type ViewBeacon,
} from '../../contract/insights';
import * as figures from '../db/analytics.repo';
import { renamedPostPaths } from '../db/blog.repo';
import { finishLease, PROCESS_HOLDER, releaseLease, takeLease, taskState } from '../db/scheduled-task.repo';
import { HttpError } from '../http-error';
import { csvLine } from '../lib/csv';
import type { ServiceContext } from './context';

/**
 * Visit figures (docs/decisions/028-visit-figures.md). A page view becomes a row with
 * nothing that identifies a person: the visitor is a hash of the day's secret, the site, the
 * address and the user agent (the method Plausible documents), and the secret is deleted once its
 * day has ended, so the same person is a stranger the next day. Views wait in memory and are
 * written in batches (`createViewCounter`); one process rolls them up into daily figures under a
 * lease (`runInsightsRollup`) and drops the views after ANALYTICS_RAW_DAYS. The Insights screen
 * reads the daily figures and the sources kept with applications and contact messages.
 */

export const ROLLUP_TASK = 'insights-rollup';
/** The scheduled rollup runs at most this often; the Insights screen asks for one a minute old. */
export const ROLLUP_EVERY_MS = 5 * 60_000;
/** The screen asks for a rollup when views came since the last one, at most this often. */
export const ROLLUP_FRESH_MS = 2000;
const ROLLUP_LEASE_MS = 10 * 60_000;

/** What the route knows of the request, besides the beacon's body. */
export interface ViewClient {
  ip: string;
  userAgent: string;
  /** The site's own host (a referrer from it is no referrer). */
  host: string;
}

export type CountryOfIp = (ip: string) => Promise<{ code: string } | null>;

/** 'desktop', 'mobile' or 'tablet', from the user agent. */
export function deviceOf(userAgent: string): 'desktop' | 'mobile' | 'tablet' {
  if (/iPad|Tablet|PlayBook|Silk|Kindle|Android(?!.*Mobi)/i.test(userAgent)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Opera Mini|IEMobile|BlackBerry/i.test(userAgent)) return 'mobile';
  return 'desktop';
}

/** The visitor of a day: 32 hex digits of SHA-256 over the secret, the site, the address and the agent. */
export const visitorHash = (secret: string, site: string, ip: string, userAgent: string) =>
  createHash('sha256').update(`${secret}\n${site}\n${ip}\n${userAgent}`).digest('hex').slice(0, 32);

/** Views wait in memory until there are this many, or for FLUSH_MS. */
export const FLUSH_AT = 500;
export const FLUSH_MS = 1000;
/** Past this many waiting views (the database is down or slow), new ones are not counted. */
export const BUFFER_MAX = 50_000;

export interface ViewCounter {
  /** Counts a view (answers false when it was not: not a page of the site, or the buffer is full). */
  count(beacon: ViewBeacon, client: ViewClient): Promise<boolean>;
  /** Writes what waits now and stops the timer (the server closes). */
  close(): Promise<void>;
}

/**
 * The page views of this process: each is made into a row at once (its day, its visitor hash, its
 * country) and written with others in one transaction every second or every FLUSH_AT views.
 */
export function createViewCounter(ctx: ServiceContext, countryOfIp: CountryOfIp): ViewCounter {
  let rows: figures.ViewRow[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const secrets = new Map<string, Promise<string>>();
  const site = ctx.config.PUBLIC_URL ? new URL(ctx.config.PUBLIC_URL).host : 'manna';

  const secretOf = (day: string) => {
    let secret = secrets.get(day);
    if (!secret) {
      secrets.clear(); // yesterday's is never needed again
      secret = figures.daySecret(ctx.db, day, () => randomBytes(32).toString('hex'));
      secret.catch(() => secrets.delete(day));
      secrets.set(day, secret);
    }
    return secret;
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = rows;
    rows = [];
    writing = writing.then(() =>
      figures.insertViews(ctx.db, batch).catch((err: unknown) => {
        ctx.log.error({ err, views: batch.length }, 'Page views could not be written; they are not counted');
      }),
    );
    return writing;
  };

  return {
    async count(beacon, client) {
      const path = cleanPath(beacon.path);
      if (!path || isPrivatePath(path) || rows.length >= BUFFER_MAX) return false;
      const now = ctx.now();
      const day = now.toISOString().slice(0, 10);
      const [secret, country] = await Promise.all([secretOf(day), countryOfIp(client.ip).catch(() => null)]);
      const referrer = cleanHost(beacon.referrer_host);
      const own = cleanHost(client.host);
      rows.push({
        day,
        visitor: visitorHash(secret, site, client.ip, client.userAgent),
        path,
        // a visit that came in on a private address (a share preview) is counted from this page
        landing: publicLanding(beacon.landing_page) || path,
        // the source: what the link named (utm_source), else the site it came from
        referrer_host: visitSource(cleanTag(beacon.utm_source), referrer === own ? '' : referrer),
        utm_source: cleanTag(beacon.utm_source),
        utm_medium: cleanTag(beacon.utm_medium),
        utm_campaign: cleanTag(beacon.utm_campaign),
        country: country?.code ?? '',
        device: deviceOf(client.userAgent),
        language: beacon.lang ?? '',
      });
      if (rows.length >= FLUSH_AT) void flush();
      else timer ??= setTimeout(() => void flush(), FLUSH_MS).unref();
      return true;
    },
    close: flush,
  };
}

/**
 * Brings the daily figures up to date from the page views: every day since the last run (and the
 * day before it, which may have had views after that run), under the lease `insights-rollup`, at
 * most once in `everyMs`. Then deletes the secrets of the days that have ended and the views
 * older than ANALYTICS_RAW_DAYS. Answers whether it ran.
 */
export async function runInsightsRollup(
  ctx: ServiceContext,
  o: { everyMs?: number; holder?: string } = {},
): Promise<boolean> {
  const holder = o.holder ?? PROCESS_HOLDER;
  const now = ctx.now();
  const taken = await takeLease(ctx.db, ROLLUP_TASK, {
    holder,
    now,
    leaseMs: ROLLUP_LEASE_MS,
    everyMs: o.everyMs ?? ROLLUP_EVERY_MS,
  });
  if (!taken) return false;
  try {
    const today = now.toISOString().slice(0, 10);
    const lastRun = (await taskState(ctx.db, ROLLUP_TASK))?.last_run_at;
    const first = await figures.firstViewDay(ctx.db);
    let from = lastRun ? addDays(lastRun.slice(0, 10), -1) : (first ?? today);
    if (first && first > from) from = first;
    if (from > today) from = today;
    const keepFrom = addDays(today, -ctx.config.ANALYTICS_RAW_DAYS);
    if (from < keepFrom) from = keepFrom;
    // the newest view before the rollup: a later one makes the figures stale (`insights`)
    const through = await figures.lastViewId(ctx.db);
    await figures.rollUpDays(ctx.db, from, today);
    const secrets = await figures.deleteSecretsBefore(ctx.db, today);
    const views = await figures.deleteViewsBefore(ctx.db, keepFrom);
    await finishLease(
      ctx.db,
      ROLLUP_TASK,
      holder,
      now,
      `through view ${through}; days ${from}..${today}, secrets deleted ${secrets}, views deleted ${views}`,
    );
    return true;
  } catch (err) {
    ctx.log.error({ err }, 'Rolling up the visit figures failed; it is tried again at the next check');
    await releaseLease(ctx.db, ROLLUP_TASK, holder, `failed: ${String(err)}`).catch(() => {});
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The Insights screen
// ---------------------------------------------------------------------------------------------

/** The figures' columns of each filter (the page is `path` of a page and `landing` of a visit). */
const FILTER_COLUMN = {
  referrer: 'referrer_host',
  campaign: 'utm_campaign',
  country: 'country',
  device: 'device',
  language: 'language',
} as const;

function whereOf(filters: InsightFilters): figures.FigureWhere {
  const where: figures.FigureWhere = {};
  for (const [name, column] of Object.entries(FILTER_COLUMN)) {
    const value = filters[name as keyof typeof FILTER_COLUMN];
    if (value !== undefined) where[column] = value;
  }
  if (filters.page !== undefined) {
    where.path = filters.page;
    where.landing = filters.page;
  }
  return where;
}

/** The filters that conversions can take (they keep their source, not a country or a device). */
function conversionWhere(filters: InsightFilters): Partial<Record<figures.SourceColumn, string>> {
  return {
    ...(filters.page !== undefined ? { landing_page: filters.page } : {}),
    ...(filters.referrer !== undefined ? { referrer_host: filters.referrer } : {}),
    ...(filters.campaign !== undefined ? { utm_campaign: filters.campaign } : {}),
  };
}

const filtersOf = (q: InsightsQuery): InsightFilters => {
  const filters: InsightFilters = {};
  for (const name of INSIGHT_FILTERS) {
    if (q[name] !== undefined) filters[name] = q[name];
  }
  return filters;
};

/** The view the last rollup went up to, from its summary ('through view 123; ...'). */
const rolledThrough = (result: string | null | undefined) =>
  Number(/^through view (\d+)/.exec(result ?? '')?.[1] ?? -1);

/** Rolls up again when views were written after the last rollup (at most every ROLLUP_FRESH_MS). */
async function rollUpIfStale(ctx: ServiceContext): Promise<void> {
  const [state, latest] = await Promise.all([taskState(ctx.db, ROLLUP_TASK), figures.lastViewId(ctx.db)]);
  if (latest > rolledThrough(state?.last_result) || !state?.last_run_at)
    await runInsightsRollup(ctx, { everyMs: ROLLUP_FRESH_MS });
}

/**
 * How the answer reads its figures: without a filter from the one-dimension sums (a few rows a
 * day), with filters from the combinations they narrow.
 */
function readerOf(ctx: ServiceContext, from: string, to: string, filters: InsightFilters) {
  const range = { from, to, where: whereOf(filters) };
  const plain = Object.keys(filters).length === 0;
  return {
    /** Visits grouped by a column (or day), or one row of everything. */
    visits: (by?: figures.Dimension | 'landing' | 'day', limit = 1000) =>
      plain
        ? figures.dimFigures(
            ctx.db,
            range,
            by === undefined || by === 'day' ? 'total' : by,
            by === 'day' ? 'day' : by && 'key',
            limit,
          )
        : figures.visitFigures(ctx.db, range, by, limit),
    /** Page views and visitors grouped by page (or day), or one row of everything. */
    pages: async (
      by?: 'path' | 'day' | figures.Dimension,
      limit = 1000,
    ): Promise<{ key: string; views: number; visitors: number }[]> =>
      plain && by === 'path'
        ? figures.dimFigures(ctx.db, range, 'path', 'key', limit)
        : figures.pageFigures(ctx.db, range, by, limit),
  };
}

/**
 * Visitors, visits, views and bounces of a range. With a page filter, visitors and views are the
 * page's own, and visits and bounces those that came in on it.
 */
async function totalsOf(
  ctx: ServiceContext,
  from: string,
  to: string,
  filters: InsightFilters,
): Promise<InsightTotals> {
  const read = readerOf(ctx, from, to, filters);
  const [visits] = await read.visits();
  if (filters.page === undefined)
    return { visitors: visits.visitors, visits: visits.visits, views: visits.views, bounces: visits.bounces };
  const [page] = await read.pages();
  return { visitors: page.visitors, views: page.views, visits: visits.visits, bounces: visits.bounces };
}

/** Rows whose keys `same` maps to one key, summed into one row (a renamed post's addresses). */
function mergeByKey<T extends { key: string }>(
  rows: readonly T[],
  same: ReadonlyMap<string, string>,
  fields: readonly (keyof T)[],
): T[] {
  const merged = new Map<string, T>();
  for (const row of rows) {
    const key = same.get(row.key) ?? row.key;
    const into = merged.get(key);
    if (!into) merged.set(key, { ...row, key });
    else for (const f of fields) (into[f] as number) += row[f] as number;
  }
  return [...merged.values()];
}

/** Most visitors first, then most views, then by key (as the figures' own queries order them). */
const byVisitors = (
  a: { key: string; visitors: number; views: number },
  b: { key: string; visitors: number; views: number },
) => b.visitors - a.visitors || b.views - a.views || (a.key < b.key ? -1 : 1);

/** Rows of visits by a key, with the applications and messages of the same key. */
function withConversions(
  visits: readonly { key: string; visits: number }[],
  counted: { key: string | null; applications: number; messages: number }[],
  keep: (key: string) => boolean = () => true,
): ConversionRow[] {
  const rows = new Map<string, ConversionRow>();
  for (const v of visits)
    if (keep(v.key)) rows.set(v.key, { key: v.key, visits: v.visits, applications: 0, messages: 0 });
  for (const c of counted) {
    const key = c.key ?? '';
    if (!keep(key)) continue;
    const row = rows.get(key) ?? { key, visits: 0, applications: 0, messages: 0 };
    row.applications += c.applications;
    row.messages += c.messages;
    rows.set(key, row);
  }
  return [...rows.values()];
}

const byConversions = (a: ConversionRow, b: ConversionRow) =>
  b.applications + b.messages - (a.applications + a.messages) ||
  b.visits - a.visits ||
  (a.key < b.key ? -1 : 1);

/** The whole answer of the Insights screen. */
export async function insights(ctx: ServiceContext, query: InsightsQuery): Promise<InsightsAnswer> {
  const range = rangeOf(query, ctx.now().toISOString().slice(0, 10));
  if (!range)
    throw new HttpError(400, `Choose from and to in order, at most ${INSIGHTS_MAX_DAYS} days apart.`);
  const q = { ...query, ...range };
  await rollUpIfStale(ctx);
  const filters = filtersOf(q);
  const read = readerOf(ctx, q.from, q.to, filters);
  const previous = previousPeriod(q.from, q.to);
  const byPage = filters.page !== undefined;
  const top = (rows: { key: string; visitors: number; views: number }[]): InsightRow[] =>
    rows.slice(0, INSIGHTS_TOP).map(({ key, visitors, views }) => ({ key, visitors, views }));
  // the "top" tables: a page's own views when a page is chosen, else the visits
  const dimension = (by: figures.Dimension) =>
    byPage ? read.pages(by, INSIGHTS_TOP) : read.visits(by, INSIGHTS_TOP);
  const { fromAt, toAt } = instants(q.from, q.to);
  const cWhere = conversionWhere(filters);
  const [
    totals,
    previousTotals,
    dayVisits,
    dayPages,
    pages,
    landings,
    referrers,
    campaigns,
    countries,
    devices,
    languages,
  ] = await Promise.all([
    totalsOf(ctx, q.from, q.to, filters),
    totalsOf(ctx, previous.from, previous.to, filters),
    read.visits('day'),
    byPage ? read.pages('day') : Promise.resolve([]),
    read.pages('path', 5000),
    read.visits('landing', 5000),
    read.visits('referrer_host', 1000),
    read.visits('utm_campaign', 1000),
    dimension('country'),
    dimension('device'),
    dimension('language'),
  ]);
  const [byLanding, byReferrer, byCampaign, openings] = await Promise.all([
    figures.conversionsBy(ctx.db, fromAt, toAt, cWhere, 'landing_page'),
    figures.conversionsBy(ctx.db, fromAt, toAt, cWhere, 'referrer_host'),
    figures.conversionsBy(ctx.db, fromAt, toAt, cWhere, 'utm_campaign'),
    figures.applicationsPerOpening(ctx.db, fromAt, toAt, cWhere),
  ]);
  // a renamed post's old addresses count as the post's address now: one row per post
  const renamed = await renamedPostPaths(ctx.db);
  const pageRows = mergeByKey(pages, renamed, ['views', 'visitors']).sort(byVisitors);
  const landingRows = mergeByKey(landings, renamed, ['visits', 'bounces', 'visitors', 'views']).sort(
    (a, b) => b.visits - a.visits || b.visitors - a.visitors || (a.key < b.key ? -1 : 1),
  );
  const landingConversions = mergeByKey(
    byLanding.map((c) => ({ ...c, key: c.key ?? '' })),
    renamed,
    ['applications', 'messages'],
  );
  const pageDays = new Map(dayPages.map((d) => [d.key, d]));
  const visitDays = new Map(dayVisits.map((d) => [d.key, d]));
  const days = [];
  for (let day = q.from; day <= q.to; day = addDays(day, 1)) {
    const v = visitDays.get(day);
    const p = pageDays.get(day);
    days.push({
      day,
      visitors: byPage ? (p?.visitors ?? 0) : (v?.visitors ?? 0),
      visits: v?.visits ?? 0,
      views: byPage ? (p?.views ?? 0) : (v?.views ?? 0),
    });
  }
  const state = await taskState(ctx.db, ROLLUP_TASK);
  return {
    from: q.from,
    to: q.to,
    previous,
    updated_at: state?.last_run_at ?? null,
    totals,
    previous_totals: previousTotals,
    days,
    pages: top(pageRows),
    landings: landingRows
      .slice(0, INSIGHTS_TOP)
      .map(({ key, visits, bounces }) => ({ key, visits, bounces })),
    referrers: byPage ? top(await read.pages('referrer_host', INSIGHTS_TOP)) : top(referrers),
    campaigns: (byPage
      ? top(await read.pages('utm_campaign', INSIGHTS_TOP + 1))
      : top(campaigns.filter((r) => r.key !== ''))
    )
      .filter((r) => r.key !== '')
      .slice(0, INSIGHTS_TOP),
    countries: top(countries),
    devices: top(devices),
    languages: top(languages),
    conversions: {
      applications: byLanding.reduce((sum, r) => sum + r.applications, 0),
      messages: byLanding.reduce((sum, r) => sum + r.messages, 0),
      by_landing: withConversions(landingRows, landingConversions).sort(byConversions).slice(0, INSIGHTS_TOP),
      by_referrer: withConversions(referrers, byReferrer).sort(byConversions).slice(0, INSIGHTS_TOP),
      by_campaign: withConversions(campaigns, byCampaign, (key) => key !== '')
        .sort(byConversions)
        .slice(0, INSIGHTS_TOP),
      openings,
      // blog posts: every visit that read one (wherever it came in), and what the visits that came
      // in on it led to
      posts: withConversions(
        pageRows.map((p) => ({ key: p.key, visits: p.visitors })),
        landingConversions,
        isPostPath,
      )
        .sort((a, b) => b.visits - a.visits || b.applications + b.messages - (a.applications + a.messages))
        .slice(0, INSIGHTS_TOP),
    },
  };
}

/** An ISO 8601 instant range of whole UTC days. */
const instants = (from: string, to: string) => ({
  fromAt: `${from}T00:00:00.000Z`,
  toAt: `${addDays(to, 1)}T00:00:00.000Z`,
});

/** A blog post's own address (not the list, a tag page or a page of the list). */
export const isPostPath = (path: string) => /^\/blog\/(?!tag\/|page\/)[^/]+$/.test(path);

/** The columns and rows of one table of the answer, for its CSV file. */
export function insightsCsv(answer: InsightsAnswer, table: InsightTable): string {
  const c = answer.conversions;
  const conv = (key: string, rows: ConversionRow[]) => [
    [key, 'visits', 'applications', 'messages'],
    ...rows.map((r) => [r.key, r.visits, r.applications, r.messages]),
  ];
  const top = (key: string, rows: InsightRow[]) => [
    [key, 'visitors', 'views'],
    ...rows.map((r) => [r.key, r.visitors, r.views]),
  ];
  const lines: (string | number | null)[][] = (() => {
    switch (table) {
      case 'pages':
        return top('page', answer.pages);
      case 'landings':
        return [
          ['landing page', 'visits', 'bounces'],
          ...answer.landings.map((r) => [r.key, r.visits, r.bounces]),
        ];
      case 'referrers':
        return top('referrer', answer.referrers);
      case 'campaigns':
        return top('campaign', answer.campaigns);
      case 'countries':
        return top('country', answer.countries);
      case 'devices':
        return top('device', answer.devices);
      case 'languages':
        return top('language', answer.languages);
      case 'conversions_by_landing':
        return conv('landing page', c.by_landing);
      case 'conversions_by_referrer':
        return conv('referrer', c.by_referrer);
      case 'conversions_by_campaign':
        return conv('campaign', c.by_campaign);
      case 'openings':
        return [
          ['job id', 'job title', 'applications'],
          ...c.openings.map((r) => [r.job_id, r.job_title, r.applications]),
        ];
      case 'posts':
        return conv('post', c.posts);
    }
  })();
  return lines.map((cells) => csvLine(cells)).join('');
}
