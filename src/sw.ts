/// <reference lib="webworker" />
/**
 * The service worker (vite-plugin-pwa, strategy injectManifest, Workbox 7). Built by
 * scripts/build-pwa.mjs AFTER the prerender step, so the precache list and its hashes are those
 * of the final HTML. What it does, in the order of the routes below:
 *
 * - Precache: the app shell (every public JS chunk, CSS, fonts, icons, the manifest) and every
 *   prerendered public page as itself, in English, under its clean address (`/about`, `/` ...),
 *   plus the admin shell under `/admin`. Admin-only chunks are cached when first used instead.
 *   The precache fetches without cookies and with its own header, so `/` is never sent on to a
 *   language's home instead.
 * - Navigations (not /api, /media or files): network first with a short timeout. A page that
 *   arrives is kept in the runtime page cache under its address (a language's page has its own:
 *   `/de/pricing`, docs/decisions/041-language-addresses.md; the server says the language in
 *   Content-Language). Without a network: the copy of that address, else the precached English
 *   page (main.tsx then draws it in the address's language), else a copy in another language,
 *   else a redirect to the prerendered /offline page, which says what is still available.
 * - /api/** is never answered by this worker: no route matches it, so the browser sends it to
 *   the network as if there were no worker. That keeps every API answer (CVs' signed addresses,
 *   GetPresignedUrl, /api/admin, /api/auth ...) out of every cache, and /api never gets HTML.
 *   Private files (/media/private/, signed CV addresses) are not matched either.
 * - Public media (/media/**): stale-while-revalidate; admin-only chunks: cache first.
 * - Background Sync `manna-outbox`: sends the send queue (src/offline/send-queue.ts).
 * - Updates wait (registerType 'prompt') until the page asks with {type: 'SKIP_WAITING'}.
 */
import {
  addPlugins,
  addRoute,
  cleanupOutdatedCaches,
  getCacheKeyForURL,
  matchPrecache,
  precache,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import * as navigationPreload from 'workbox-navigation-preload';
import { PRECACHE_HEADER } from '../contract/precache-header';
import type { RouteHandlerCallbackOptions } from 'workbox-core/types';
import { deliverWithFetch, flushOutbox, OUTBOX_SYNC_TAG } from './offline/send-queue';
import { isLang, splitLangPath } from './i18n/languages';
import { pageAliasTarget } from '../common/pwa-aliases.mjs';
import { PAGES_CACHE_PREFIX } from './offline/cache-names';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

const MANIFEST = self.__WB_MANIFEST;

/** Changes with every build whose precache changes: runtime page copies belong to one build. */
function buildId(entries: typeof MANIFEST): string {
  let h = 0x811c9dc5;
  for (const e of entries) {
    const s = `${e.url}@${e.revision ?? ''};`;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h.toString(36);
}

const PAGES_CACHE = `${PAGES_CACHE_PREFIX}${buildId(MANIFEST)}`;
/** Public media (blog covers and text images) kept as they pass. */
const MEDIA_CACHE = 'manna-media';
/** Network-first navigations give up waiting after this and show the kept copy. */
const NAVIGATION_TIMEOUT_MS = 3000;
const OFFLINE_PATH = '/offline';
const ADMIN_SHELL = '/admin';

// ---- updates: wait for the page's "Reload" (registerType 'prompt')
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Page copies of older builds point at chunks that are gone: drop them.
      for (const name of await caches.keys()) {
        if (name.startsWith(PAGES_CACHE_PREFIX) && name !== PAGES_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// ---- precache (English pages under clean addresses, fetched without the language cookie)
addPlugins([
  {
    requestWillFetch: async ({ request }) => {
      const headers = new Headers(request.headers);
      headers.set(PRECACHE_HEADER, '1');
      return new Request(request, { credentials: 'omit', headers });
    },
  },
]);
precache(MANIFEST);
cleanupOutdatedCaches();
navigationPreload.enable();

// ---- navigations
const normalise = (pathname: string) =>
  pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
const pageKey = (path: string, lang: string) =>
  `${self.location.origin}${path}?__lang=${encodeURIComponent(lang)}`;

async function keepPage(path: string, response: Response): Promise<void> {
  const lang = response.headers.get('content-language');
  // Only pages that say their language (public pages); the admin shell is precached. A page the
  // server says not to store (a post's preview) is not kept either.
  if (!lang || !isLang(lang) || /no-store/i.test(response.headers.get('cache-control') ?? '')) return;
  const cache = await caches.open(PAGES_CACHE);
  await cache.put(pageKey(path, lang), response);
}

/**
 * A page kept from an earlier visit, marked as such for the page: a `manna-kept-at` meta with when
 * the server sent it, so a page rendered with its data (the blog's list) can say it shows a saved
 * copy, as pages that load their data do.
 */
async function markedKept(response: Response): Promise<Response> {
  const sent = Date.parse(response.headers.get('date') ?? '');
  if (!Number.isFinite(sent) || !(response.headers.get('content-type') ?? '').includes('text/html'))
    return response;
  const html = (await response.text()).replace(
    '</head>',
    `<meta name="manna-kept-at" content="${new Date(sent).toISOString()}"></head>`,
  );
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
}

async function keptPage(path: string): Promise<Response | undefined> {
  // the page's language is its address's (docs/decisions/041-language-addresses.md)
  const { lang, path: pagePath } = splitLangPath(path);
  const cache = await caches.open(PAGES_CACHE);
  const inLanguage = await cache.match(pageKey(path, lang), { ignoreVary: true });
  if (inLanguage) return markedKept(inLanguage);
  if (path === ADMIN_SHELL || path.startsWith(`${ADMIN_SHELL}/`)) return matchPrecache(ADMIN_SHELL);
  // the precached English page: the app draws it in the address's language (main.tsx)
  const precachedPath = pageAliasTarget(pagePath);
  const precached = getCacheKeyForURL(precachedPath) ? await matchPrecache(precachedPath) : undefined;
  if (precached) return precached;
  // A page kept in another language (a blog post read before switching): better than nothing.
  for (const other of await cache.keys()) {
    const url = new URL(other.url);
    if (splitLangPath(url.pathname).path === pagePath) {
      const kept = await cache.match(other, { ignoreVary: true });
      return kept ? markedKept(kept) : undefined;
    }
  }
  return undefined;
}

function offlineAnswer(url: URL): Response | Promise<Response> {
  if (normalise(url.pathname) === OFFLINE_PATH) {
    // The offline page itself is missing from the precache (should not happen): a plain answer.
    return new Response('<!doctype html><title>Offline</title><h1>You are offline</h1>', {
      status: 503,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
  }
  const from = `${url.pathname}${url.search}`;
  return Response.redirect(`${OFFLINE_PATH}?from=${encodeURIComponent(from)}`, 302);
}

const timeout = (ms: number) =>
  new Promise<'timeout'>((resolve) => {
    setTimeout(() => resolve('timeout'), ms);
  });

async function handleNavigation({ request, event, url }: RouteHandlerCallbackOptions): Promise<Response> {
  const path = normalise(url.pathname);
  const fetchEvent = event as FetchEvent;
  const network = (async () => {
    const preloaded = (await fetchEvent.preloadResponse) as Response | undefined;
    const response = preloaded ?? (await fetch(request));
    if (response.ok && (response.headers.get('content-type') ?? '').includes('text/html')) {
      fetchEvent.waitUntil(keepPage(path, response.clone()).catch(() => undefined));
    }
    return response;
  })();
  // The network keeps going after a timeout (its answer still refreshes the copy).
  fetchEvent.waitUntil(
    network.then(
      () => undefined,
      () => undefined,
    ),
  );

  const first = await Promise.race([network.catch(() => 'failed' as const), timeout(NAVIGATION_TIMEOUT_MS)]);
  if (first instanceof Response) {
    if (first.status < 500) return first;
    return (await keptPage(path)) ?? first; // server trouble: the kept copy is better than an error page
  }
  const kept = await keptPage(path);
  if (kept) return kept;
  if (first === 'timeout') {
    // Slow, not down: nothing kept, so wait for the network after all.
    try {
      return await network;
    } catch {
      return offlineAnswer(url);
    }
  }
  return offlineAnswer(url);
}

registerRoute(
  new NavigationRoute(handleNavigation, {
    // /api is never answered with a page; files (feeds, sitemap, downloads) go to the network.
    denylist: [/^\/api(\/|$)/, /^\/media(\/|$)/, /\/[^/]+\.[A-Za-z0-9]+$/],
  }),
);

// Precached files (after the navigation route, so pages never come from here while online).
addRoute();

// ---- other files
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname.startsWith('/assets/') && request.method === 'GET',
  new CacheFirst({
    cacheName: 'manna-assets',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 80, maxAgeSeconds: 60 * 60 * 24 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    request.method === 'GET' &&
    url.pathname.startsWith('/media/') &&
    !url.pathname.startsWith('/media/private/') &&
    !url.searchParams.has('sig'),
  new StaleWhileRevalidate({
    cacheName: MEDIA_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      // offline, a width of a cover not kept yet (`?w=`): the same image at a width kept
      {
        handlerDidError: async ({ request }) =>
          (await (await caches.open(MEDIA_CACHE)).match(request, { ignoreSearch: true })) ?? undefined,
      },
      new ExpirationPlugin({ maxEntries: 120, maxAgeSeconds: 60 * 60 * 24 * 30, purgeOnQuotaError: true }),
    ],
  }),
);

// ---- the send queue, where the browser has Background Sync
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}
self.addEventListener('sync', ((event: SyncEvent) => {
  if (event.tag !== OUTBOX_SYNC_TAG) return;
  event.waitUntil(
    flushOutbox(deliverWithFetch).then((result) => {
      // A rejection asks the browser to try this sync again later.
      if (result.remaining > 0) throw new Error(`${result.remaining} submission(s) still waiting`);
    }),
  );
}) as EventListener);
