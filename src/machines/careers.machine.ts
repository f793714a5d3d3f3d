import { assign, fromPromise, sendTo, setup } from 'xstate';
import { JOB_PAGE_SIZE, type JobOpeningRow } from '../api/contract/jobs';
import { cleanPage } from '../api/contract/paging';
import { pageBefore, paginationChild } from './pagination.machine';

/**
 * The careers page list: loading, then the openings, or
 * 'No job openings available at the moment.' for an empty list, or 'Failed to load job openings.'
 * with Retry. The screen supplies `loadOpenings` (GET bind-job-openings) with `.provide()`.
 * Loading starts when the actor starts, which is after mount: the prerendered page shows the
 * loading state, and so does the first client render, so hydration matches.
 * Offline: a good page is kept on the device (`keepOpenings`); when the call fails, the kept copy
 * of that page is shown with the time it was saved (`showingKept`) before giving up.
 *
 * Pages: 20 openings a page (`total_count` of the rows gives the total), drawn by a child
 * `pagination` actor (the shared pagination.machine.ts, 5 page buttons). The page lives in the
 * address (`?page=N`): the screen reads it into `input.page` at start and sends `address.change`
 * on back/forward; a page chosen on the pager is written with the named action `writeAddress`.
 * A page past the end (an old address) steps back to the last page of the known total, or to page
 * 1 when no total is known yet.
 */
export type CareersEvent =
  { type: 'list.retry' } | { type: 'page.changed'; page: number } | { type: 'address.change'; page: number };

export interface CareersInput {
  /** The page of the address (1 when absent or not a page number). */
  page?: number;
  /** Openings a page (20 by default, the spec's page size). */
  pageSize?: number;
}

export interface LoadOpeningsInput {
  page: number;
  pageSize: number;
}

export interface CareersContext {
  page: number;
  pageSize: number;
  /** Openings in all pages (the rows' `total_count`). */
  total: number;
  openings: JobOpeningRow[];
  /** When the openings shown were saved on this device (ISO 8601); null when they are fresh. */
  savedAt: string | null;
}

/** Openings kept on this device by an earlier visit (src/offline/cache.ts). */
export interface KeptOpenings {
  rows: JobOpeningRow[];
  savedAt: string;
}

export const careersMachine = setup({
  types: {
    context: {} as CareersContext,
    events: {} as CareersEvent,
    input: {} as CareersInput,
  },
  actors: {
    loadOpenings: fromPromise<JobOpeningRow[], LoadOpeningsInput>(async () => {
      throw new Error('loadOpenings is provided by the app');
    }),
    /** Keeps the openings shown for a visit without network. */
    keepOpenings: fromPromise<void, { rows: JobOpeningRow[]; page: number }>(async () => {}),
    /** The openings of this page kept by an earlier visit, or null. */
    readKeptOpenings: fromPromise<KeptOpenings | null, { page: number }>(async () => null),
    pagination: paginationChild,
  },
  actions: {
    storeOpenings: assign((_, params: { openings: JobOpeningRow[] }) => ({
      openings: params.openings,
      total: params.openings[0]?.total_count ?? params.openings.length,
    })),
    /** The pager learns the total, and the page when it came from the address. */
    tellPagination: sendTo('pagination', ({ context }) => ({
      type: 'total.update' as const,
      total: context.total,
    })),
    syncPaginationPage: sendTo('pagination', ({ context }) => ({
      type: 'page.select' as const,
      page: context.page,
    })),
    setPage: assign({ page: (_, params: { page: number }) => cleanPage(params.page) }),
    stepBack: assign({ page: ({ context }) => pageBefore(context) }),
    /** Puts the page into the address bar (`?page=N`, nothing for page 1); supplied by the screen. */
    writeAddress: (_, _params: { page: number }) => {},
    forgetOpenings: assign({ openings: [], savedAt: null }),
    showKeptOpenings: assign({
      openings: (_, kept: KeptOpenings) => kept.rows,
      savedAt: (_, kept: KeptOpenings) => kept.savedAt,
    }),
    /** Side effect for the console (which call failed); the screen shows the spec's text. */
    reportFailure: (_, _params: { error: unknown }) => {},
  },
  guards: {
    hasOpenings: (_, params: { openings: JobOpeningRow[] }) => params.openings.length > 0,
    hasKeptOpenings: (_, kept: KeptOpenings | null) => kept !== null && kept.rows.length > 0,
    isOtherPage: ({ context }, params: { page: number }) => cleanPage(params.page) !== context.page,
    isEmptyLaterPage: ({ context }, params: { openings: JobOpeningRow[] }) =>
      params.openings.length === 0 && context.page > 1,
  },
}).createMachine({
  id: 'careers',
  initial: 'loading',
  context: ({ input }) => ({
    page: cleanPage(input?.page),
    pageSize: input?.pageSize ?? JOB_PAGE_SIZE,
    total: 0,
    openings: [],
    savedAt: null,
  }),
  invoke: {
    id: 'pagination',
    src: 'pagination',
    input: ({ context }) => ({ pageSize: context.pageSize, page: context.page }),
  },
  on: {
    'page.changed': {
      guard: { type: 'isOtherPage', params: ({ event }) => ({ page: event.page }) },
      target: '.loading',
      actions: [
        { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
        { type: 'writeAddress', params: ({ context }) => ({ page: context.page }) },
      ],
    },
    'address.change': {
      guard: { type: 'isOtherPage', params: ({ event }) => ({ page: event.page }) },
      target: '.loading',
      actions: { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
    },
  },
  states: {
    loading: {
      entry: 'forgetOpenings',
      invoke: {
        id: 'loadOpenings',
        src: 'loadOpenings',
        input: ({ context }) => ({ page: context.page, pageSize: context.pageSize }),
        onDone: [
          {
            // a page past the end (an old address, or openings closed since): step back (see above)
            guard: { type: 'isEmptyLaterPage', params: ({ event }) => ({ openings: event.output }) },
            target: 'loading',
            reenter: true,
            actions: [
              'stepBack',
              { type: 'writeAddress', params: ({ context }) => ({ page: context.page }) },
            ],
          },
          {
            guard: { type: 'hasOpenings', params: ({ event }) => ({ openings: event.output }) },
            target: 'listed',
            actions: [
              { type: 'storeOpenings', params: ({ event }) => ({ openings: event.output }) },
              'tellPagination',
              'syncPaginationPage',
            ],
          },
          { target: 'empty' },
        ],
        onError: {
          target: 'readingKeptOpenings',
          actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    listed: {
      // Kept for a later visit without network; a failure to keep them changes nothing on screen.
      invoke: {
        id: 'keepOpenings',
        src: 'keepOpenings',
        input: ({ context }) => ({ rows: context.openings, page: context.page }),
        onError: { actions: [] },
      },
    },
    /** The call failed: the openings an earlier visit kept on this device, if any. */
    readingKeptOpenings: {
      invoke: {
        id: 'readKeptOpenings',
        src: 'readKeptOpenings',
        input: ({ context }) => ({ page: context.page }),
        onDone: [
          {
            guard: { type: 'hasKeptOpenings', params: ({ event }) => event.output },
            target: 'showingKept',
            actions: { type: 'showKeptOpenings', params: ({ event }) => event.output! },
          },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    /** The kept openings, with 'Showing saved copy from {date}' and Retry. */
    showingKept: {
      on: { 'list.retry': 'loading' },
    },
    empty: {},
    failed: {
      on: { 'list.retry': 'loading' },
    },
  },
});
