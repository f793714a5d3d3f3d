import { PAGES_CACHE_PREFIX } from './cache-names';
import { pendingCount } from './send-queue';

/** A page this device keeps, with its title. */
export interface SavedPage {
  path: string;
  title: string;
}

/** What this device keeps beyond the precached pages: pages read, and submissions waiting. */
export interface DeviceCopies {
  pages: SavedPage[];
  waiting: number;
}

const MAX_LISTED = 50;

function titleOf(html: string, fallback: string): string {
  const raw = /<title>([^<]*)<\/title>/i.exec(html)?.[1];
  if (!raw) return fallback;
  const text = new DOMParser().parseFromString(`<p>${raw}</p>`, 'text/html').body.textContent ?? '';
  return text.replace(/\s*\|\s*Manna\s*$/, '').trim() || fallback;
}

/**
 * Pages read while online that are not among `fixedPaths`, the precached public pages (blog posts,
 * for example; the caller names them, so offline/ needs nothing of the routes),
 * newest build first, with their titles; and how many submissions wait in the send queue.
 */
export async function loadDeviceCopies(fixedPaths: readonly string[]): Promise<DeviceCopies> {
  const fixed = new Set(fixedPaths.map((p) => p.toLowerCase()));
  fixed.add('/offline');
  const pages = new Map<string, SavedPage>();
  if (typeof caches !== 'undefined') {
    const names = (await caches.keys()).filter((n) => n.startsWith(PAGES_CACHE_PREFIX));
    for (const name of names) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const path = new URL(request.url).pathname;
        if (fixed.has(path.toLowerCase()) || pages.has(path) || pages.size >= MAX_LISTED) continue;
        const response = await cache.match(request);
        if (!response) continue;
        pages.set(path, { path, title: titleOf(await response.text(), path) });
      }
    }
  }
  const waiting = await pendingCount().catch(() => 0);
  return { pages: [...pages.values()].sort((a, b) => a.title.localeCompare(b.title)), waiting };
}
