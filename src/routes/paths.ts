/**
 * Every public route that is prerendered to HTML at build time, in every language.
 * `ns` lists the translation namespaces the page needs besides `common`, so the
 * browser can load them before hydrating.
 */
export interface PublicPage {
  path: string;
  /** File name of the prerendered page (without .html). */
  name: string;
  /** Route module in src/routes (without .tsx), so the build can inline its CSS and preload it. */
  module: string;
  ns: string[];
}

export const COMING_SOON_PATHS = [
  '/help-center',
  '/training',
  '/api-reference',
  '/documentation',
  '/ComingSoon',
];

export const LEGAL_PAGES = [
  'privacy-policy',
  'terms-of-service',
  'cookie-policy',
  'cancellation-refund-policy',
  'shipping-policy',
] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

export const PUBLIC_PAGES: PublicPage[] = [
  { path: '/', name: 'index', module: 'home', ns: ['home'] },
  {
    path: '/manuscript-automation',
    name: 'manuscript-automation',
    module: 'manuscript-automation',
    ns: ['product'],
  },
  { path: '/pricing', name: 'pricing', module: 'pricing', ns: ['pricing'] },
  { path: '/about', name: 'about', module: 'about', ns: ['about'] },
  // 'offline': 'Showing saved copy from {date}' (src/offline); the contact page loads it only when a
  // message is kept on the device ('Waiting to send', the queued toast)
  { path: '/careers', name: 'careers', module: 'careers', ns: ['careers', 'offline'] },
  { path: '/contact', name: 'contact', module: 'contact', ns: ['contact'] },
  { path: '/blog', name: 'blog', module: 'blog', ns: ['blog', 'offline'] },
  ...COMING_SOON_PATHS.map((path) => ({ path, name: path.slice(1), module: 'coming-soon', ns: [] })),
  ...LEGAL_PAGES.map((page) => ({ path: `/${page}`, name: page, module: 'legal', ns: ['legal'] })),
  // The site's one search; rendered on request with its answer (?q=), noindex.
  { path: '/search', name: 'search', module: 'search', ns: ['search'] },
  // Where the service worker sends a page it has not kept (src/sw.ts); noindex.
  { path: '/offline', name: 'offline', module: 'offline', ns: ['offline'] },
];

/** The not-found page is prerendered too and served with status 404. */
export const NOT_FOUND_PAGE: PublicPage = {
  path: '/__not-found__',
  name: '404',
  module: 'not-found',
  ns: [],
};

export function nsForPath(pathname: string): string[] {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const page = PUBLIC_PAGES.find((p) => p.path.toLowerCase() === clean.toLowerCase());
  if (page) return page.ns;
  if (/^\/blog\/[^/]+$/i.test(clean)) return ['blog', 'offline']; // a post's permalink (and its saved copy)
  // a tag's page, a post's preview
  if (/^\/blog\/(tag|preview)\/[^/]+$/i.test(clean)) return ['blog', 'offline'];
  if (/^\/careers\/[^/]+$/i.test(clean)) return ['careers', 'offline']; // an opening's own page
  if (clean === '/admin' || clean.startsWith('/admin/')) return ['admin', 'admin-inbox'];
  return [];
}
