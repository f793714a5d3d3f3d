/**
 * Names of the service worker's caches that pages also read. One place, so the page that lists
 * the copies kept on this device (offline/device-copies.ts) and the worker (sw.ts) agree.
 */

/** Runtime copies of pages, one cache per build: `${PAGES_CACHE_PREFIX}<build id>`. */
export const PAGES_CACHE_PREFIX = 'manna-pages-';
