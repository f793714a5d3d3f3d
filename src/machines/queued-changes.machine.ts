import { assign, fromCallback, fromPromise, sendParent, setup } from 'xstate';

/**
 * A person's own back-office changes kept in the send queue (src/offline/send-queue.ts), as a
 * screen with an editor sees them: the child `queued` of the openings and blog screens' machines.
 *
 * - `listen` tells of this person's changes of the screen's kind: one sent later
 *   (`queued.sent`, passed to the parent, which loads its list again), one that met someone
 *   else's change (`queued.conflict`).
 * - Such a change, or one the person picks with Resolve in 'Waiting to send' (`queued.resolve`),
 *   is read from the queue and taken by this tab (`reading`, `readChange`: another tab that has
 *   taken it keeps it, unless the person picked it here) and held (`holding`, context
 *   `takingUp`) until the screen has handed it to its editor (`queued.taken`), which opens it in
 *   its conflict view. A change the person picked that is no longer on the device says so
 *   (`notifyGone`); one heard of that another tab took is left to it, quietly.
 *
 * Effects the screen provides: actors `listen`, `readChange`; action `notifyGone`.
 */

export type QueuedChangesEvent =
  | { type: 'queued.sent' }
  | { type: 'queued.conflict'; id: string }
  | { type: 'queued.resolve'; id: string }
  | { type: 'queued.taken' };

export interface QueuedChangesContext<C> {
  /** A change read from the queue, for the screen to hand to its editor. */
  takingUp: C | null;
  /** The change being read, and whether the person picked it (Resolve) or it was heard of. */
  asked: { id: string; picked: boolean } | null;
}

/** The machine for changes of type `C` (what the screen's editor takes up). */
export const queuedChanges = <C>() =>
  setup({
    types: {
      context: {} as QueuedChangesContext<C>,
      events: {} as QueuedChangesEvent,
    },
    actors: {
      /** Sends queued.sent and queued.conflict for this person's changes of the screen's kind. */
      listen: fromCallback(() => () => {}),
      /**
       * The change kept under `id`, taken by this tab (`picked`: even from another tab); null when
       * it is gone (sent, removed, from an older build) or another tab has it.
       */
      readChange: fromPromise<C | null, { id: string; picked: boolean }>(async () => null),
    },
    actions: {
      hold: assign({ takingUp: (_, params: { change: C }) => params.change, asked: null }),
      drop: assign({ takingUp: null }),
      ask: assign({ asked: (_, params: { id: string; picked: boolean }) => params }),
      forgetAsked: assign({ asked: null }),
      tellParent: sendParent({ type: 'queued.sent' }),
      notifyGone: () => {},
    },
    guards: {
      isFound: (_, params: { change: C | null }) => params.change !== null,
      wasPicked: ({ context }) => context.asked?.picked ?? false,
    },
  }).createMachine({
    id: 'queuedChanges',
    context: { takingUp: null, asked: null },
    // a listener only: should it break, Resolve in 'Waiting to send' still takes a change up
    invoke: { id: 'listen', src: 'listen', onError: { actions: [] } },
    on: { 'queued.sent': { actions: 'tellParent' } },
    initial: 'idle',
    states: {
      idle: {
        on: {
          'queued.conflict': {
            target: 'reading',
            actions: { type: 'ask', params: ({ event }) => ({ id: event.id, picked: false }) },
          },
          'queued.resolve': {
            target: 'reading',
            actions: { type: 'ask', params: ({ event }) => ({ id: event.id, picked: true }) },
          },
        },
      },
      reading: {
        invoke: {
          id: 'readChange',
          src: 'readChange',
          input: ({ context }) => context.asked!,
          onDone: [
            {
              guard: { type: 'isFound', params: ({ event }) => ({ change: event.output }) },
              target: 'holding',
              actions: { type: 'hold', params: ({ event }) => ({ change: event.output! }) },
            },
            { guard: 'wasPicked', target: 'idle', actions: ['notifyGone', 'forgetAsked'] },
            { target: 'idle', actions: 'forgetAsked' },
          ],
          onError: { target: 'idle', actions: ['notifyGone', 'forgetAsked'] },
        },
      },
      /** Until the screen has handed it to its editor (an editor in use leaves it in the queue). */
      holding: {
        on: { 'queued.taken': { target: 'idle', actions: 'drop' } },
      },
    },
  });

/** The machine as drawn in docs/machines (each screen makes its own typed copy). */
export const queuedChangesMachine = queuedChanges<unknown>();
