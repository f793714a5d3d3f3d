// What the service worker precaches (used by vite.config.ts for vite-plugin-pwa's injectManifest,
// which scripts/build-pwa.mjs runs after the prerender step). Node built-ins only.
//
// - Every file the public pages can load: JS chunks, CSS, fonts, icons, the web manifest.
// - Every prerendered page's English copy (client/{name}.html) under its clean address:
//   index.html -> "/", about.html -> "/about". The server serves pages by address and never the
//   .html names (server/plugins/web.ts); the worker fetches them without cookies (English).
// - The admin shell (pages/shell.html, the same for every /admin address) under "/admin".
// - Not the chunks only the back office loads (the admin screens, the rich-text editor and the
//   back office's translations): the worker caches those when an admin first opens them, which
//   keeps the precache small.
// - Not the phone-number rules (libphonenumber-js, 120 kB): the Apply form loads them when it first
//   opens, and the worker caches them then; offline without them the form judges a number by its
//   shape and the server checks it in full when the application is sent.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pageAliasTarget } from '../../common/pwa-aliases.mjs';

export const ADMIN_ENTRY = 'src/routes/admin/admin-app.tsx';

/** Globs (relative to the client folder) of everything that may be precached. */
export const PRECACHE_GLOBS = ['**/*.{js,css,html,svg,png,woff2,webmanifest}'];
// Not needed offline: the social preview image (crawlers fetch it). The app icons (78 kB in all)
// are precached: the installed app and its shortcuts show them without a connection.
export const PRECACHE_IGNORES = ['.vite/**', 'sw.js', '**/*.map', 'og-image*.png'];

/** Manifest keys reachable from `starts` through static and dynamic imports, not entering `skip`. */
function reachable(manifest, starts, skip = new Set()) {
  const seen = new Set();
  const queue = [...starts];
  while (queue.length) {
    const key = queue.pop();
    if (seen.has(key) || skip.has(key) || !manifest[key]) continue;
    seen.add(key);
    queue.push(...(manifest[key].imports ?? []), ...(manifest[key].dynamicImports ?? []));
  }
  return seen;
}

function filesOf(manifest, keys) {
  const files = new Set();
  for (const key of keys) {
    const chunk = manifest[key];
    files.add(chunk.file);
    for (const f of chunk.css ?? []) files.add(f);
    for (const f of chunk.assets ?? []) files.add(f);
  }
  return files;
}

/**
 * The translation namespaces only back-office screens use. The i18n loader can reach every
 * namespace from a public page, so the import graph alone would precache them; they are the back
 * office's like its chunks (cached when an admin first opens a screen in that language).
 */
export const ADMIN_NAMESPACES = ['admin', 'admin-inbox', 'blog-admin'];
const ADMIN_LOCALE = new RegExp(`^src/i18n/locales/[^/]+/(${ADMIN_NAMESPACES.join('|')})\\.json$`);

/** Public modules loaded on demand and cached at run time, not precached. */
export const LOADED_ON_DEMAND = ['contract/phone-check.ts'];

/** Files (relative to client/) that only the back office (or a module loaded on demand) loads. */
export function adminOnlyFiles(viteManifest) {
  const adminLocales = Object.keys(viteManifest).filter((k) => ADMIN_LOCALE.test(k));
  const entries = Object.keys(viteManifest).filter((k) => viteManifest[k].isEntry);
  const notPrecached = [ADMIN_ENTRY, ...adminLocales, ...LOADED_ON_DEMAND];
  const publicFiles = filesOf(viteManifest, reachable(viteManifest, entries, new Set(notPrecached)));
  const adminFiles = filesOf(viteManifest, reachable(viteManifest, notPrecached));
  return new Set([...adminFiles].filter((f) => !publicFiles.has(f)));
}

/** The clean address of a prerendered page's English copy, or null for other files. */
export function pageAddress(file) {
  if (!/^[^/]+\.html$/.test(file)) return null;
  const name = file.slice(0, -'.html'.length);
  return name === 'index' ? '/' : `/${name}`;
}

/**
 * A workbox manifestTransform for the built folder `dist`: drops admin-only chunks, turns page
 * copies into clean addresses, adds the admin shell, and makes every address absolute.
 */
export function precacheTransform(dist) {
  return async (entries) => {
    const clientDir = path.join(dist, 'client');
    const viteManifest = JSON.parse(fs.readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8'));
    const adminOnly = adminOnlyFiles(viteManifest);
    const warnings = [];
    const manifest = [];
    for (const entry of entries) {
      if (adminOnly.has(entry.url)) continue;
      const address = pageAddress(entry.url);
      // Pages that are one page under several addresses are precached once (src/sw.ts aliases them).
      if (address && pageAliasTarget(address) !== address) continue;
      manifest.push({ ...entry, url: address ?? `/${entry.url}` });
    }
    const shell = path.join(dist, 'pages', 'shell.html');
    if (fs.existsSync(shell)) {
      const html = fs.readFileSync(shell);
      manifest.push({
        url: '/admin',
        revision: createHash('md5').update(html).digest('hex'),
        size: html.length,
      });
    } else warnings.push('pages/shell.html is missing: the back office will not open offline');
    // Figures for the build log and the budget check (precache at most 2 MB).
    const bytes = manifest.reduce((sum, e) => sum + (e.size ?? 0), 0);
    fs.writeFileSync(
      path.join(dist, 'precache.json'),
      JSON.stringify({ entries: manifest.length, bytes }, null, 2),
    );
    return { manifest, warnings };
  };
}
