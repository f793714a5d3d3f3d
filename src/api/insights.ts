import { fetchJson, toQuery } from './client';
import { InsightsAnswer, type InsightFilters, type InsightTable } from '../../contract/insights';

/** The Insights screen's question: a range of UTC days and the filters. */
export interface InsightsRequest {
  from: string;
  to: string;
  filters: InsightFilters;
}

const queryOf = (q: InsightsRequest) => toQuery({ from: q.from, to: q.to, ...q.filters });

/** GET /api/admin/insights (insights.read). */
export const fetchInsights = (q: InsightsRequest): Promise<InsightsAnswer> =>
  fetchJson(InsightsAnswer, `/api/admin/insights?${queryOf(q)}`, { cache: 'no-store' });

/** The address of one table of the same question as a CSV file (a link the browser downloads). */
export const insightsCsvUrl = (q: InsightsRequest, table: InsightTable): string =>
  `/api/admin/insights.csv?${queryOf(q)}&${toQuery({ table })}`;
