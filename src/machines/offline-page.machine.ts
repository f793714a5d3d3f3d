import { assign, fromPromise, setup } from 'xstate';
import type { DeviceCopies } from '../offline/device-copies';

/**
 * The offline page (/offline, where the service worker sends a navigation it cannot answer):
 * after mount it reads what this device keeps (pages read while online, submissions waiting in
 * the send queue). The fixed list of pages every visitor has offline is part of the prerendered
 * page itself; this machine only adds what differs per device.
 */

export const offlinePageMachine = setup({
  types: {
    context: {} as DeviceCopies,
  },
  actors: {
    loadDeviceCopies: fromPromise<DeviceCopies>(async () => {
      throw new Error('provided by the screen');
    }),
  },
}).createMachine({
  id: 'offlinePage',
  context: { pages: [], waiting: 0 },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadDeviceCopies',
        src: 'loadDeviceCopies',
        onDone: { target: 'ready', actions: assign(({ event }) => event.output) },
        onError: { target: 'unavailable' },
      },
    },
    ready: {},
    /** No Cache Storage or IndexedDB here (private mode, old browser): the fixed list still helps. */
    unavailable: {},
  },
});
