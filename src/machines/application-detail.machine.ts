import { assign, fromPromise, setup } from 'xstate';
import { conflictIn, isGoneError } from './record-editor.machine';
import type { ApplicationListRow, ApplicationStatus } from '../../contract/admin-applications';

/**
 * The 'Application Details' modal.
 *
 * - `closed` -> `open` on `detail.open` (the row of the list). While open, two regions run side
 *   by side:
 *   - `resume`: asks the server for the CV's signed address as soon as the modal opens
 *     (`signing`), so 'View Resume' is a real link that opens in a new tab from the click itself
 *     (no pop-up blocker, middle click works). The address expires within 5 minutes, so it is
 *     asked again every `resumeLinkRefresh` (4 minutes) while the modal stays open. A failure
 *     shows a note and Retry.
 *   - `main`: `viewing` -> `savingStatus` (`status.change`; the list and a toast learn the new
 *     status, and a move to Rejected counts in `rejections`, which offers the rejection email; a
 *     failure keeps the old one) and `viewing` -> `confirmingDelete` (`delete.ask`) ->
 *     `deleting` (`delete.confirm`) -> `closed`, or back on `delete.cancel`.
 * - `detail.close` closes from `viewing` and `confirmingDelete` (Escape, the close button, the
 *   backdrop); while a change is being saved the modal stays open.
 *
 * Effects the screen provides: actors `signResume`, `saveStatus`, `deleteApplication`; actions
 * `notifyStatusSaved`, `notifyStatusFailed`, `notifyDeleted`, `notifyDeleteFailed`.
 */

export interface ApplicationDetailContext {
  row: ApplicationListRow | null;
  resumeUrl: string | null;
  /** The status being saved (shown in the select meanwhile). */
  pendingStatus: ApplicationStatus | null;
  /** One more each time this modal moved the application to Rejected (the rejection email is offered). */
  rejections: number;
}

export type ApplicationDetailEvent =
  | { type: 'detail.open'; row: ApplicationListRow }
  | { type: 'detail.close' }
  | { type: 'resume.retry' }
  | { type: 'status.change'; status: ApplicationStatus }
  | { type: 'delete.ask' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

/** A signed CV address lives 5 minutes; it is renewed a minute before. */
export const RESUME_LINK_REFRESH_MS = 4 * 60 * 1000;

export const applicationDetailMachine = setup({
  types: {
    context: {} as ApplicationDetailContext,
    events: {} as ApplicationDetailEvent,
  },
  actors: {
    signResume: fromPromise<string, { key: string }>(async () => {
      throw new Error('signResume is provided by the app');
    }),
    saveStatus: fromPromise<
      ApplicationListRow,
      { applicationId: number; status: ApplicationStatus; version: number }
    >(async () => {
      throw new Error('saveStatus is provided by the app');
    }),
    deleteApplication: fromPromise<unknown, { applicationId: number }>(async () => {
      throw new Error('deleteApplication is provided by the app');
    }),
  },
  delays: {
    resumeLinkRefresh: RESUME_LINK_REFRESH_MS,
  },
  actions: {
    setRow: assign({
      row: (_, params: { row: ApplicationListRow }) => params.row,
      resumeUrl: null,
      pendingStatus: null,
    }),
    clear: assign({ row: null, resumeUrl: null, pendingStatus: null }),
    setResumeUrl: assign({ resumeUrl: (_, params: { url: string }) => params.url }),
    forgetResumeUrl: assign({ resumeUrl: null }),
    setPending: assign({ pendingStatus: (_, params: { status: ApplicationStatus }) => params.status }),
    storeSaved: assign({
      row: ({ context }, params: { row: ApplicationListRow }) => ({
        ...params.row,
        total_count: context.row?.total_count,
      }),
      pendingStatus: null,
    }),
    clearPending: assign({ pendingStatus: null }),
    countRejection: assign({
      rejections: ({ context }, params: { row: ApplicationListRow }) =>
        context.rejections + (params.row.status === 'Rejected' && context.row?.status !== 'Rejected' ? 1 : 0),
    }),
    notifyStatusSaved: (_, _params: { row: ApplicationListRow }) => {},
    notifyStatusFailed: (_, _params: { error: unknown }) => {},
    /** The change lost a race: the application as someone else left it is shown, and who. */
    notifyOvertaken: (_, _params: { row: ApplicationListRow; changedBy: string | null }) => {},
    notifyDeleted: (_, _params: { row: ApplicationListRow }) => {},
    notifyDeleteFailed: (_, _params: { error: unknown }) => {},
  },
  guards: {
    isOtherStatus: ({ context }, params: { status: ApplicationStatus }) =>
      context.row?.status !== params.status,
    /** The application is already gone (deleted elsewhere): as good as deleted here. */
    isGone: (_, params: { error: unknown }) => isGoneError(params.error),
    isConflict: (_, params: { error: unknown }) => conflictIn(params.error) !== null,
  },
}).createMachine({
  id: 'applicationDetail',
  context: { row: null, resumeUrl: null, pendingStatus: null, rejections: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'detail.open': {
          target: 'open',
          actions: { type: 'setRow', params: ({ event }) => ({ row: event.row }) },
        },
      },
    },
    open: {
      type: 'parallel',
      states: {
        resume: {
          initial: 'signing',
          states: {
            signing: {
              invoke: {
                id: 'signResume',
                src: 'signResume',
                input: ({ context }) => ({ key: context.row!.resume }),
                onDone: {
                  target: 'signed',
                  actions: { type: 'setResumeUrl', params: ({ event }) => ({ url: event.output }) },
                },
                onError: { target: 'unavailable', actions: 'forgetResumeUrl' },
              },
            },
            signed: {
              after: { resumeLinkRefresh: 'signing' },
            },
            unavailable: {
              on: { 'resume.retry': 'signing' },
            },
          },
        },
        main: {
          initial: 'viewing',
          states: {
            viewing: {
              on: {
                'detail.close': { target: '#applicationDetail.closed', actions: 'clear' },
                'status.change': {
                  guard: { type: 'isOtherStatus', params: ({ event }) => ({ status: event.status }) },
                  target: 'savingStatus',
                  actions: { type: 'setPending', params: ({ event }) => ({ status: event.status }) },
                },
                'delete.ask': 'confirmingDelete',
              },
            },
            savingStatus: {
              invoke: {
                id: 'saveStatus',
                src: 'saveStatus',
                input: ({ context }) => ({
                  applicationId: context.row!.application_id,
                  status: context.pendingStatus!,
                  version: context.row!.version ?? 1,
                }),
                onDone: {
                  target: 'viewing',
                  actions: [
                    { type: 'countRejection', params: ({ event }) => ({ row: event.output }) },
                    { type: 'storeSaved', params: ({ event }) => ({ row: event.output }) },
                    { type: 'notifyStatusSaved', params: ({ event }) => ({ row: event.output }) },
                  ],
                },
                onError: [
                  {
                    // moved by someone else meanwhile: show where they moved it
                    guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
                    target: 'viewing',
                    actions: [
                      {
                        type: 'storeSaved',
                        params: ({ event }) => ({
                          row: conflictIn<ApplicationListRow>(event.error)!.current,
                        }),
                      },
                      {
                        type: 'notifyOvertaken',
                        params: ({ event }) => ({
                          row: conflictIn<ApplicationListRow>(event.error)!.current,
                          changedBy: conflictIn(event.error)!.changedBy,
                        }),
                      },
                    ],
                  },
                  {
                    target: 'viewing',
                    actions: [
                      'clearPending',
                      { type: 'notifyStatusFailed', params: ({ event }) => ({ error: event.error }) },
                    ],
                  },
                ],
              },
            },
            confirmingDelete: {
              on: {
                'delete.confirm': 'deleting',
                'delete.cancel': 'viewing',
                'detail.close': 'viewing',
              },
            },
            deleting: {
              invoke: {
                id: 'deleteApplication',
                src: 'deleteApplication',
                input: ({ context }) => ({ applicationId: context.row!.application_id }),
                onDone: {
                  target: '#applicationDetail.closed',
                  actions: [
                    { type: 'notifyDeleted', params: ({ context }) => ({ row: context.row! }) },
                    'clear',
                  ],
                },
                onError: [
                  {
                    guard: { type: 'isGone', params: ({ event }) => ({ error: event.error }) },
                    target: '#applicationDetail.closed',
                    actions: [
                      { type: 'notifyDeleted', params: ({ context }) => ({ row: context.row! }) },
                      'clear',
                    ],
                  },
                  {
                    target: 'viewing',
                    actions: { type: 'notifyDeleteFailed', params: ({ event }) => ({ error: event.error }) },
                  },
                ],
              },
            },
          },
        },
      },
    },
  },
});
