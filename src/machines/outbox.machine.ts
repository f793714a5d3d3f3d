import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { OutboxKind, OutboxStatus } from '../offline/send-queue';

/**
 * The list of kept submissions under a form ('Waiting to send' with Cancel): read after mount,
 * read again whenever the send queue changes (in any tab or the service worker), and Cancel
 * removes an entry unless it is being sent at that moment.
 */

/** What the list shows of an entry (never the CV or the message itself). */
export interface OutboxEntry {
  id: string;
  kind: OutboxKind;
  label: string;
  status: OutboxStatus;
  createdAt: number;
  error?: string;
}

export type OutboxEvent = { type: 'outbox.changed' } | { type: 'item.cancel'; id: string };

export const outboxMachine = setup({
  types: {
    context: {} as { entries: OutboxEntry[] },
    events: {} as OutboxEvent,
  },
  actors: {
    loadEntries: fromPromise<OutboxEntry[]>(async () => {
      throw new Error('provided by the screen');
    }),
    /** Answers false when the entry is being sent and cannot be taken back. */
    cancelEntry: fromPromise<boolean, { id: string }>(async () => {
      throw new Error('provided by the screen');
    }),
    /** Sends outbox.changed when the queue changes anywhere. */
    outboxEvents: fromCallback(() => () => {}),
  },
  actions: {
    notifyCancelled: () => {},
    notifyInFlight: () => {},
    notifyCancelFailed: () => {},
  },
  guards: {
    wasCancelled: (_, cancelled: boolean) => cancelled,
  },
}).createMachine({
  id: 'outbox',
  context: { entries: [] },
  invoke: { id: 'outboxEvents', src: 'outboxEvents', onError: { actions: [] } },
  // Cancel is taken whenever the list is on screen, also while it is being read again.
  on: { 'item.cancel': { target: '.cancelling' } },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadEntries',
        src: 'loadEntries',
        onDone: { target: 'ready', actions: assign({ entries: ({ event }) => event.output }) },
        onError: { target: 'unavailable' },
      },
      on: { 'outbox.changed': { target: 'loading', reenter: true } },
    },
    ready: {
      on: { 'outbox.changed': { target: 'loading' } },
    },
    cancelling: {
      on: { 'item.cancel': {} },
      invoke: {
        id: 'cancelEntry',
        src: 'cancelEntry',
        input: ({ event }) => ({ id: event.type === 'item.cancel' ? event.id : '' }),
        onDone: [
          {
            guard: { type: 'wasCancelled', params: ({ event }) => event.output },
            target: 'loading',
            actions: 'notifyCancelled',
          },
          { target: 'loading', actions: 'notifyInFlight' },
        ],
        onError: { target: 'loading', actions: 'notifyCancelFailed' },
      },
    },
    /** IndexedDB cannot be read here (private mode, blocked storage). */
    unavailable: {
      on: { 'outbox.changed': { target: 'loading' } },
    },
  },
});
