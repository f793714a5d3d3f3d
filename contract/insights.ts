import { z } from 'zod/mini';
import { isIsoDay } from './admin-applications';
import { LANG_CODES } from './languages';

/**
 * Visit figures (docs/decisions/028-visit-figures.md): the page-view beacon, where a
 * form was sent from (its visit's landing page, referrer and campaign), and the Insights screen's
 * question and answer. The cleaning functions are shared: the browser cleans what it sends, the
 * server cleans again what it keeps.
 */

export const VIEW_PATH_MAX = 300;
export const HOST_MAX = 253;
export const CAMPAIGN_TEXT_MAX = 100;
/** The beacon's body is refused above this (a path, a landing page, a referrer and three tags). */
export const VIEW_BODY_LIMIT = 4096;

/** An address of the site as it is kept: its path only (no query, no fragment), '' when not one. */
export function cleanPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return '';
  const path = value.split(/[?#]/)[0].replace(/\/+$/, '') || '/';
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (path.length > VIEW_PATH_MAX || /[\s\u0000-\u001f\u007f]/.test(path)) return '';
  return path;
}

/** The host of a referrer (an address or a bare host), lower case without `www.`, '' when none. */
export function cleanHost(value: unknown): string {
  if (typeof value !== 'string' || !value || value.length > 2000) return '';
  let host: string;
  try {
    host = new URL(value.includes('://') ? value : `https://${value}`).hostname.toLowerCase();
  } catch {
    return '';
  }
  host = host.replace(/^www\./, '').replace(/\.$/, '');
  return host.length <= HOST_MAX && /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(host) ? host : '';
}

/** A campaign tag (utm_source, utm_medium, utm_campaign): trimmed, lower case, printable, short. */
export function cleanTag(value: unknown): string {
  if (typeof value !== 'string') return '';
  return (
    value
      .normalize('NFC')
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .trim()
      .toLowerCase()
      .slice(0, CAMPAIGN_TEXT_MAX)
  );
}

const text = (max: number) => z.optional(z.string().check(z.maxLength(max)));

/** POST /api/views: one page view, sent by navigator.sendBeacon once the page is shown. */
export const ViewBeacon = z.object({
  path: z.string().check(z.maxLength(2000)),
  /** The visit's first page in this tab. */
  landing_page: text(2000),
  /** The host the visit came from (of document.referrer at its first page). */
  referrer_host: text(2000),
  utm_source: text(500),
  utm_medium: text(500),
  utm_campaign: text(500),
  lang: z.optional(z.enum(LANG_CODES)),
});
export type ViewBeacon = z.infer<typeof ViewBeacon>;

/**
 * Where a form was sent from: its visit's landing page, referrer's host and campaign, as the
 * browser kept them for the visit (sessionStorage). Sent with an application or a contact message.
 */
export const SOURCE_FIELDS = [
  'landing_page',
  'referrer_host',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const;
export type SourceField = (typeof SOURCE_FIELDS)[number];
export type VisitSource = Partial<Record<SourceField, string>>;

/**
 * Addresses never counted, as a page or as a landing page: the back office, the API, files, and a
 * post's share preview (its address is a secret: the token in it would be listed for staff).
 */
export const isPrivatePath = (path: string) => /^\/(admin|api|media)(\/|$)|^\/blog\/preview(\/|$)/.test(path);

/** A landing page as it is kept: cleaned, and '' for a private address (never counted). */
export const publicLanding = (value: unknown) => {
  const path = cleanPath(value);
  return isPrivatePath(path) ? '' : path;
};

/** The source as it is kept: each field cleaned, null when empty. */
export function cleanSource(
  input: Partial<Record<SourceField, unknown>>,
): Record<SourceField, string | null> {
  const or = (v: string) => v || null;
  return {
    landing_page: or(publicLanding(input.landing_page)),
    // the visit's source: what its link named (utm_source), else the site it came from
    referrer_host: or(visitSource(cleanTag(input.utm_source), cleanHost(input.referrer_host))),
    utm_source: or(cleanTag(input.utm_source)),
    utm_medium: or(cleanTag(input.utm_medium)),
    utm_campaign: or(cleanTag(input.utm_campaign)),
  };
}

// ---------------------------------------------------------------------------------------------
// The Insights screen
// ---------------------------------------------------------------------------------------------

/** What a row of figures can be filtered by (one value each). */
export const INSIGHT_FILTERS = ['page', 'referrer', 'campaign', 'country', 'device', 'language'] as const;
export type InsightFilter = (typeof INSIGHT_FILTERS)[number];
export type InsightFilters = Partial<Record<InsightFilter, string>>;

/** The longest range the screen asks for at once. */
export const INSIGHTS_MAX_DAYS = 731;
/** How many rows each table lists. */
export const INSIGHTS_TOP = 20;
/** The tables the screen shows, each exportable as CSV. */
export const INSIGHT_TABLES = [
  'pages',
  'landings',
  'referrers',
  'campaigns',
  'countries',
  'devices',
  'languages',
  'conversions_by_landing',
  'conversions_by_referrer',
  'conversions_by_campaign',
  'openings',
  'posts',
] as const;
export type InsightTable = (typeof INSIGHT_TABLES)[number];

const day = z.string().check(z.refine(isIsoDay, 'Expected a day as YYYY-MM-DD'));
const filterValue = z.optional(z.string().check(z.maxLength(VIEW_PATH_MAX)));

/** The query's fields: from and to (inclusive, UTC days), and the filters. */
const QUERY_SHAPE = {
  /** Default: 29 days before `to`. */
  from: z.optional(day),
  /** Default: today (UTC). */
  to: z.optional(day),
  page: filterValue,
  referrer: filterValue,
  campaign: filterValue,
  country: filterValue,
  device: filterValue,
  language: filterValue,
};
/** The range's rules: in order, at most INSIGHTS_MAX_DAYS long. */
const inOrder = z.refine<{ from?: string; to?: string }>((q) => !q.from || !q.to || q.from <= q.to, {
  message: 'from must not be after to',
  path: ['from'],
});
const notTooLong = z.refine<{ from?: string; to?: string }>(
  (q) => !q.from || !q.to || daysBetween(q.from, q.to) < INSIGHTS_MAX_DAYS,
  {
    message: `A range of at most ${INSIGHTS_MAX_DAYS} days`,
    path: ['from'],
  },
);

/** GET /api/admin/insights. */
export const InsightsQuery = z.object(QUERY_SHAPE).check(inOrder, notTooLong);
export type InsightsQuery = z.infer<typeof InsightsQuery>;

/** GET /api/admin/insights.csv: one table of the same question. */
export const InsightsCsvQuery = z
  .object({ ...QUERY_SHAPE, table: z._default(z.enum(INSIGHT_TABLES), 'pages') })
  .check(inOrder, notTooLong);

const count = z.number().check(z.int(), z.minimum(0));

export const InsightTotals = z.object({ visitors: count, visits: count, views: count, bounces: count });
export type InsightTotals = z.infer<typeof InsightTotals>;

/** A row of a "top" table: the value (a path, a host, a country code ...) and its figures. */
export const InsightRow = z.object({ key: z.string(), visitors: count, views: count });
export type InsightRow = z.infer<typeof InsightRow>;

/** Visits that came in on a page (or from a referrer, a campaign), and what they led to. */
export const ConversionRow = z.object({
  key: z.string(),
  visits: count,
  applications: count,
  messages: count,
});
export type ConversionRow = z.infer<typeof ConversionRow>;

export const OpeningConversions = z.object({
  job_id: z.nullable(count),
  job_title: z.string(),
  applications: count,
});

export const InsightsAnswer = z.object({
  from: z.string(),
  to: z.string(),
  /** The period of the same length just before. */
  previous: z.object({ from: z.string(), to: z.string() }),
  /** When the daily figures were last brought up to date (ISO 8601). */
  updated_at: z.nullable(z.string()),
  totals: InsightTotals,
  previous_totals: InsightTotals,
  days: z.array(z.object({ day: z.string(), visitors: count, visits: count, views: count })),
  pages: z.array(InsightRow),
  landings: z.array(z.object({ key: z.string(), visits: count, bounces: count })),
  referrers: z.array(InsightRow),
  campaigns: z.array(InsightRow),
  countries: z.array(InsightRow),
  devices: z.array(InsightRow),
  languages: z.array(InsightRow),
  conversions: z.object({
    applications: count,
    messages: count,
    by_landing: z.array(ConversionRow),
    by_referrer: z.array(ConversionRow),
    by_campaign: z.array(ConversionRow),
    openings: z.array(OpeningConversions),
    posts: z.array(ConversionRow),
  }),
});
export type InsightsAnswer = z.infer<typeof InsightsAnswer>;

/**
 * The range a query asks for, its missing ends filled: `to` today, `from` 29 days before `to` (a
 * month); null when the range is not one the screen takes (out of order, longer than
 * INSIGHTS_MAX_DAYS).
 */
export function rangeOf(
  q: { from?: string; to?: string },
  today: string,
): { from: string; to: string } | null {
  const to = q.to ?? (q.from && q.from > today ? q.from : today);
  const from = q.from ?? addDays(to, -29);
  return from <= to && daysBetween(from, to) < INSIGHTS_MAX_DAYS ? { from, to } : null;
}

/** Days from `from` to `to` (0 for the same day). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The UTC day `n` days after `day` (before, for a negative `n`). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The period of the same length that ends the day before `from`. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const length = daysBetween(from, to) + 1;
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** Visits that left after one page, as a whole percentage (0 without visits). */
export const bounceRate = (t: Pick<InsightTotals, 'visits' | 'bounces'>) =>
  t.visits === 0 ? 0 : Math.round((100 * t.bounces) / t.visits);

/**
 * The share of visits that converted, in percent with one decimal (0 without visits): each visit
 * counts once however many forms it sent, so the converting visits are at most the conversions and
 * at most the visits, and the rate never exceeds 100 (a visit that sent three forms, or forms from
 * visitors not counted, Do Not Track, do not push it past).
 */
export const conversionRate = (conversions: number, visits: number) =>
  visits === 0 ? 0 : Math.round((1000 * Math.min(conversions, visits)) / visits) / 10;

/**
 * Where a visit came from (docs/decisions/028-visit-figures.md): the `utm_source` its link named,
 * else the host of the site it came from; '' for none (typed in, a bookmark, this site itself).
 */
export const visitSource = (utmSource: string, referrerHost: string) => utmSource || referrerHost;
