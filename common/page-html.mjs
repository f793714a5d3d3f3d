// Assembles the HTML of one page around a server render: head tags (title, description, canonical,
// Open Graph, JSON-LD), the CSS the page needs inlined, the boot script that starts the app after
// the first paint (with the modules hydration needs), and optional page data for hydration. Used at build time by
// scripts/prerender.mjs (every public page) and at run time by the server (blog permalinks,
// server/lib/page-render.ts), so both produce the same document. Node built-ins only.
import fs from 'node:fs';
import path from 'node:path';

export const escapeHtml = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

// JSON inside <script> must not close the element (nor open a comment).
export const safeJson = (v) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The one inline script of a public page. It starts the app (the entry module and, first,
 * modulepreload links for the chunks this page needs, both read from its data attributes) only once
 * the browser has presented the first contentful paint of the prerendered HTML, or at once when the
 * page is not visible (a background tab paints nothing) or the visitor touches, clicks or types
 * first, or after 3 s at the latest; never before the document has been parsed (a module script
 * added by a script runs as soon as it arrives, and the app needs the whole #root). A module script
 * in the head would otherwise be fetched with the HTML and, on a fast connection, run before the
 * first paint, so the paint would wait for the JavaScript and Lighthouse (which models the page from
 * what finished before its largest paint) would count the whole bundle as render-blocking: LCP 2.0 s
 * instead of 0.9 s on the mobile profile (bench/README.md). Constant text, so its CSP hash is too
 * (collected by scripts/prerender.mjs into pages/manifest.json, and valid for the server's pages).
 */
export const BOOT_SCRIPT =
  "(function(){var s=document.currentScript,d=s.dataset,done=0;function go(){if(done)return;done=1;if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',start);else start()}function start(){var f=document.createDocumentFragment();d.preload.split(' ').forEach(function(h){if(h){var l=document.createElement('link');l.rel='modulepreload';l.href=h;f.appendChild(l)}});var e=document.createElement('script');e.type='module';e.src=d.entry;f.appendChild(e);document.head.appendChild(f)}if(document.visibilityState!=='visible'||!window.PerformanceObserver)return go();['pointerdown','keydown','touchstart'].forEach(function(t){addEventListener(t,go,{once:true,capture:true,passive:true})});try{new PerformanceObserver(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();setTimeout(go,0)}}).observe({type:'paint',buffered:true})}catch(x){return go()}setTimeout(go,3000)})()";

/** The id of the `<script type="application/json">` that carries page data for hydration. */
export const PAGE_DATA_ID = 'page-data';

/**
 * @param {{ clientDir: string, template: string, viteManifest: Record<string, any> }} options
 *   clientDir: the built static folder (CSS files are read from it); template: the built
 *   index.html; viteManifest: client/.vite/manifest.json.
 */
/**
 * The site's languages (contract/languages.ts LANG_CODES; a test keeps the two lists the same) and
 * their Open Graph locales. English is at the unprefixed address, the others under their code
 * (docs/decisions/041-language-addresses.md).
 */
export const LANGUAGES = ['en', 'ml', 'fr', 'de', 'es'];
const OG_LOCALES = { en: 'en_US', ml: 'ml_IN', fr: 'fr_FR', de: 'de_DE', es: 'es_ES' };

/** A page's address in a language: '/pricing' -> '/de/pricing', '/' -> '/de'. */
export function languagePath(lang, pagePath) {
  if (lang === 'en') return pagePath;
  return pagePath === '/'
    ? `/${lang}`
    : pagePath.startsWith('/?')
      ? `/${lang}${pagePath.slice(1)}`
      : `/${lang}${pagePath}`;
}

export function createPageAssembler({ clientDir, template, viteManifest: manifest }) {
  const entry = manifest['index.html'];
  const cssCache = new Map();
  const readCss = (file) => {
    if (!cssCache.has(file)) cssCache.set(file, fs.readFileSync(path.join(clientDir, file), 'utf8'));
    return cssCache.get(file);
  };

  /** Every chunk a manifest entry statically imports, itself included. */
  function closure(key, seen = new Set()) {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return seen;
    seen.add(key);
    for (const dep of chunk.imports ?? []) closure(dep, seen);
    return seen;
  }
  const entryChunks = closure('index.html');

  function assetsFor(moduleKeys) {
    const css = new Set(entry.css ?? []);
    const preload = new Set();
    for (const key of moduleKeys) {
      for (const k of closure(key)) {
        const chunk = manifest[k];
        for (const c of chunk.css ?? []) css.add(c);
        if (!entryChunks.has(k)) preload.add(chunk.file);
      }
    }
    return { css: [...css], preload: [...preload] };
  }

  const localeKey = (lang, ns) => `src/i18n/locales/${lang}/${ns}.json`;

  /**
   * One HTML document. `path` is the page's address (percent-encoded where needed); `%PUBLIC_URL%`
   * is left for the server to fill in. `data` (optional) is embedded as JSON for hydration;
   * `preloadImages` (optional) are fetched early with high priority (a post's cover, the LCP):
   * addresses, or `{ src, srcset, sizes }` for an image drawn from a set of widths.
   */
  function page({
    lang,
    body,
    head,
    path: pagePath,
    moduleKey,
    ns = [],
    shell = false,
    data,
    preloadImages = [],
  }) {
    const keys = [];
    if (moduleKey) keys.push(moduleKey);
    const langs = lang === 'en' ? ['en'] : [lang, 'en'];
    for (const l of langs)
      for (const n of ['common', ...ns]) if (manifest[localeKey(l, n)]) keys.push(localeKey(l, n));
    const { css, preload } = assetsFor(keys.filter((k) => manifest[k]));
    const title = head?.title ?? 'Manna';
    const description = head?.description ?? '';
    // a page may name another address as the original (a blog post's canonical override); else
    // the page's address in its own language (docs/decisions/041-language-addresses.md)
    const canonical = head?.canonical
      ? escapeHtml(head.canonical)
      : `%PUBLIC_URL%${escapeHtml(languagePath(lang, pagePath))}`;
    // the same page in every language, and English as the default for everyone else
    const alternates =
      shell || head?.noindex || head?.canonical
        ? []
        : [
            ...LANGUAGES.map(
              (l) =>
                `<link rel="alternate" hreflang="${l}" href="%PUBLIC_URL%${escapeHtml(languagePath(l, pagePath))}" />`,
            ),
            `<link rel="alternate" hreflang="x-default" href="%PUBLIC_URL%${escapeHtml(languagePath('en', pagePath))}" />`,
          ];
    const image = head?.image
      ? /^https?:\/\//.test(head.image)
        ? escapeHtml(head.image)
        : `%PUBLIC_URL%${escapeHtml(head.image)}`
      : '%PUBLIC_URL%/og-image.png';
    const tags = [
      `<title>${escapeHtml(title)}</title>`,
      description && `<meta name="description" content="${escapeHtml(description)}" />`,
      head?.noindex || shell
        ? '<meta name="robots" content="noindex" />'
        : `<link rel="canonical" href="${canonical}" />`,
      ...alternates,
      !shell && `<meta property="og:site_name" content="Manna" />`,
      !shell && `<meta property="og:type" content="${head?.type === 'article' ? 'article' : 'website'}" />`,
      !shell && `<meta property="og:title" content="${escapeHtml(title)}" />`,
      !shell && description && `<meta property="og:description" content="${escapeHtml(description)}" />`,
      !shell && !head?.noindex && `<meta property="og:url" content="${canonical}" />`,
      !shell && `<meta property="og:image" content="${image}" />`,
      !shell && `<meta property="og:locale" content="${OG_LOCALES[lang] ?? escapeHtml(lang)}" />`,
      ...(shell || head?.noindex
        ? []
        : LANGUAGES.filter((l) => l !== lang).map(
            (l) => `<meta property="og:locale:alternate" content="${OG_LOCALES[l]}" />`,
          )),
      !shell && `<meta name="twitter:card" content="summary_large_image" />`,
      !shell && `<meta name="twitter:title" content="${escapeHtml(title)}" />`,
      !shell && description && `<meta name="twitter:description" content="${escapeHtml(description)}" />`,
      ...(head?.jsonLd ?? []).map((d) => `<script type="application/ld+json">${safeJson(d)}</script>`),
      data !== undefined && `<script type="application/json" id="${PAGE_DATA_ID}">${safeJson(data)}</script>`,
      // an image with its widths names them, as its <img> does, so the preload is the one it uses
      ...preloadImages.map((image) => {
        const { src, srcset, sizes } = typeof image === 'string' ? { src: image } : image;
        const widths = srcset
          ? ` imagesrcset="${escapeHtml(srcset)}" imagesizes="${escapeHtml(sizes ?? '100vw')}"`
          : '';
        return `<link rel="preload" as="image" href="${escapeHtml(src)}"${widths} fetchpriority="high" />`;
      }),
      // the back office (shell) has no prerendered paint to wait for: its modules load at once
      ...(shell ? preload.map((f) => `<link rel="modulepreload" href="/${f}" />`) : []),
      `<style>${css.map(readCss).join('\n')}</style>`,
      // The files of the CSS inlined above, as links that are never fetched (disabled). Vite's
      // loader of lazy chunks adds a chunk's stylesheet unless a link to it is in the document;
      // without these it would add them again after hydration, later in the head than the global
      // rules, and a rule of equal weight would change sides (/careers moved 24 px: CLS 0.014).
      ...css.map((f) => `<link rel="stylesheet" href="/${f}" disabled />`),
    ].filter(Boolean);
    const bootTag = (entryTag) => {
      const src = /\ssrc="([^"]+)"/.exec(entryTag)?.[1];
      if (!src) throw new Error(`page-html: no src in the entry script ${entryTag}`);
      const preloads = preload.map((f) => `/${f}`).join(' ');
      return `<script data-entry="${escapeHtml(src)}" data-preload="${escapeHtml(preloads)}">${BOOT_SCRIPT}</script>`;
    };

    return (
      template
        .replace('<html lang="en">', `<html lang="${escapeHtml(lang)}">`)
        // the back office installs as its own app (scripts/build-pwa.mjs ADMIN_MANIFEST)
        .replace(
          'href="/manifest.webmanifest"',
          shell ? 'href="/admin.webmanifest"' : 'href="/manifest.webmanifest"',
        )
        // CSS is inlined below; the entry's stylesheet link would only block rendering.
        .replace(/\s*<link rel="stylesheet"[^>]*>/g, '')
        // the back office's shell has no #main until the client renders it: nothing to wait for
        // (Chromium warns of an expected element it never found)
        .replace(/\s*<link rel="expect"[^>]*>/, (tag) => (shell ? '' : tag))
        .replace(/<script type="module" crossorigin[^>]*><\/script>/, (tag) => (shell ? tag : bootTag(tag)))
        // functions as replacements, so a `$&` in the page text stays text
        .replace('<!--app-head-->', () => tags.join('\n    '))
        .replace('<!--app-html-->', () => body)
    );
  }

  return { page };
}
