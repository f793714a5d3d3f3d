// Prerender step: renders every public route in every language with the
// server-render bundle, inlines the CSS the page needs, preloads the modules hydration needs,
// and records the hashes of inline scripts for the server's Content-Security-Policy.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPageAssembler } from '../common/page-html.mjs';

export async function prerender({ dist, clientDir, pagesDir }) {
  const server = await import(pathToFileURL(path.join(dist, 'server', 'entry-server.js')).href);
  const manifest = JSON.parse(fs.readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8'));
  const templatePath = path.join(clientDir, 'index.html');
  const template = fs.readFileSync(templatePath, 'utf8');
  fs.renameSync(templatePath, path.join(dist, 'template.html'));
  fs.mkdirSync(pagesDir, { recursive: true });

  // The page assembly is shared with the server, which renders blog permalinks on request.
  const { page } = createPageAssembler({ clientDir, template, viteManifest: manifest });

  const routes = {};
  const noindex = [];
  const written = [];
  const languages = server.LANGUAGES.map((l) => l.code);
  const pages = [...server.PUBLIC_PAGES, server.NOT_FOUND_PAGE];
  for (const p of pages) {
    const moduleKey = `src/routes/${p.module}.tsx`;
    if (p !== server.NOT_FOUND_PAGE) routes[p.path] = p.name;
    for (const lang of languages) {
      const result = await server.render(p.path, lang);
      if (lang === languages[0] && result.head?.noindex && p !== server.NOT_FOUND_PAGE) noindex.push(p.path);
      // The catch-all not-found route renders with 200 here; the server answers it with 404.
      if (result.status !== 200) throw new Error(`prerender ${p.path} (${lang}): status ${result.status}`);
      const html = page({ lang, body: result.html, head: result.head, path: p.path, moduleKey, ns: p.ns });
      const out = path.join(pagesDir, lang, `${p.name}.html`);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, html);
      written.push(html);
      // English copies sit in the static folder for the service worker's precache.
      if (lang === 'en' && p !== server.NOT_FOUND_PAGE) fs.writeFileSync(path.join(clientDir, `${p.name}.html`), html);
    }
  }
  const shell = page({ lang: 'en', body: '', head: { title: 'Admin | Manna', description: '' }, path: '/admin', ns: [], shell: true });
  fs.writeFileSync(path.join(pagesDir, 'shell.html'), shell);
  written.push(shell);

  // Hashes of every executable inline script the build emitted (JSON-LD is data, not script).
  const hashes = new Set();
  for (const html of written) {
    for (const m of html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (/type="application\/(ld\+)?json"/.test(m[1])) continue;
      hashes.add(`sha256-${createHash('sha256').update(m[2]).digest('base64')}`);
    }
  }
  const connectSrc = ['VITE_GEO_URL', 'VITE_ADMIN_API_URL', 'VITE_WEBSITE_API_URL', 'VITE_MANUSCRIPT_API_URL', 'VITE_MEDIA_URL']
    .map((k) => process.env[k])
    .filter((v) => v && /^https?:\/\//.test(v))
    .map((v) => new URL(v).origin);
  fs.writeFileSync(
    path.join(pagesDir, 'manifest.json'),
    JSON.stringify(
      { routes, languages, notFound: '404', shell: 'shell.html', cspHashes: [...hashes], connectSrc: [...new Set(connectSrc)], noindex },
      null,
      2,
    ),
  );
  console.log(`prerender: ${pages.length} pages x ${languages.length} languages, ${hashes.size} inline script hashes`);
}
