import { assign, fromPromise, setup } from 'xstate';
import type { BackupStatus } from '../../contract/auth';

/**
 * The backup line of the Activity screen: loads the server's backup status once (the newest
 * backup, or that none is set up), with a retry after a failure. Effects the screen provides:
 * `loadStatus`, `reportFailure`.
 */
export const backupStatusMachine = setup({
  types: {
    context: {} as { status: BackupStatus | null },
    events: {} as { type: 'status.retry' },
  },
  actors: {
    loadStatus: fromPromise<BackupStatus>(async () => {
      throw new Error('loadStatus is provided by the app');
    }),
  },
  actions: {
    store: assign({ status: (_, p: { status: BackupStatus }) => p.status }),
    reportFailure: (_, _p: { error: unknown }) => {},
  },
}).createMachine({
  id: 'backupStatus',
  initial: 'loading',
  context: { status: null },
  states: {
    loading: {
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: {
          target: 'shown',
          actions: { type: 'store', params: ({ event }) => ({ status: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    shown: {},
    failed: { on: { 'status.retry': 'loading' } },
  },
});
