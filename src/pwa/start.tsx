import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { PwaRoot } from './pwa-root';

/**
 * The installable, offline part of the page, started by main.tsx once the page has loaded and
 * the browser is idle (never in the critical path of the first paint):
 * - the service worker is registered (production builds) with the update prompt;
 * - the send queue is sent from here (on start, when something is added, on reconnect);
 * - on public pages, once the worker is ready, the data of pricing, careers and the blog is kept
 *   for reading offline without a prior visit (prefetch.ts).
 */
export async function startPwa({
  i18n,
  registerServiceWorker,
}: {
  i18n: I18n;
  registerServiceWorker: boolean;
}) {
  const host = document.createElement('div');
  host.id = 'pwa-root';
  document.body.appendChild(host);
  if (registerServiceWorker && !/^\/admin(\/|$)/.test(window.location.pathname)) {
    void import('./prefetch').then((m) => m.schedulePrefetch());
  }
  createRoot(host).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <PwaRoot registerServiceWorker={registerServiceWorker} />
      </I18nextProvider>
    </StrictMode>,
  );
}
