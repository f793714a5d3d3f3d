import { fromPromise } from 'xstate';
import { fetchInsights } from '../../../api/insights';
import { insightsMachine } from '../../../machines/insights.machine';
import { keepInsights, keptInsights } from '../../../offline/kept-insights';

/**
 * The Insights screen's machine with its live effects: the figures from the server, kept on this
 * device per user and question, and the kept ones when the server cannot be reached.
 */
export const insightsLive = (userId: number) =>
  insightsMachine.provide({
    actors: {
      loadInsights: fromPromise(({ input }) => fetchInsights(input)),
      readKept: fromPromise(({ input }) => keptInsights(userId, input).catch(() => null)),
    },
    actions: {
      keepAnswer: (_, { question, answer }) =>
        void keepInsights(userId, question, answer).catch((err: unknown) =>
          console.warn('The figures could not be kept on this device:', err),
        ),
    },
  });

/** Today as a UTC day: the figures' days are UTC days. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);
