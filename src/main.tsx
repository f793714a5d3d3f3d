import './styles/global.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app';
import { AppRoutes, preloadRoutes } from './routes/router';
import { createBrowserI18n } from './i18n/browser';
import { isLang, langFromCookie, langPrefix, splitLangPath } from './i18n/languages';
import { nsForPath } from './routes/paths';
import { config } from './config';
import { installInspectBlock } from './inspect-block';

async function start() {
  const root = document.getElementById('root');
  if (!root) return;
  // Elements, not the template's <!--app-html--> comment (the dev server sends it unfilled).
  const prerendered = root.firstElementChild !== null;
  // A public page's language is its address's (docs/decisions/041-language-addresses.md); the
  // back office reads the visitor's choice (the cookie).
  const address = splitLangPath(window.location.pathname);
  const admin = /^\/admin(\/|$)/.test(window.location.pathname);
  const lang = admin ? langFromCookie(document.cookie) : address.lang;
  // A page in another language than its address (the service worker's English copy of a page
  // this device has not kept in this language, offline) is drawn anew, not hydrated.
  const htmlLang = document.documentElement.lang;
  const hydrate = prerendered && isLang(htmlLang) && htmlLang === lang;
  document.documentElement.lang = lang;
  const pagePath = admin ? window.location.pathname : address.path;

  // Development builds only: `?inspect` connects every machine to the Stately inspector (src/dev).
  if (import.meta.env.DEV && new URLSearchParams(window.location.search).has('inspect')) {
    await import('./dev/inspector').then((m) => m.startInspector());
  }

  const [i18n] = await Promise.all([
    createBrowserI18n(lang, nsForPath(pagePath)),
    // The screens of this address, so the first render matches the HTML without suspending.
    preloadRoutes(pagePath),
  ]);
  const app = (
    <AppProviders i18n={i18n}>
      <BrowserRouter basename={admin ? undefined : langPrefix(lang) || undefined}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );

  if (config.blockInspect) installInspectBlock(() => !window.location.pathname.startsWith('/admin'));

  // Yield once so the browser can paint and handle input before hydration work starts.
  await new Promise((resolve) => setTimeout(resolve, 0));
  startTransition(() => {
    if (hydrate) hydrateRoot(root, app);
    else {
      root.replaceChildren();
      createRoot(root).render(app);
    }
  });

  // Service worker, update prompt, send queue (src/pwa): after load, when the browser is idle.
  whenLoadedAndIdle(() => {
    void import('./pwa/start').then((m) => m.startPwa({ i18n, registerServiceWorker: import.meta.env.PROD }));
  });
}

function whenLoadedAndIdle(run: () => void) {
  const idle = () =>
    'requestIdleCallback' in window
      ? window.requestIdleCallback(run, { timeout: 3000 })
      : setTimeout(run, 1000);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

void start();
