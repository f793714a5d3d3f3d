import { assign, fromPromise, setup } from 'xstate';
import type { JobOpeningRow, JobTypeRow } from '../api/contract/jobs';

/**
 * The admin 'Current Openings' list (spec section 2 and 8): 'Loading jobs...', then the cards or
 * the empty state; a failed load offers a retry. Delete asks the spec's question first, then
 * POSTs mode 3; success removes the card with the toast 'Job deleted successfully', failure shows
 * the 'Error' toast. A job saved by the form is put into the list at once (new ones first).
 *
 * Effects the screen provides: `loadList` (openings + job types), `deleteJob`, `notifyDeleted`,
 * `notifyDeleteFailed`.
 */
export interface AdminOpeningsContext {
  jobs: JobOpeningRow[];
  jobTypes: JobTypeRow[];
  pendingDelete: JobOpeningRow | null;
}

export type AdminOpeningsEvent =
  | { type: 'list.retry' }
  | { type: 'job.saved'; mode: 'create' | 'edit'; row: JobOpeningRow }
  | { type: 'delete.ask'; job: JobOpeningRow }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

export interface LoadedList {
  jobs: JobOpeningRow[];
  jobTypes: JobTypeRow[];
}

export const adminOpeningsMachine = setup({
  types: { context: {} as AdminOpeningsContext, events: {} as AdminOpeningsEvent },
  actors: {
    loadList: fromPromise<LoadedList>(async () => {
      throw new Error('loadList is provided by the app');
    }),
    deleteJob: fromPromise<{ message: string }, { jobId: number }>(async () => {
      throw new Error('deleteJob is provided by the app');
    }),
  },
  actions: {
    store: assign((_, params: LoadedList) => ({ jobs: params.jobs, jobTypes: params.jobTypes })),
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
}).createMachine({
  id: 'adminOpenings',
  initial: 'loading',
  context: { jobs: [], jobTypes: [], pendingDelete: null },
  states: {
    loading: {
      invoke: {
        id: 'loadList',
        src: 'loadList',
        onDone: { target: 'ready', actions: { type: 'store', params: ({ event }) => event.output } },
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
          target: 'ready',
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
