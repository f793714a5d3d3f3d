import './styles/global.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from './app';
import { routes } from './routes/router';
import { createBrowserI18n } from './i18n/browser';
import { isLang, langFromCookie } from './i18n/languages';
import { nsForPath } from './routes/paths';
import { config } from './config';
import { installInspectBlock } from './inspect-block';

/** Resolve the lazy route modules of the current address so the first render matches the HTML. */
async function loadMatchedRoutes(list: RouteObject[]) {
  const matches = matchRoutes(list, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const mod = await route.lazy();
      Object.assign(route, { ...mod, lazy: undefined });
    }),
  );
}

async function start() {
  const root = document.getElementById('root');
  if (!root) return;
  // Elements, not the template's <!--app-html--> comment (the dev server sends it unfilled).
  const prerendered = root.firstElementChild !== null;
  // A prerendered page carries its language; the client-rendered shell (admin) reads the cookie.
  const htmlLang = document.documentElement.lang;
  const lang = prerendered && isLang(htmlLang) ? htmlLang : langFromCookie(document.cookie);
  document.documentElement.lang = lang;

  // Development builds only: `?inspect` connects every machine to the Stately inspector (src/dev).
  if (import.meta.env.DEV && new URLSearchParams(window.location.search).has('inspect')) {
    await import('./dev/inspector').then((m) => m.startInspector());
  }

  const [i18n] = await Promise.all([
    createBrowserI18n(lang, nsForPath(window.location.pathname)),
    loadMatchedRoutes(routes),
  ]);
  const router = createBrowserRouter(routes);
  const app = (
    <AppProviders i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  );

  if (config.blockInspect) installInspectBlock(() => !window.location.pathname.startsWith('/admin'));

  // Yield once so the browser can paint and handle input before hydration work starts.
  await new Promise((resolve) => setTimeout(resolve, 0));
  startTransition(() => {
    if (prerendered) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });

  // Service worker, update prompt, send queue (src/pwa): after load, when the browser is idle.
  whenLoadedAndIdle(() => {
    void import('./pwa/start').then((m) => m.startPwa({ i18n, registerServiceWorker: import.meta.env.PROD }));
  });
}

function whenLoadedAndIdle(run: () => void) {
  const idle = () =>
    'requestIdleCallback' in window ? window.requestIdleCallback(run, { timeout: 3000 }) : setTimeout(run, 1000);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

void start();
