import './styles/global.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app';
import { AppRoutes, preloadRoutes } from './routes/router';
import { createBrowserI18n } from './i18n/browser';
import { isLang, langFromCookie } from './i18n/languages';
import { nsForPath } from './routes/paths';
import { config } from './config';
import { installInspectBlock } from './inspect-block';

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
    // The screens of this address, so the first render matches the HTML without suspending.
    preloadRoutes(window.location.pathname),
  ]);
  const app = (
    <AppProviders i18n={i18n}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
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
