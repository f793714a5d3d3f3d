import { fromCallback, raise, sendTo, setup } from 'xstate';

/**
 * The service worker's life as the visitor sees it (registerType 'prompt': a new version waits for the visitor's yes):
 * - the first install: a short note that the site now works offline;
 * - a new version waiting: a toast 'A new version is available' with 'Reload' (and 'Later');
 *   Reload asks the waiting worker to take over and reloads the page once it controls it;
 * - every hour, a check for a new version (registration.update()).
 * The `serviceWorker` actor (src/pwa/service-worker.ts, workbox-window) registers the worker,
 * reports what happens with the events below and takes the commands `sw.check` and `sw.activate`.
 */

export type SwReport =
  | { type: 'sw.registered' }
  | { type: 'sw.unsupported' }
  | { type: 'sw.failed'; error: unknown }
  /** The first worker finished installing: the site works offline from now on. */
  | { type: 'sw.offlineReady' }
  /** A new worker is installed and waits for this page to let it take over. */
  | { type: 'sw.updateWaiting' }
  /** The new worker now controls the page. */
  | { type: 'sw.controlling' };

export type SwCommand = { type: 'sw.check' } | { type: 'sw.activate' };

export type SwUpdateEvent =
  SwReport | { type: 'update.reload' } | { type: 'update.dismiss' } | { type: 'ready.dismiss' };

export const SW_UPDATE_DELAYS = {
  /** Periodic registration.update(). */
  updateCheckInterval: 60 * 60 * 1000,
  /** How long the 'offline ready' note stays. */
  offlineReadyDisplay: 8000,
  /** Reload anyway if the new worker has not taken over by then. */
  reloadFallback: 4000,
};

export const swUpdateMachine = setup({
  types: {
    events: {} as SwUpdateEvent,
  },
  actors: {
    serviceWorker: fromCallback<SwCommand>(({ sendBack }) => {
      sendBack({ type: 'sw.unsupported' });
    }),
  },
  actions: {
    checkForUpdate: sendTo('serviceWorker', { type: 'sw.check' } satisfies SwCommand),
    activateUpdate: sendTo('serviceWorker', { type: 'sw.activate' } satisfies SwCommand),
    reloadPage: () => {},
  },
  delays: SW_UPDATE_DELAYS,
}).createMachine({
  id: 'swUpdate',
  type: 'parallel',
  // Registration problems are reported as sw.failed; an actor that throws counts as one too.
  invoke: {
    id: 'serviceWorker',
    src: 'serviceWorker',
    onError: { actions: raise(({ event }) => ({ type: 'sw.failed' as const, error: event.error })) },
  },
  states: {
    prompt: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'sw.offlineReady': { target: 'offlineReady' },
            'sw.updateWaiting': { target: 'updateAvailable' },
          },
        },
        offlineReady: {
          after: { offlineReadyDisplay: { target: 'idle' } },
          on: {
            'ready.dismiss': { target: 'idle' },
            'sw.updateWaiting': { target: 'updateAvailable' },
          },
        },
        updateAvailable: {
          on: {
            'update.reload': { target: 'updating' },
            'update.dismiss': { target: 'dismissed' },
          },
        },
        updating: {
          entry: 'activateUpdate',
          after: { reloadFallback: { target: 'reloading' } },
          on: { 'sw.controlling': { target: 'reloading' } },
        },
        reloading: { entry: 'reloadPage' },
        dismissed: {
          on: { 'sw.updateWaiting': { target: 'updateAvailable' } },
        },
      },
    },
    checks: {
      initial: 'unregistered',
      states: {
        unregistered: {
          on: {
            'sw.registered': { target: 'scheduled' },
            'sw.unsupported': { target: 'off' },
            'sw.failed': { target: 'off' },
          },
        },
        scheduled: {
          after: { updateCheckInterval: { target: 'scheduled', reenter: true, actions: 'checkForUpdate' } },
        },
        off: {},
      },
    },
  },
});
