import { fromCallback } from 'xstate';
import type { SwCommand, SwReport } from '../machines/sw-update.machine';

/**
 * The `serviceWorker` actor of sw-update.machine.ts: registers /sw.js with workbox-window (loaded
 * only here, after hydration) and reports what the worker does. Prompt strategy: a new worker
 * waits until `sw.activate` (the toast's Reload) sends it SKIP_WAITING.
 */
export const SERVICE_WORKER_URL = '/sw.js';

export const serviceWorkerActor = fromCallback<SwCommand>(({ sendBack, receive }) => {
  const report = (event: SwReport) => sendBack(event);
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) {
    report({ type: 'sw.unsupported' });
    return undefined;
  }
  let stopped = false;
  let workbox: import('workbox-window').Workbox | null = null;

  import('workbox-window')
    .then(({ Workbox }) => {
      if (stopped) return;
      const wb = new Workbox(SERVICE_WORKER_URL, { scope: '/', type: 'classic', updateViaCache: 'none' });
      workbox = wb;
      // The first worker finished installing: everything precached, the site works offline.
      wb.addEventListener('installed', (event) => {
        if (!event.isUpdate) report({ type: 'sw.offlineReady' });
      });
      // A new version is installed and waits (also when it was already waiting at load).
      wb.addEventListener('waiting', () => report({ type: 'sw.updateWaiting' }));
      wb.addEventListener('controlling', (event) => {
        if (event.isUpdate) report({ type: 'sw.controlling' });
      });
      return wb.register().then((registration) => {
        if (registration) report({ type: 'sw.registered' });
        else report({ type: 'sw.failed', error: new Error('The service worker was not registered') });
      });
    })
    .catch((error: unknown) => report({ type: 'sw.failed', error }));

  receive((command) => {
    if (!workbox) return;
    if (command.type === 'sw.check') void workbox.update().catch(() => undefined); // offline: next time
    if (command.type === 'sw.activate') workbox.messageSkipWaiting();
  });

  return () => {
    stopped = true;
  };
});
