import { fromPromise } from 'xstate';
import { offlinePageMachine } from '../machines/offline-page.machine';
import { loadDeviceCopies } from '../offline/device-copies';
import { PUBLIC_PAGES } from './paths';

/** The offline page with its live effect: which public pages this device keeps a copy of. */
export const offlinePageLive = offlinePageMachine.provide({
  actors: { loadDeviceCopies: fromPromise(() => loadDeviceCopies(PUBLIC_PAGES.map((p) => p.path))) },
});
