import { assign, fromPromise, sendTo, setup } from 'xstate';
import { JOB_PAGE_SIZE, type JobOpeningRow, type JobTypeRow } from '../api/contract/jobs';
import { cleanPage } from '../api/contract/paging';
import { pageBefore, paginationChild } from './pagination.machine';

/**
 * The admin 'Current Openings' list: 'Loading jobs...', then the cards or
 * the empty state; a failed load offers a retry. Delete asks the spec's question first, then
 * POSTs mode 3; success removes the card with the toast 'Job deleted successfully', failure shows
 * the 'Error' toast. A job saved by the form is put into the list at once (new ones first).
 *
 * A deletion reloads the page, so the next opening moves up into it.
 *
 * Pages: 20 openings a page, drawn by a child `pagination` actor (the shared
 * pagination.machine.ts). The page lives in the address (`?page=N`): `input.page` at start,
 * `address.change` on back/forward, the named action `writeAddress` when a page is chosen. A page
 * past the end steps back to the last page of the known total (page 1 when none is known). Pages
 * change only while no delete is asked or under way.
 *
 * Effects the screen provides: `loadList` (a page of openings + job types), `deleteJob`,
 * `notifyDeleted`, `notifyDeleteFailed`, `writeAddress`.
 */
export interface AdminOpeningsInput {
  page?: number;
  pageSize?: number;
}

export interface AdminOpeningsContext {
  page: number;
  pageSize: number;
  /** Openings in all pages (the rows' `total_count`). */
  total: number;
  jobs: JobOpeningRow[];
  jobTypes: JobTypeRow[];
  pendingDelete: JobOpeningRow | null;
}

export type AdminOpeningsEvent =
  | { type: 'list.retry' }
  | { type: 'job.saved'; mode: 'create' | 'edit'; row: JobOpeningRow }
  | { type: 'delete.ask'; job: JobOpeningRow }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'page.changed'; page: number }
  | { type: 'address.change'; page: number };

export interface LoadedList {
  jobs: JobOpeningRow[];
  jobTypes: JobTypeRow[];
}

export const adminOpeningsMachine = setup({
  types: {
    context: {} as AdminOpeningsContext,
    events: {} as AdminOpeningsEvent,
    input: {} as AdminOpeningsInput,
  },
  actors: {
    loadList: fromPromise<LoadedList, { page: number; pageSize: number }>(async () => {
      throw new Error('loadList is provided by the app');
    }),
    pagination: paginationChild,
    deleteJob: fromPromise<{ message: string }, { jobId: number }>(async () => {
      throw new Error('deleteJob is provided by the app');
    }),
  },
  actions: {
    store: assign((_, params: LoadedList) => ({
      jobs: params.jobs,
      jobTypes: params.jobTypes,
      total: params.jobs[0]?.total_count ?? params.jobs.length,
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
    upsert: assign({
      jobs: ({ context }, params: { row: JobOpeningRow }) =>
        context.jobs.some((j) => j.job_id === params.row.job_id)
          ? context.jobs.map((j) => (j.job_id === params.row.job_id ? params.row : j))
          : [params.row, ...context.jobs],
    }),
    remember: assign({ pendingDelete: (_, params: { job: JobOpeningRow }) => params.job }),
    forget: assign({ pendingDelete: null }),
    removePending: assign({
      jobs: ({ context }) => context.jobs.filter((j) => j.job_id !== context.pendingDelete?.job_id),
      pendingDelete: null,
    }),
    notifyDeleted: (_, _params: { message: string }) => {},
    notifyDeleteFailed: (_, _params: { error: unknown }) => {},
    reportLoadFailure: (_, _params: { error: unknown }) => {},
  },
  guards: {
    /** Another page, and no delete asked or under way. */
    mayTurnTo: ({ context }, params: { page: number }) =>
      cleanPage(params.page) !== context.page && context.pendingDelete === null,
    isEmptyLaterPage: ({ context }, params: LoadedList) => params.jobs.length === 0 && context.page > 1,
  },
}).createMachine({
  id: 'adminOpenings',
  initial: 'loading',
  context: ({ input }) => ({
    page: cleanPage(input.page),
    pageSize: input.pageSize ?? JOB_PAGE_SIZE,
    total: 0,
    jobs: [],
    jobTypes: [],
    pendingDelete: null,
  }),
  invoke: {
    id: 'pagination',
    src: 'pagination',
    input: ({ context }) => ({ pageSize: context.pageSize, page: context.page }),
  },
  on: {
    'page.changed': {
      guard: { type: 'mayTurnTo', params: ({ event }) => ({ page: event.page }) },
      target: '.loading',
      reenter: true,
      actions: [
        { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
        { type: 'writeAddress', params: ({ context }) => ({ page: context.page }) },
      ],
    },
    'address.change': {
      guard: { type: 'mayTurnTo', params: ({ event }) => ({ page: event.page }) },
      target: '.loading',
      reenter: true,
      actions: { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
    },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadList',
        src: 'loadList',
        input: ({ context }) => ({ page: context.page, pageSize: context.pageSize }),
        onDone: [
          {
            // a page past the end (an old address, or its last opening deleted): step back (see above)
            guard: { type: 'isEmptyLaterPage', params: ({ event }) => event.output },
            target: 'loading',
            reenter: true,
            actions: [
              'stepBack',
              { type: 'writeAddress', params: ({ context }) => ({ page: context.page }) },
            ],
          },
          {
            target: 'ready',
            actions: [
              { type: 'store', params: ({ event }) => event.output },
              'tellPagination',
              'syncPaginationPage',
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: { on: { 'list.retry': 'loading' } },
    ready: {
      on: {
        'job.saved': { actions: { type: 'upsert', params: ({ event }) => ({ row: event.row }) } },
        'delete.ask': {
          target: 'confirmingDelete',
          actions: { type: 'remember', params: ({ event }) => ({ job: event.job }) },
        },
      },
    },
    confirmingDelete: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'ready', actions: 'forget' },
      },
    },
    deleting: {
      invoke: {
        id: 'deleteJob',
        src: 'deleteJob',
        input: ({ context }) => ({ jobId: context.pendingDelete!.job_id }),
        onDone: {
          target: 'loading',
          actions: [
            'removePending',
            { type: 'notifyDeleted', params: ({ event }) => ({ message: event.output.message }) },
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            'forget',
            { type: 'notifyDeleteFailed', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
  },
});
