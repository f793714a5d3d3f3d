import { swUpdateMachine } from '../machines/sw-update.machine';
import { serviceWorkerActor } from './service-worker';

/** The service worker's life with its live effects: the registered worker, and a reload to update. */
export const swUpdateLive = swUpdateMachine.provide({
  actors: { serviceWorker: serviceWorkerActor },
  actions: { reloadPage: () => window.location.reload() },
});
