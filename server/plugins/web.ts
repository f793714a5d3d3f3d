import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type {} from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import fp from 'fastify-plugin';
import { HtmlEntry } from '../lib/page-render';
import { preferredEncoding } from '../lib/encoding';
import { PRECACHE_HEADER } from '../../contract/precache-header';
import { isLang, localPath } from '../../contract/languages';
import { addressLanguage, cameWithEnglishPrefix } from '../lib/language-address';

/**
 * The built PWA (DIST_DIR, written by `npm run build`):
 *   client/                static files; client/assets/* are content-hashed
 *   pages/manifest.json    which address is which page, the languages, CSP hashes
 *   pages/{lang}/{name}.html, pages/{lang}/{notFound}.html, pages/{shell}
 * Pages go through the page handler below, in the language of their address (`/de/pricing`,
 * lib/language-address.ts; docs/decisions/041-language-addresses.md); `.html` files in client/ are
 * never served directly (they exist for the service worker's precache). Only `/` looks at the
 * visitor: a language chosen before (the `lang` cookie), else the browser's Accept-Language, sends
 * it to that language's home.
 */

const pageName = z.string().regex(/^[\w-]+(\/[\w-]+)*$/, { error: 'expected a page name such as "about"' });

const PagesManifest = z.object({
  routes: z.record(
    z.string().regex(/^\/([\w.-]+(\/[\w.-]+)*)?$/, { error: 'expected an address such as "/about"' }),
    pageName,
  ),
  languages: z.array(z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]+)*$/)).min(1),
  notFound: pageName,
  shell: z.string().regex(/^[\w-]+\.html$/),
  cspHashes: z.array(z.string().regex(/^sha(256|384|512)-[A-Za-z0-9+/]+=*$/)).default([]),
  connectSrc: z.array(z.string().regex(/^[^\s;,']+$/)).default([]),
  /** Addresses of pages that ask not to be indexed (the offline page): left out of the sitemap. */
  noindex: z.array(z.string()).default([]),
});
export type PagesManifest = z.infer<typeof PagesManifest>;

export type WebBuild = { dir: string; manifest: PagesManifest };

/** Reads DIST_DIR/pages/manifest.json; null when there is no build. Throws on a broken manifest. */
export async function readBuild(distDir: string): Promise<WebBuild | null> {
  const file = path.join(distDir, 'pages', 'manifest.json');
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  const result = PagesManifest.safeParse(json);
  if (!result.success) {
    throw new Error(`${file} is not a valid pages manifest:\n${z.prettifyError(result.error)}`);
  }
  return { dir: distDir, manifest: result.data };
}

/** One HTML file in memory: its bytes, a weak ETag of them, and compressed copies made on first use. */
function cachedPage(html: string): HtmlEntry {
  return new HtmlEntry(html, `W/"${createHash('sha1').update(html).digest('base64url').slice(0, 22)}"`);
}

/** The page API on `app.pages`, for routes of later issues (for example a 404 for a missing post). */
export interface Pages {
  /** null when DIST_DIR holds no build. */
  readonly manifest: PagesManifest | null;
  /** The page's language: its address's (`/de/...`) when the build has it, else English. */
  languageOf(request: FastifyRequest): string;
  /** `path` (as English has it) in the language of the page asked for: for a page's redirects. */
  address(request: FastifyRequest, path: string): string;
  /** Sends pages/{lang}/{name}.html. */
  send(reply: FastifyReply, name: string, lang: string, status?: number): Promise<FastifyReply>;
  /** Sends the client-rendered shell (the admin area). */
  sendShell(reply: FastifyReply, status?: number): Promise<FastifyReply>;
  /** Sends the 404 page in the visitor's language with status 404. */
  notFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /** The page handler: the page for the request's address, the shell, or the 404 page. */
  handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /**
   * A page a route renders on request instead of sending its prerendered copy (the blog's first
   * page with its posts): `render` answers, or returns undefined to let the copy go.
   */
  renderOnRequest(path: string, render: PageRender): void;
}

export type PageRender = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

declare module 'fastify' {
  interface FastifyInstance {
    pages: Pages;
  }
}

export type WebOptions = { build: WebBuild | null; publicUrl: string };

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * A path the static file route leaves to other handlers: pages, the API, media, compressed twins,
 * and anything under a dot-folder or dotfile (the build's `.vite/` bookkeeping is not the site's).
 */
function isStaticFilePath(pathname: string): boolean {
  const name = pathname.slice(pathname.lastIndexOf('/') + 1);
  return (
    name.includes('.') &&
    !/\.(html?|br|gz)$/i.test(name) &&
    !/^\/(api|media)(\/|$)/.test(pathname) &&
    !/(^|\/)\./.test(pathname)
  );
}

/** The path part of a request URL, decoded, without a trailing slash (except "/"). */
function pathnameOf(url: string): string | null {
  let pathname = url.split('?', 1)[0];
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

/**
 * The language a visitor asked for without a language address: the one chosen on the site before
 * (the `lang` cookie), else the first of the browser's Accept-Language the site has. Null: none.
 */
export function visitorLanguage(request: FastifyRequest, languages: string[]): string | null {
  const cookie = request.cookies?.lang;
  if (cookie) return languages.includes(cookie) ? cookie : null;
  const asked = (request.headers['accept-language'] ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        /^q=([\d.]+)$/.exec(params.map((p) => p.trim()).find((p) => p.startsWith('q=')) ?? '')?.[1] ?? 1,
      );
      return { lang: tag.trim().toLowerCase().split('-')[0]!, q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((a) => a.q > 0 && a.lang)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return asked.find((a) => languages.includes(a.lang))?.lang ?? null;
}

/** Static files and pages of the built PWA; register it last. */
export const web = fp<WebOptions>(
  async (app, { build, publicUrl }) => {
    if (!build) {
      app.log.warn(
        'The web app is not built (no pages/manifest.json in DIST_DIR); pages answer 503 until `npm run build`',
      );
      const notBuilt = async (reply: FastifyReply) =>
        reply
          .code(503)
          .header('cache-control', 'no-store')
          .send({ message: 'The web app is not built; run npm run build' });
      app.decorate<Pages>('pages', {
        manifest: null,
        languageOf: () => 'en',
        address: (_request, path) => path,
        send: (reply) => notBuilt(reply),
        sendShell: (reply) => notBuilt(reply),
        notFound: (_request, reply) => notBuilt(reply),
        handle: (_request, reply) => notBuilt(reply),
        renderOnRequest: () => {},
      });
      return;
    }

    const { manifest } = build;
    const pagesDir = path.join(build.dir, 'pages');
    const clientDir = path.join(build.dir, 'client');
    const routes = new Map(Object.entries(manifest.routes));
    const routesIgnoringCase = new Map(
      Object.entries(manifest.routes).map(([route, name]) => [route.toLowerCase(), name]),
    );
    const defaultLanguage = manifest.languages.includes('en') ? 'en' : manifest.languages[0];

    const missing = manifest.languages
      .flatMap((lang) =>
        [...new Set([...routes.values(), manifest.notFound])].map((name) => `${lang}/${name}.html`),
      )
      .concat(manifest.shell)
      .filter((file) => !existsSync(path.join(pagesDir, file)));
    if (missing.length > 0) app.log.error({ missing }, 'The web build is incomplete: some pages are missing');

    const cache = new Map<string, Promise<HtmlEntry>>();
    const load = (file: string): Promise<HtmlEntry> => {
      let page = cache.get(file);
      if (!page) {
        page = fs
          .readFile(path.join(pagesDir, file), 'utf8')
          .then((html) => cachedPage(html.replaceAll('%PUBLIC_URL%', publicUrl)));
        page.catch(() => cache.delete(file)); // a failed read is retried on the next request
        cache.set(file, page);
      }
      return page;
    };

    async function sendPage(
      reply: FastifyReply,
      file: string,
      status: number,
      lang?: string,
    ): Promise<FastifyReply> {
      const page = await load(file);
      const { headers } = reply.request;
      reply
        .code(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', (reply.getHeader('vary') as string | undefined) ?? 'Accept-Encoding')
        .header('etag', page.etag);
      if (lang) reply.header('content-language', lang);
      const ifNoneMatch = headers['if-none-match'];
      if (status === 200 && ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === page.etag)) {
        return reply.code(304).send();
      }
      const encoding = preferredEncoding(headers['accept-encoding']);
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(await page.bytes(encoding));
    }

    const rendered = new Map<string, PageRender>();
    const pages: Pages = {
      manifest,
      // kept under the page's name, so every spelling of its address (/Careers, /careers/) is rendered
      renderOnRequest: (pagePath, render) => void rendered.set(routes.get(pagePath) ?? pagePath, render),
      languageOf(request) {
        const lang = addressLanguage(request.raw);
        return manifest.languages.includes(lang) ? lang : defaultLanguage;
      },
      address(request, addressPath) {
        const lang = pages.languageOf(request);
        return isLang(lang) ? localPath(lang, addressPath) : addressPath;
      },
      async send(reply, name, lang, status = 200) {
        // names and languages become file paths: only the build's own
        if (!pageName.safeParse(name).success) throw new Error(`Not a page name: ${name}`);
        const language = manifest.languages.includes(lang) ? lang : defaultLanguage;
        return sendPage(reply, `${language}/${name}.html`, status, language);
      },
      sendShell: (reply, status = 200) => sendPage(reply, manifest.shell, status),
      notFound: (request, reply) => pages.send(reply, manifest.notFound, pages.languageOf(request), 404),
      async handle(request, reply) {
        const pathname = pathnameOf(request.url);
        if (pathname === null) return pages.notFound(request, reply);
        // the home of a visitor who chose a language, or whose browser asks for one
        if (
          pathname === '/' &&
          addressLanguage(request.raw) === defaultLanguage &&
          !request.headers[PRECACHE_HEADER]
        ) {
          reply.header('vary', 'Cookie, Accept-Language, Accept-Encoding');
          const chosen = visitorLanguage(request, manifest.languages);
          if (chosen && chosen !== defaultLanguage && isLang(chosen)) {
            return reply.header('cache-control', 'no-cache').redirect(localPath(chosen, '/'), 302);
          }
        }
        const name = routes.get(pathname) ?? routesIgnoringCase.get(pathname.toLowerCase());
        // the service worker's precache keeps the prerendered copy (contract/precache-header.ts)
        const render = name && !request.headers[PRECACHE_HEADER] ? rendered.get(name) : undefined;
        if (name && render) {
          await render(request, reply);
          // a render that answered has sent the reply: its answer tells nothing, as awaiting a
          // Fastify reply waits for it to be sent and resolves to undefined (the page was sent twice)
          if (reply.sent) return reply;
        }
        if (name) return pages.send(reply, name, pages.languageOf(request));
        if (/^\/admin(\/|$)/i.test(pathname)) return pages.sendShell(reply);
        return pages.notFound(request, reply);
      },
    };
    app.decorate<Pages>('pages', pages);

    // English has no prefix: `/en/pricing` is `/pricing`
    app.addHook('onRequest', async (request, reply) => {
      if (cameWithEnglishPrefix(request.raw)) return reply.redirect(request.url, 301);
    });

    // Known addresses are routes of their own (no file-system lookup on the way); other spellings
    // (trailing slash, letter case) and unknown addresses reach pages.handle via the not-found handler.
    const pageRoute = (request: FastifyRequest, reply: FastifyReply) => pages.handle(request, reply);
    for (const route of new Set([...routes.keys(), '/admin', '/admin/*'])) app.get(route, pageRoute);

    if (existsSync(clientDir)) {
      await app.register(fastifyStatic, {
        root: clientDir,
        prefix: '/',
        wildcard: true,
        index: false,
        redirect: false,
        preCompressed: true,
        cacheControl: false,
        // anything else (pages, unknown files) falls through to the not-found handler -> pages.handle
        allowedPath: (pathname) => isStaticFilePath(pathname),
        setHeaders: (reply, file) => {
          // with preCompressed, `file` may be the .br/.gz twin: decide on the original name
          const relative = path.relative(clientDir, file.replace(/\.(br|gz)$/, ''));
          reply.header('cache-control', relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
        },
      });
    }
  },
  { name: 'web' },
);
