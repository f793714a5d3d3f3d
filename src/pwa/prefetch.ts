import { createActor, fromPromise, waitFor, type AnyActorRef, type SnapshotFrom } from 'xstate';

/**
 * Offline reading without a prior visit: once the service worker is installed, the data the
 * public pages show (the plans for the visitor's country, the first page of openings, and the
 * first page of the blog with each of its posts and their cover images) is fetched in the
 * background and kept on the device, where those pages already look for it when a call fails
 * (src/offline/cache.ts; the images in the worker's /media cache).
 *
 * It runs each page's own machine with its live effects (pricing.live.ts, careers.live.ts,
 * blog.live.ts) until it settles, so the calls, the fallbacks and what is kept are exactly what a
 * visit to the page would do; only the "keep" effects are watched, so the work ends when the copies
 * are written. It runs only on a connection good enough to spend data nobody asked for yet (no
 * Save-Data, no 2G/3G), when the browser is idle, and at most once in `EVERY_MS` per device.
 */

/** What the Network Information API says (Chromium; other browsers have no `connection`). */
export interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

export const EVERY_MS = 6 * 60 * 60 * 1000;
export const LAST_PREFETCH_KEY = 'manna-offline-prefetch-at';
const SETTLE_MS = 30_000;

/** Whether to spend data on copies now: not with Save-Data, not on a slow connection. */
export function goodConnection(connection: ConnectionInfo | undefined): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  return connection.effectiveType === undefined || connection.effectiveType === '4g';
}

/** Whether the last prefetch (an ISO time or null) is old enough to do again at `now`. */
export function isDue(last: string | null, now: number): boolean {
  const at = last ? Date.parse(last) : NaN;
  return Number.isNaN(at) || now - at >= EVERY_MS || at > now;
}

/** Starts `actor`, waits until `settled` (or 30 s), and stops it. */
async function runUntil<A extends AnyActorRef>(actor: A, settled: (snapshot: SnapshotFrom<A>) => boolean) {
  actor.start();
  try {
    await waitFor(actor, settled, { timeout: SETTLE_MS });
  } finally {
    actor.stop();
  }
}

/** Fetches and keeps the three pages' data; resolves when every copy is written. */
export async function prefetchForOffline(): Promise<void> {
  // Everything it runs is imported here, when it runs: a page that loads this module to schedule
  // the work does not download the machines, the API code or the contract's schemas for it.
  const [
    { livePricingMachine },
    { liveCareersMachine, careersInput },
    { liveBlogListMachine, blogListInput },
    pricing,
    jobs,
    blog,
    { coverSources },
  ] = await Promise.all([
    import('../routes/pricing.live'),
    import('../routes/careers.live'),
    import('../routes/blog.live'),
    import('../offline/kept-plans'),
    import('../offline/kept-openings'),
    import('../offline/kept-blog'),
    import('../../contract/blog'),
  ]);
  const writes: Promise<unknown>[] = [];
  const watch = <T>(write: Promise<T>) => {
    writes.push(write);
    return write;
  };
  const quiet = () => {}; // a failure here is not the visitor's concern: the page tries again itself

  await Promise.allSettled([
    runUntil(
      createActor(
        livePricingMachine.provide({
          actors: { keepPlans: fromPromise(({ input }) => watch(pricing.keepPlans(input))) },
          actions: { logFailure: quiet },
        }),
        { input: {} },
      ),
      (s) => !s.hasTag('loading'),
    ),
    runUntil(
      createActor(
        liveCareersMachine.provide({
          actions: {
            keepCopy: (_, { rows, page }) => {
              if (rows.length > 0) void watch(jobs.keepOpenings(rows, page));
            },
            reportFailure: quiet,
          },
        }),
        { input: careersInput() },
      ),
      (s) => s.matches('ready') || s.matches('failed'),
    ),
    runUntil(
      createActor(
        liveBlogListMachine.provide({
          actions: {
            keepCopy: (_, { rows, page }) => {
              void watch(blog.keepBlogPage(page, rows));
              // the covers, at the width a card or a post's page draws on most screens: the worker
              // keeps /media images as they pass (its runtime cache), and offline answers another
              // width of a cover with the one it kept
              const covers = rows.map((row) => coverSources(row.image_url, 'card')?.src ?? row.image_url);
              for (const src of new Set(covers)) {
                if (src?.startsWith('/media/')) void watch(fetch(src, { priority: 'low' } as RequestInit));
              }
            },
            reportFailure: quiet,
          },
        }),
        { input: blogListInput() },
      ),
      (s) => s.matches('ready') || s.matches('failed'),
    ),
  ]);
  await Promise.allSettled(writes);
}

/**
 * Schedules the prefetch for this page: after the service worker is ready, when the browser is
 * idle, on a good connection, and only when the last one is older than `EVERY_MS`.
 */
export function schedulePrefetch(): void {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready.then(() => {
    const run = () => {
      const connection = (navigator as Navigator & { connection?: ConnectionInfo }).connection;
      if (!navigator.onLine || !goodConnection(connection)) return;
      let last: string | null = null;
      try {
        last = localStorage.getItem(LAST_PREFETCH_KEY);
      } catch {
        // storage off: prefetch anyway (the copies live in IndexedDB, which may still work)
      }
      if (!isDue(last, Date.now())) return;
      void prefetchForOffline().then(() => {
        try {
          localStorage.setItem(LAST_PREFETCH_KEY, new Date().toISOString());
        } catch {
          // storage off: the next page load tries again
        }
      });
    };
    if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 10_000 });
    else setTimeout(run, 2000);
  });
}
