import type { ColumnType, Generated } from 'kysely';

/**
 * Tables of migration 2800 (visit figures, docs/decisions/028-visit-figures.md). A dimension that
 * a view did not have (no referrer, no campaign, unknown country) is '' rather than null, so the
 * daily figures group and filter on plain equality. `Database` in schema.ts extends this interface.
 */

/** What a view is described by, besides its page. */
export interface ViewDimensions {
  /** The host of the site the visit came from ('' for none, our own site, or a stripped referrer). */
  referrer_host: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  /** ISO 3166 alpha-2, '' when unknown. */
  country: string;
  /** 'desktop', 'mobile' or 'tablet'. */
  device: string;
  /** The site language the page was read in. */
  language: string;
}

/** The day's secret (UTC day), deleted once the day has ended: a visitor's hash cannot be made again. */
export interface AnalyticsSaltTable {
  day: string;
  secret: string;
}

/** One page view, as it came; deleted ANALYTICS_RAW_DAYS after its day. */
export interface AnalyticsViewTable extends ViewDimensions {
  view_id: Generated<number>;
  /** When: the day only (docs/decisions/028-visit-figures.md). */
  day: string;
  /** Hash of the day's secret, the site, the address and the user agent: the same visitor that day. */
  visitor: string;
  path: string;
  /** The first page of the visit (the page the visitor came in on). */
  landing: string;
}

/** A day's figures of one page with one set of dimensions. */
export interface AnalyticsPageDayTable extends ViewDimensions {
  day: string;
  path: string;
  views: number;
  /** Different visitors who saw the page that day with these dimensions. */
  visitors: number;
}

/** A day's visits that came in on one page with one set of dimensions. */
export interface AnalyticsVisitDayTable extends ViewDimensions {
  day: string;
  landing: string;
  visits: number;
  visitors: number;
  views: number;
  /** Visits of one page view. */
  bounces: number;
}

/**
 * A day's figures of one dimension alone (`dim`: 'total', 'path', 'landing' or a dimension's
 * column; `key`: its value, '' for 'total'), summed from the two tables above at each rollup: the
 * Insights screen without a filter reads these few rows instead of every combination.
 * A 'path' row has the page's views and visitors (visits and bounces 0).
 */
export interface AnalyticsDimDayTable {
  dim: string;
  day: string;
  key: string;
  visits: number;
  visitors: number;
  views: number;
  bounces: number;
}

export interface AnalyticsTables {
  analytics_dim_day: AnalyticsDimDayTable;
  analytics_salt: AnalyticsSaltTable;
  analytics_view: AnalyticsViewTable;
  analytics_page_day: AnalyticsPageDayTable;
  analytics_visit_day: AnalyticsVisitDayTable;
}

/** A nullable column that an insert may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/**
 * Where an application or a contact message came from (the visit it was sent in, migration 2800);
 * null when unknown (sent before, without the beacon, or by a client that tells nothing).
 */
export interface SourceColumns {
  landing_page: Optional<string>;
  referrer_host: Optional<string>;
  utm_source: Optional<string>;
  utm_medium: Optional<string>;
  utm_campaign: Optional<string>;
}

/** The source columns as a form's row keeps them. */
export type KeptSource = Record<keyof SourceColumns, string | null>;
