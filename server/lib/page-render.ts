import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createPageAssembler, escapeHtml, safeJson, type HeadData } from '../../common/page-html.mjs';
import { preferredEncoding } from './encoding';

/**
 * Pages rendered on request (blog permalinks), with the same server-render bundle and the same
 * page assembly as the prerender step: `DIST_DIR/server/entry-server.js`
 * renders the route, common/page-html.mjs wraps it in the built template with its head tags,
 * inlined CSS, preloads and page data. `%PUBLIC_URL%` is filled in as for prerendered pages.
 */

interface ServerBundle {
  render(
    url: string,
    lang: string,
    data?: unknown,
  ): Promise<{ html: string; head: HeadData | undefined; status: number }>;
}

export interface RenderedPage {
  status: number;
  html: string;
  head: HeadData | undefined;
}

export interface PageRenderer {
  /** Changes with every build: part of every cache key and ETag of rendered pages. */
  readonly buildId: string;
  /** Loads the bundle ahead of the first page (answers when loaded; never throws). */
  warm(): Promise<void>;
  render(input: {
    url: string;
    lang: string;
    /** The route module, for its CSS and modulepreload links: 'src/routes/blog-post.tsx'. */
    moduleKey: string;
    ns: string[];
    data?: unknown;
    /** Images the page shows first (preloaded with high priority), with their widths if any. */
    preloadImages?: (string | { src: string; srcset: string; sizes: string })[];
  }): Promise<RenderedPage>;
}

/** The renderer of the build in `distDir`, or null when there is no (complete) build. */
export async function createPageRenderer(distDir: string, publicUrl: string): Promise<PageRenderer | null> {
  const templateFile = path.join(distDir, 'template.html');
  const manifestFile = path.join(distDir, 'client', '.vite', 'manifest.json');
  const bundleFile = path.join(distDir, 'server', 'entry-server.js');
  let template: string;
  let manifestText: string;
  try {
    [template, manifestText] = await Promise.all([
      fs.readFile(templateFile, 'utf8'),
      fs.readFile(manifestFile, 'utf8'),
    ]);
    await fs.access(bundleFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const buildId = createHash('sha1').update(template).update(manifestText).digest('base64url').slice(0, 16);
  const { page } = createPageAssembler({
    clientDir: path.join(distDir, 'client'),
    template,
    viteManifest: JSON.parse(manifestText) as Record<string, unknown>,
  });
  let bundle: Promise<ServerBundle> | undefined;
  const loadBundle = () => {
    // loaded on first use: a server that never renders a permalink never pays for it
    bundle ??= import(pathToFileURL(bundleFile).href) as Promise<ServerBundle>;
    bundle.catch(() => (bundle = undefined));
    return bundle;
  };

  return {
    buildId,
    warm: () =>
      loadBundle().then(
        () => undefined,
        () => undefined,
      ),
    async render({ url, lang, moduleKey, ns, data, preloadImages }) {
      const { render } = await loadBundle();
      const result = await render(url, lang, data);
      const html = page({
        lang,
        body: result.html,
        head: result.head,
        path: url,
        moduleKey,
        ns,
        data,
        preloadImages,
      }).replaceAll('%PUBLIC_URL%', () => publicUrl);
      return { status: result.status, html, head: result.head };
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** An HTML document kept in memory with its ETag and compressed copies made on first use. */
export class HtmlEntry {
  private readonly encoded = new Map<'br' | 'gzip', Promise<Buffer>>();
  readonly body: Buffer;

  constructor(
    html: string,
    readonly etag: string,
  ) {
    this.body = Buffer.from(html);
  }

  bytes(encoding: 'br' | 'gzip' | 'identity'): Promise<Buffer> {
    if (encoding === 'identity') return Promise.resolve(this.body);
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes =
        encoding === 'br'
          ? brotli(this.body, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.body.length,
              },
            })
          : gzip(this.body, { level: 9 });
      this.encoded.set(encoding, bytes);
    }
    return bytes;
  }
}

/** A weak ETag made of a page's parts (build, record versions, language). */
export const pageEtag = (version: string) =>
  `W/"${createHash('sha1').update(version).digest('base64url').slice(0, 22)}"`;

/** Whether the request's If-None-Match names `etag`. */
export const revalidates = (request: FastifyRequest, etag: string) =>
  !!etag && (request.headers['if-none-match'] ?? '').split(',').some((tag) => tag.trim() === etag);

/**
 * Sends a page rendered on request (a blog permalink or list, a job page): HTML in `lang`, to be
 * revalidated on each visit (304 when the ETag still matches), compressed as the client accepts.
 */
export async function sendPageHtml(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: HtmlEntry,
  lang: string,
) {
  reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'Cookie, Accept-Encoding')
    .header('content-language', lang);
  if (entry.etag) {
    reply.header('etag', entry.etag);
    if (revalidates(request, entry.etag)) return reply.code(304).send();
  }
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(await entry.bytes(encoding));
}

/**
 * Sends a page rendered with data read for this request (a list's rows, a country's plans, an
 * opening): `sendRecordPage` with the version made of the build, the page's address, its language,
 * `parts` (what else picks the page: its page number, the country) and a hash of the data, so the
 * same data in another process answers the same ETag and changed data is a new page.
 */
export function sendDataPage(
  request: FastifyRequest,
  reply: FastifyReply,
  o: {
    renderer: PageRenderer;
    cache: Lru<HtmlEntry>;
    lang: string;
    parts?: (string | number)[];
    page: Omit<Parameters<PageRenderer['render']>[0], 'lang'>;
    fallback: () => Promise<FastifyReply>;
  },
) {
  const contents = createHash('sha1').update(JSON.stringify(o.page.data)).digest('base64url');
  return sendRecordPage(request, reply, {
    cache: o.cache,
    version: [o.renderer.buildId, o.page.url, o.lang, ...(o.parts ?? []), contents].join('|'),
    lang: o.lang,
    render: () => o.renderer.render({ ...o.page, lang: o.lang }),
    fallback: o.fallback,
  });
}

/**
 * Sends the page of one record's version (a blog permalink, a job page): the rendering kept under
 * `version` in `cache`; else a 304 when the client holds that version already (another process, or
 * an earlier life of this one, rendered it: the ETag is made of the same parts everywhere); else
 * rendered now and kept. A rendering with another status than 200 is logged and answered by
 * `fallback` (the site's 404 page).
 */
export async function sendRecordPage(
  request: FastifyRequest,
  reply: FastifyReply,
  o: {
    cache: Lru<HtmlEntry>;
    version: string;
    lang: string;
    render: () => Promise<RenderedPage>;
    fallback: () => Promise<FastifyReply>;
  },
) {
  const etag = pageEtag(o.version);
  let entry = o.cache.get(o.version);
  if (!entry) {
    if (revalidates(request, etag)) {
      reply
        .header('etag', etag)
        .header('cache-control', 'no-cache')
        .header('vary', 'Cookie, Accept-Encoding');
      return reply.code(304).send();
    }
    const page = await o.render();
    if (page.status !== 200) {
      request.log.error({ status: page.status, url: request.url }, 'Page rendered with an unexpected status');
      return o.fallback();
    }
    entry = new HtmlEntry(page.html, etag);
    o.cache.set(o.version, entry);
  }
  return sendPageHtml(request, reply, entry, o.lang);
}

const PLACEHOLDER = 'zz0manna0slug0placeholder0zz';

/**
 * The "not found" page of a route whose last segment is anything a visitor can type (a blog post,
 * a job page): `render` draws it for a placeholder segment once per build and language, and each
 * answer puts the asked segment in its place, in the page data's `dataKey` (as JSON) and in
 * addresses (percent-encoded, escaped), so the browser hydrates the route for its own address.
 */
export function missingPages(
  renderer: PageRenderer,
  dataKey: string,
  render: (segment: string, lang: string) => Promise<RenderedPage>,
): (segment: string, lang: string) => Promise<string> {
  const pages = new Map<string, Promise<string>>();
  return async (segment, lang) => {
    const key = `${renderer.buildId}|${lang}`;
    let page = pages.get(key);
    if (!page) {
      page = render(PLACEHOLDER, lang).then((p) => p.html);
      page.catch(() => pages.delete(key));
      pages.set(key, page);
    }
    const html = await page;
    // functions as replacements: a `$'`, `` $` ``, `$&` or `$1` in the address is text, never a
    // pattern that splices parts of the page into itself
    const json = `"${dataKey}":${safeJson(segment)}`;
    const shown = escapeHtml(encodeURIComponent(segment));
    return html.replaceAll(`"${dataKey}":"${PLACEHOLDER}"`, () => json).replaceAll(PLACEHOLDER, () => shown);
  };
}

/** A small least-recently-used map. */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}
