import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { JobOpeningRow, JobStatus, JobTypeRow } from '../../contract/jobs';
import {
  DeleteRefusedAnswer,
  closeReasonError,
  undecidedOf,
  type JobStatusAnswer,
} from '../../contract/jobs-admin';
import { conflictIn } from './record-editor.machine';
import type { QueuedJobChange } from './job-form.machine';
import { pagedList } from './paged-list.machine';
import { queuedChanges } from './queued-changes.machine';

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
 * - `idle` -> `confirmingDelete` -> `deleting` -> `idle`. An opening with applications is not
 *   deleted: Delete asks `offeringClose` instead ('It has 3 applications; close it?'), and Close
 *   changes its status; so does a deletion the server refused because applications came in since
 *   the list was loaded.
 * - `idle` -> `changingStatus` -> `idle`: Draft, Open or Closed, based on the version the card
 *   shows; a change that lost a race shows the opening as someone else left it (`notifyOvertaken`).
 *   Closing an opening whose applications are not all decided goes through `askingClose` first
 *   (for someone who may change applications): keep them, or move them to Rejected with a reason
 *   (`closeError` until one is given) and, if chosen, the rejection mail to each candidate
 *   (docs/decisions/032-closing-an-opening.md).
 *
 * - `queued`: this person's changes made without a connection (queued-changes.machine.ts): one
 *   sent later loads the page again (`queued.sent`); one that met someone else's change is held
 *   for the job form to open in its conflict view.
 *
 * Effects the screen provides: the `list` (its `loadPage`, `showPage`), `queued` (its `listen`,
 * `readChange`, `notifyGone`), actors `deleteJob`, `saveStatus`; actions `notifyDeleted`,
 * `notifyDeleteFailed`, `notifyStatusChanged`, `notifyStatusFailed`, `notifyOvertaken`.
 */

/** The number of applications a refused deletion names (409, DeleteRefusedAnswer), or null. */
const applicationsIn = (error: unknown): number | null => {
  const e = error as { status?: unknown; body?: unknown } | null;
  const refused = e?.status === 409 ? DeleteRefusedAnswer.safeParse(e.body) : null;
  return refused?.success ? refused.data.applications : null;
};

/** A page of openings with the job types the form offers. */
export const openingsList = pagedList<JobOpeningRow, null, { jobTypes: JobTypeRow[] }>({
  keyOf: (row) => row.job_id,
});

export interface AdminOpeningsInput {
  page?: number;
  pageSize: number;
  mayReject?: boolean;
}

export interface AdminOpeningsContext {
  /** The list's page size and first page (the address's). */
  pageSize: number;
  firstPage: number;
  pendingDelete: JobOpeningRow | null;
  /** The opening whose status is being changed, to what, and (closing) what happens to its applications. */
  pendingStatus: StatusChange | null;
  /** Why the closing's answer was refused here (no reason for the rejection). */
  closeError: 'reasonRequired' | 'reasonTooLong' | null;
  /** Whether this person may change applications (and so reject them on closing). */
  mayReject: boolean;
}

/** What a closing does with the applications still being decided. */
export interface CloseDecision {
  applications: 'keep' | 'reject';
  reason: string;
  mail: boolean;
}

export interface StatusChange extends Partial<CloseDecision> {
  job: JobOpeningRow;
  status: JobStatus;
}

/** This person's changes to openings kept in the send queue. */
export const openingsQueued = queuedChanges<QueuedJobChange>();

export type AdminOpeningsEvent =
  | { type: 'job.saved'; mode: 'create' | 'edit'; row: JobOpeningRow }
  | { type: 'delete.ask'; job: JobOpeningRow }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'status.change'; job: JobOpeningRow; status: JobStatus }
  /** 'Close it instead' in the question of an opening with applications. */
  | { type: 'close.confirm' }
  /** The closing's answer about the applications still being decided. */
  | ({ type: 'close.decide' } & CloseDecision)
  | { type: 'close.cancel' }
  /** From `queued`: one of this person's changes kept in the send queue was sent. */
  | { type: 'queued.sent' };

export const adminOpeningsMachine = setup({
  types: {
    context: {} as AdminOpeningsContext,
    events: {} as AdminOpeningsEvent,
    input: {} as AdminOpeningsInput,
    children: {} as { list: 'list'; queued: 'queued' },
  },
  actors: {
    list: openingsList,
    queued: openingsQueued,
    deleteJob: fromPromise<{ message: string }, { jobId: number }>(async () => {
      throw new Error('deleteJob is provided by the app');
    }),
    saveStatus: fromPromise<JobStatusAnswer, StatusChange>(async () => {
      throw new Error('saveStatus is provided by the app');
    }),
  },
  guards: {
    hasApplications: (_, params: { job: JobOpeningRow }) => (params.job.application_count ?? 0) > 0,
    /** Closing this opening would leave applications undecided, and this person may decide them. */
    closesUndecided: ({ context }, params: { job: JobOpeningRow; status: JobStatus }) =>
      context.mayReject && params.status === 'Closed' && undecidedOf(params.job) > 0,
    reasonMissing: (_, params: CloseDecision) =>
      params.applications === 'reject' && closeReasonError(params.reason) !== null,
    isConflict: (_, params: { error: unknown }) => conflictIn(params.error) !== null,
    refusedForApplications: (_, params: { error: unknown }) => applicationsIn(params.error) !== null,
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
    countApplications: assign({
      pendingDelete: ({ context }, params: { count: number }) =>
        context.pendingDelete && { ...context.pendingDelete, application_count: params.count },
    }),
    forget: assign({ pendingDelete: null }),
    notifyDeleted: (_, _params: { message: string }) => {},
    notifyDeleteFailed: (_, _params: { error: unknown }) => {},
    rememberStatus: assign({
      pendingStatus: (_, params: { job: JobOpeningRow; status: JobStatus }) => params,
      closeError: null,
    }),
    decide: assign({
      pendingStatus: ({ context }, params: CloseDecision) =>
        context.pendingStatus && { ...context.pendingStatus, ...params },
      closeError: null,
    }),
    refuseDecision: assign({
      closeError: (_, params: CloseDecision) => closeReasonError(params.reason),
    }),
    forgetStatus: assign({ pendingStatus: null, closeError: null }),
    notifyStatusChanged: (_, _params: JobStatusAnswer) => {},
    notifyStatusFailed: (_, _params: { error: unknown }) => {},
    /** The change lost a race: the card shows the opening as someone else left it. */
    notifyOvertaken: (_, _params: { changedBy: string | null }) => {},
    reloadList: sendTo('list', { type: 'list.reload' as const }),
  },
}).createMachine({
  id: 'adminOpenings',
  initial: 'idle',
  context: ({ input }) => ({
    pageSize: input.pageSize,
    firstPage: input.page ?? 1,
    pendingDelete: null,
    pendingStatus: null,
    closeError: null,
    mayReject: input.mayReject ?? false,
  }),
  invoke: [
    {
      id: 'list',
      src: 'list',
      input: ({ context }) => ({ pageSize: context.pageSize, page: context.firstPage, query: null }),
    },
    { id: 'queued', src: 'queued' },
  ],
  on: {
    'job.saved': { actions: { type: 'putRow', params: ({ event }) => ({ row: event.row }) } },
    'queued.sent': { actions: 'reloadList' },
  },
  states: {
    idle: {
      on: {
        'delete.ask': [
          {
            guard: { type: 'hasApplications', params: ({ event }) => ({ job: event.job }) },
            target: 'offeringClose',
            actions: { type: 'remember', params: ({ event }) => ({ job: event.job }) },
          },
          {
            target: 'confirmingDelete',
            actions: { type: 'remember', params: ({ event }) => ({ job: event.job }) },
          },
        ],
        'status.change': [
          {
            guard: {
              type: 'closesUndecided',
              params: ({ event }) => ({ job: event.job, status: event.status }),
            },
            target: 'askingClose',
            actions: {
              type: 'rememberStatus',
              params: ({ event }) => ({ job: event.job, status: event.status }),
            },
          },
          {
            target: 'changingStatus',
            actions: {
              type: 'rememberStatus',
              params: ({ event }) => ({ job: event.job, status: event.status }),
            },
          },
        ],
      },
    },
    /** 'It has 3 applications: close it instead?' (their job stays theirs). */
    offeringClose: {
      on: {
        'close.confirm': [
          {
            guard: {
              type: 'closesUndecided',
              params: ({ context }) => ({ job: context.pendingDelete!, status: 'Closed' as const }),
            },
            target: 'askingClose',
            actions: [
              {
                type: 'rememberStatus',
                params: ({ context }) => ({ job: context.pendingDelete!, status: 'Closed' as const }),
              },
              'forget',
            ],
          },
          {
            target: 'changingStatus',
            actions: [
              {
                type: 'rememberStatus',
                params: ({ context }) => ({ job: context.pendingDelete!, status: 'Closed' as const }),
              },
              'forget',
            ],
          },
        ],
        'delete.cancel': { target: 'idle', actions: 'forget' },
      },
    },
    /** 'Closing it leaves 3 applications undecided: keep them, or reject them with a reason?' */
    askingClose: {
      on: {
        'close.decide': [
          {
            guard: { type: 'reasonMissing', params: ({ event }) => event },
            actions: { type: 'refuseDecision', params: ({ event }) => event },
          },
          {
            target: 'changingStatus',
            actions: {
              type: 'decide',
              params: ({ event }) => ({
                applications: event.applications,
                reason: event.reason,
                mail: event.mail,
              }),
            },
          },
        ],
        'close.cancel': { target: 'idle', actions: 'forgetStatus' },
      },
    },
    changingStatus: {
      invoke: {
        id: 'saveStatus',
        src: 'saveStatus',
        input: ({ context }) => context.pendingStatus!,
        onDone: {
          target: 'idle',
          actions: [
            { type: 'putRow', params: ({ event }) => ({ row: event.output.row }) },
            { type: 'notifyStatusChanged', params: ({ event }) => event.output },
            'forgetStatus',
          ],
        },
        onError: [
          {
            // someone else changed the opening since the card was shown: show theirs
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: [
              {
                type: 'putRow',
                params: ({ event }) => ({ row: conflictIn<JobOpeningRow>(event.error)!.current }),
              },
              {
                type: 'notifyOvertaken',
                params: ({ event }) => ({ changedBy: conflictIn(event.error)!.changedBy }),
              },
              'forgetStatus',
            ],
          },
          {
            target: 'idle',
            actions: [
              { type: 'notifyStatusFailed', params: ({ event }) => ({ error: event.error }) },
              'forgetStatus',
            ],
          },
        ],
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
        onError: [
          {
            // applications came in since the list was loaded: it is offered to close it instead
            guard: { type: 'refusedForApplications', params: ({ event }) => ({ error: event.error }) },
            target: 'offeringClose',
            actions: {
              type: 'countApplications',
              params: ({ event }) => ({ count: applicationsIn(event.error)! }),
            },
          },
          {
            target: 'idle',
            actions: [
              'forget',
              { type: 'notifyDeleteFailed', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
    },
  },
});
