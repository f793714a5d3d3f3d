import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { InsightsAnswer, InsightsCsvQuery, InsightsQuery } from '../../contract/insights';
import { insights, insightsCsv } from '../services/insights';

/**
 * The Insights screen (insights.read, docs/decisions/028-visit-figures.md):
 * - GET /api/admin/insights?[from&to&page&referrer&campaign&country&device&language] (the last
 *   30 days to today by default): visitors,
 *   visits, views and bounces with the previous period, per day, the top tables and the
 *   conversions (applications and contact messages by landing page, referrer, campaign, opening
 *   and blog post). The daily figures are brought up to date first when a minute old.
 * - GET /api/admin/insights.csv?…&table=: one of those tables as a CSV file.
 */
const adminInsights: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/insights',
    {
      config: { permission: 'insights.read' },
      schema: { querystring: InsightsQuery, response: { 200: InsightsAnswer } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return insights(app.services(request), request.query);
    },
  );

  app.get(
    '/admin/insights.csv',
    { config: { permission: 'insights.read' }, schema: { querystring: InsightsCsvQuery } },
    async (request, reply) => {
      const { table, ...query } = request.query;
      const answer = await insights(app.services(request), query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="insights-${table}-${query.from}-${query.to}.csv"`,
        )
        .header('cache-control', 'no-store')
        .send(insightsCsv(answer, table));
    },
  );
};

export default adminInsights;
