import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { FlushResult, OutboxKind } from '../offline/send-queue';

/**
 * Sends what the send queue keeps (src/offline/send-queue.ts) from the page: once when the app
 * starts, when something is added, when the connection comes back, and again after a growing
 * pause while entries still wait (the browser may be online while our server is down). The
 * service worker's Background Sync sends the same queue where the browser has it; a lock and the
 * Idempotency-Key keep that to one delivery.
 */

/** Pauses between tries while entries wait and the browser is online. */
export const RETRY_DELAYS_MS = [5_000, 15_000, 30_000, 60_000, 120_000];

/** A kept submission that reached the server (or was refused by it), from whichever tab or worker sent it. */
export interface QueueNotice {
  kind: OutboxKind;
  label: string;
  message: string;
}

export type SendQueueEvent =
  | { type: 'connection.online' }
  | { type: 'connection.offline' }
  | { type: 'queue.added' }
  | ({ type: 'queue.sent' } & QueueNotice)
  | ({ type: 'queue.refused' } & QueueNotice)
  /** A back-office change met someone else's change to the same record: its author chooses. */
  | ({ type: 'queue.conflict' } & QueueNotice);

export const sendQueueMachine = setup({
  types: {
    context: {} as { attempt: number },
    events: {} as SendQueueEvent,
  },
  actors: {
    countPending: fromPromise<number>(async () => {
      throw new Error('provided by the app');
    }),
    flushQueue: fromPromise<FlushResult>(async () => {
      throw new Error('provided by the app');
    }),
    /** Sends connection.online / connection.offline. */
    connectionEvents: fromCallback(() => () => {}),
    /** Sends queue.added when any tab adds an entry, queue.sent / queue.refused when one is sent. */
    queueEvents: fromCallback(() => () => {}),
  },
  guards: {
    hasPending: ({ event }) => (event as unknown as { output: number }).output > 0,
    allDone: ({ event }) => (event as unknown as { output: FlushResult }).output.remaining === 0,
    isOffline: () => typeof navigator !== 'undefined' && navigator.onLine === false,
  },
  actions: {
    /** 'Your message was sent' and the like. */
    notifySent: (_, _params: QueueNotice) => {},
    notifyRefused: (_, _params: QueueNotice) => {},
    notifyConflict: (_, _params: QueueNotice) => {},
    resetRetries: assign({ attempt: 0 }),
    countRetry: assign({ attempt: ({ context }) => context.attempt + 1 }),
  },
  delays: {
    retryDelay: ({ context }) =>
      RETRY_DELAYS_MS[Math.min(context.attempt - 1, RETRY_DELAYS_MS.length - 1)] ?? RETRY_DELAYS_MS[0],
  },
}).createMachine({
  id: 'sendQueue',
  context: { attempt: 0 },
  invoke: [
    // Listeners only; should one break, the queue is still sent on start and on the retry timer.
    { id: 'connectionEvents', src: 'connectionEvents', onError: { actions: [] } },
    { id: 'queueEvents', src: 'queueEvents', onError: { actions: [] } },
  ],
  on: {
    'queue.sent': {
      actions: {
        type: 'notifySent',
        params: ({ event }) => ({ kind: event.kind, label: event.label, message: event.message }),
      },
    },
    'queue.refused': {
      actions: {
        type: 'notifyRefused',
        params: ({ event }) => ({ kind: event.kind, label: event.label, message: event.message }),
      },
    },
    'queue.conflict': {
      actions: {
        type: 'notifyConflict',
        params: ({ event }) => ({ kind: event.kind, label: event.label, message: event.message }),
      },
    },
  },
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        id: 'countPending',
        src: 'countPending',
        onDone: [{ guard: 'hasPending', target: 'sending' }, { target: 'idle' }],
        onError: { target: 'idle' },
      },
    },
    idle: {
      on: {
        'queue.added': { target: 'sending' },
        'connection.online': { target: 'checking' },
      },
    },
    sending: {
      invoke: {
        id: 'flushQueue',
        src: 'flushQueue',
        onDone: [
          { guard: 'allDone', target: 'idle', actions: 'resetRetries' },
          { target: 'waiting', actions: 'countRetry' },
        ],
        onError: { target: 'waiting', actions: 'countRetry' },
      },
    },
    waiting: {
      always: { guard: 'isOffline', target: 'offline' },
      after: { retryDelay: { target: 'sending' } },
      on: {
        'queue.added': { target: 'sending' },
        'connection.online': { target: 'sending', actions: 'resetRetries' },
        'connection.offline': { target: 'offline' },
      },
    },
    offline: {
      on: {
        'connection.online': { target: 'sending', actions: 'resetRetries' },
      },
    },
  },
});
