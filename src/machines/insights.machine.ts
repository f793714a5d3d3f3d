import { assign, fromPromise, setup } from 'xstate';
import {
  addDays,
  daysBetween,
  INSIGHTS_MAX_DAYS,
  type InsightFilter,
  type InsightFilters,
  type InsightsAnswer,
} from '../../contract/insights';

/**
 * The Insights screen (docs/decisions/028-visit-figures.md): the figures of a range (the last 7,
 * 30 or 90 days up to today, or two chosen days) with filters (a page, a referrer, a campaign, a
 * country, a device, a language: clicking a row of a table sets one). Each change loads again and
 * keeps showing the last figures meanwhile. A good answer is kept on the device (`keepAnswer`); when
 * loading fails (offline, in the installed back office) the last kept answer of the same question
 * is shown with its date (`readKept`), else the failure with Retry.
 *
 * Effects the screen provides: `loadInsights`, `readKept` (actors), `keepAnswer` (action).
 */

export type RangePreset = 7 | 30 | 90 | 'custom';

export interface InsightsQuestion {
  from: string;
  to: string;
  filters: InsightFilters;
}

export interface InsightsContext extends InsightsQuestion {
  /** Today (UTC day), from the screen: the presets end on it. */
  today: string;
  preset: RangePreset;
  answer: InsightsAnswer | null;
  /** When the shown answer was kept, if it is a kept one (ISO 8601); null for a fresh one. */
  savedAt: string | null;
}

export type InsightsEvent =
  | { type: 'range.preset'; days: 7 | 30 | 90 }
  | { type: 'range.custom'; from: string; to: string }
  | { type: 'filter.set'; name: InsightFilter; value: string }
  | { type: 'filter.clear'; name: InsightFilter }
  | { type: 'filters.clear' }
  | { type: 'insights.retry' };

/** The question a context asks. */
export const questionOf = (c: InsightsQuestion): InsightsQuestion => ({
  from: c.from,
  to: c.to,
  filters: c.filters,
});

/** A range the server takes: real days, in order, at most INSIGHTS_MAX_DAYS long. */
export const isRange = (from: string, to: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(from) &&
  /^\d{4}-\d{2}-\d{2}$/.test(to) &&
  from <= to &&
  daysBetween(from, to) < INSIGHTS_MAX_DAYS;

export const insightsMachine = setup({
  types: {
    context: {} as InsightsContext,
    events: {} as InsightsEvent,
    input: {} as { today: string; days?: 7 | 30 | 90 },
  },
  actors: {
    loadInsights: fromPromise<InsightsAnswer, InsightsQuestion>(async () => {
      throw new Error('loadInsights is provided by the app');
    }),
    readKept: fromPromise<{ value: InsightsAnswer; savedAt: string } | null, InsightsQuestion>(
      async () => null,
    ),
  },
  actions: {
    keepAnswer: (_, _p: { question: InsightsQuestion; answer: InsightsAnswer }) => {},
    setPreset: assign(({ context }, p: { days: 7 | 30 | 90 }) => ({
      preset: p.days,
      from: addDays(context.today, -(p.days - 1)),
      to: context.today,
    })),
    setCustom: assign((_, p: { from: string; to: string }) => ({
      preset: 'custom' as const,
      from: p.from,
      to: p.to,
    })),
    setFilter: assign(({ context }, p: { name: InsightFilter; value: string }) => ({
      filters: { ...context.filters, [p.name]: p.value },
    })),
    clearFilter: assign(({ context }, p: { name: InsightFilter }) => {
      const filters = { ...context.filters };
      delete filters[p.name];
      return { filters };
    }),
    clearFilters: assign({ filters: () => ({}) }),
    showAnswer: assign((_, p: { answer: InsightsAnswer; savedAt: string | null }) => ({
      answer: p.answer,
      savedAt: p.savedAt,
    })),
  },
  guards: {
    validRange: (_, p: { from: string; to: string }) => isRange(p.from, p.to),
    keptCopy: (_, p: { kept: unknown }) => p.kept !== null,
  },
}).createMachine({
  id: 'insights',
  context: ({ input }) => ({
    today: input.today,
    preset: input.days ?? 30,
    from: addDays(input.today, -((input.days ?? 30) - 1)),
    to: input.today,
    filters: {},
    answer: null,
    savedAt: null,
  }),
  initial: 'loading',
  on: {
    'range.preset': {
      target: '.loading',
      actions: { type: 'setPreset', params: ({ event }) => ({ days: event.days }) },
    },
    'range.custom': {
      guard: { type: 'validRange', params: ({ event }) => event },
      target: '.loading',
      actions: { type: 'setCustom', params: ({ event }) => event },
    },
    'filter.set': {
      target: '.loading',
      actions: { type: 'setFilter', params: ({ event }) => event },
    },
    'filter.clear': {
      target: '.loading',
      actions: { type: 'clearFilter', params: ({ event }) => event },
    },
    'filters.clear': { target: '.loading', actions: 'clearFilters' },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadInsights',
        src: 'loadInsights',
        input: ({ context }) => questionOf(context),
        onDone: {
          target: 'ready',
          actions: [
            { type: 'showAnswer', params: ({ event }) => ({ answer: event.output, savedAt: null }) },
            {
              type: 'keepAnswer',
              params: ({ context, event }) => ({ question: questionOf(context), answer: event.output }),
            },
          ],
        },
        onError: 'readingKept',
      },
    },
    readingKept: {
      invoke: {
        id: 'readKept',
        src: 'readKept',
        input: ({ context }) => questionOf(context),
        onDone: [
          {
            guard: { type: 'keptCopy', params: ({ event }) => ({ kept: event.output }) },
            target: 'ready',
            actions: {
              type: 'showAnswer',
              params: ({ event }) => ({ answer: event.output!.value, savedAt: event.output!.savedAt }),
            },
          },
          { target: 'failed' },
        ],
        onError: 'failed',
      },
    },
    ready: {
      on: { 'insights.retry': 'loading' },
    },
    failed: {
      on: { 'insights.retry': 'loading' },
    },
  },
});
