/**
 * The header the service worker's precache sends with each file it fetches (src/sw.ts). A page the
 * server renders on request with its data (/blog, /careers: server/plugins/web.ts) answers such a
 * request with its prerendered copy instead: data kept in the precache would be shown offline as
 * if it were fresh, and never said to be a saved copy.
 */
export const PRECACHE_HEADER = 'x-manna-precache';
