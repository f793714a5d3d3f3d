import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { JobOpeningRow, JobTypeRow } from '../api/contract/jobs';
import { pagedList } from './paged-list.machine';

/**
 * The admin 'Current Openings' screen: 'Loading jobs...', then the cards or the empty state; a
 * failed load offers a retry. Delete asks the spec's question first, then POSTs mode 3; success
 * removes the card with the toast 'Job deleted successfully' and reloads the page (the next
 * opening moves up into it), failure shows the 'Error' toast. A job saved by the form is put into
 * the list at once (new ones first).
 *
 * - `list`: the shared paged list (paged-list.machine.ts) of openings, 20 a page, with the job
 *   types beside them (`meta`). The page lives in the address (`?page=N`): the screen starts the
 *   list on the address's page, sends it `list.follow` on back/forward, and writes a page the
 *   list moves to (its `showPage`).
 * - `idle` -> `confirmingDelete` -> `deleting` -> `idle`.
 *
 * Effects the screen provides: the `list` (its `loadPage`, `showPage`), actor `deleteJob`;
 * actions `notifyDeleted`, `notifyDeleteFailed`.
 */

/** A page of openings with the job types the form offers. */
export const openingsList = pagedList<JobOpeningRow, null, { jobTypes: JobTypeRow[] }>({
  keyOf: (row) => row.job_id,
});

export interface AdminOpeningsInput {
  page?: number;
  pageSize: number;
}

export interface AdminOpeningsContext {
  /** The list's page size and first page (the address's). */
  pageSize: number;
  firstPage: number;
  pendingDelete: JobOpeningRow | null;
}

export type AdminOpeningsEvent =
  | { type: 'job.saved'; mode: 'create' | 'edit'; row: JobOpeningRow }
  | { type: 'delete.ask'; job: JobOpeningRow }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

export const adminOpeningsMachine = setup({
  types: {
    context: {} as AdminOpeningsContext,
    events: {} as AdminOpeningsEvent,
    input: {} as AdminOpeningsInput,
    children: {} as { list: 'list' },
  },
  actors: {
    list: openingsList,
    deleteJob: fromPromise<{ message: string }, { jobId: number }>(async () => {
      throw new Error('deleteJob is provided by the app');
    }),
  },
  actions: {
    putRow: sendTo('list', (_, params: { row: JobOpeningRow }) => ({
      type: 'row.saved' as const,
      row: params.row,
      absent: 'prepend' as const,
    })),
    removePending: sendTo('list', ({ context }) => ({
      type: 'row.removed' as const,
      row: context.pendingDelete!,
    })),
    remember: assign({ pendingDelete: (_, params: { job: JobOpeningRow }) => params.job }),
    forget: assign({ pendingDelete: null }),
    notifyDeleted: (_, _params: { message: string }) => {},
    notifyDeleteFailed: (_, _params: { error: unknown }) => {},
  },
}).createMachine({
  id: 'adminOpenings',
  initial: 'idle',
  context: ({ input }) => ({ pageSize: input.pageSize, firstPage: input.page ?? 1, pendingDelete: null }),
  invoke: {
    id: 'list',
    src: 'list',
    input: ({ context }) => ({ pageSize: context.pageSize, page: context.firstPage, query: null }),
  },
  on: {
    'job.saved': { actions: { type: 'putRow', params: ({ event }) => ({ row: event.row }) } },
  },
  states: {
    idle: {
      on: {
        'delete.ask': {
          target: 'confirmingDelete',
          actions: { type: 'remember', params: ({ event }) => ({ job: event.job }) },
        },
      },
    },
    confirmingDelete: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'idle', actions: 'forget' },
      },
    },
    deleting: {
      invoke: {
        id: 'deleteJob',
        src: 'deleteJob',
        input: ({ context }) => ({ jobId: context.pendingDelete!.job_id }),
        onDone: {
          target: 'idle',
          actions: [
            'removePending',
            'forget',
            { type: 'notifyDeleted', params: ({ event }) => ({ message: event.output.message }) },
          ],
        },
        onError: {
          target: 'idle',
          actions: [
            'forget',
            { type: 'notifyDeleteFailed', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
  },
});
