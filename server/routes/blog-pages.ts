import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BlogListQuery, COVER_SIZES, SLUG_MAX, SLUG_PATTERN, coverSources } from '../../contract/blog';
import {
  imageUrlOf,
  listPublished,
  permalinkPath,
  publishedTagName,
  tagsInUse,
  previewedPost,
  previewPath,
  publishedBySlug,
  publishedPermalinks,
  redirectedSlug,
  toRow,
  type BlogPost,
} from '../services/blog';
import { blogFeed, type BlogFeed } from '../services/blog-feed';
import {
  createPageRenderer,
  HtmlEntry,
  Lru,
  missingPages,
  revalidates,
  sendRecordPage,
  sendPageHtml,
} from '../lib/page-render';
import { sanitizeBlogText } from '../lib/rich-text';
import { addSitemapSource } from '../lib/sitemap';
import { framedBySelf } from '../plugins/security';

/** The editor's live preview (src/routes/blog-preview.tsx LIVE_PREVIEW). */
const LIVE_PREVIEW = 'live';

/**
 * Blog addresses outside /api:
 * - `/blog/{slug}`: the permalink page of a published post, rendered on request with the built
 *   server-render bundle (server/lib/page-render.ts) in the visitor's language. Each rendering is
 *   kept in memory under (build, post, updated_at, language), and its ETag is made of the same
 *   parts, so every process of the site answers the same ETag for the same version and a
 *   revalidation is a 304 without rendering.
 * - `/blog/rss.xml`: RSS 2.0 of the newest published posts.
 * - An address a published post had before its slug was edited: 301 to its address now.
 * - `/blog/tag/{tag}` and `/blog/tag/{tag}/rss.xml`: a tag's page (rendered with its name) and feed.
 * - `/blog/preview/{token}`: a share preview (services/blog.ts `shareLink`), the post whatever its
 *   status, rendered like a permalink but never kept, cached or indexed; 404 once it expired.
 * An unknown or unpublished slug gets the blog's own 'not found' page (status 404), rendered by the
 * same route, so the browser hydrates what the server rendered. Any address can be asked for, so
 * that page is rendered once per language (with a placeholder slug) and each answer puts the
 * asked slug in its place; and /blog/* has a per-client limit (RATE_LIMIT_PAGE_RENDERS_PER_MIN).
 */
export const prefix = '';

const PAGE_CACHE_ENTRIES = 300;

/** A sitemap holds at most 50,000 addresses; the newest posts fill what the pages leave. */
export const SITEMAP_POSTS = 45_000;

// Every published post is in /sitemap.xml (routes/seo.ts), with its last change.
addSitemapSource('blog', async (app) =>
  (await publishedPermalinks(app.services(), SITEMAP_POSTS)).map((p) => ({
    path: `/blog/${p.slug}`,
    lastmod: p.updated_at,
  })),
);
// and every tag page
addSitemapSource('blog-tags', async (app) =>
  (await tagsInUse(app.services(), true)).map((tag) => ({
    path: `/blog/tag/${encodeURIComponent(tag.slug)}`,
  })),
);

/**
 * The preload of a page's first cover: its widths where it has them (as its <img> names them),
 * else its address; only what the page's CSP lets it load (this site or https).
 */
const preloadOf = (image: string | null | undefined, where: keyof typeof COVER_SIZES) =>
  image && /^(\/|https:\/\/)/i.test(image) ? [coverSources(image, where) ?? image] : [];

const blogPages: FastifyPluginAsyncZod = async (app) => {
  const renderer = await createPageRenderer(app.config.DIST_DIR, app.config.PUBLIC_URL);
  const cache = new Lru<HtmlEntry>(PAGE_CACHE_ENTRIES);
  // load the render bundle once the server is up, so the first reader of a post does not wait for it
  app.addHook('onReady', async () => {
    if (renderer) setImmediate(() => void renderer.warm());
  });

  /**
   * The post as the page shows it: content sanitised again at render time. The image stays
   * site-relative for the <img> (the page's own origin, whatever address it was reached by); the
   * page makes it absolute for Open Graph and JSON-LD.
   */
  const pageRow = (post: BlogPost) => ({ ...toRow(post), content: sanitizeBlogText(post.content) });

  /** A feed (services/blog-feed.ts), or 304 when the reader holds its version. */
  function sendFeed(request: FastifyRequest, reply: FastifyReply, feed: BlogFeed) {
    reply
      .header('content-type', 'application/rss+xml; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('etag', feed.etag);
    return revalidates(request, feed.etag) ? reply.code(304).send() : reply.send(feed.render());
  }

  app.get('/blog/rss.xml', async (request, reply) =>
    sendFeed(request, reply, await blogFeed(app.services())),
  );

  /**
   * `/blog/tag/{tag}` (`rest` is 'tag/{tag}' or 'tag/{tag}/rss.xml'): the tag's page, rendered with
   * its name (its posts load as /blog's do), or its feed; 404 when no published post has the tag.
   */
  async function sendTag(request: FastifyRequest, reply: FastifyReply, rest: string) {
    const m = /^tag\/([^/]+?)(\/rss\.xml)?\/?$/.exec(rest);
    let tag: string | undefined;
    try {
      tag = m ? decodeURIComponent(m[1]) : undefined;
    } catch {
      tag = undefined;
    }
    const name =
      tag && Array.from(tag).length <= SLUG_MAX && SLUG_PATTERN.test(tag)
        ? await publishedTagName(app.services(), tag)
        : undefined;
    if (!tag || !name) return app.pages.notFound(request, reply);
    if (m![2]) return sendFeed(request, reply, await blogFeed(app.services(), { slug: tag, name }));
    if (!renderer) return app.pages.notFound(request, reply);
    return sendListPage(request, reply, `/blog/tag/${encodeURIComponent(tag)}`, { tag, tagName: name });
  }

  /**
   * A page of the blog list (`/blog`, a tag's page) rendered with its first ten posts in the HTML
   * (docs/decisions/025-blog-publishing.md): what the browser shows first is final, and hydration starts from the same rows.
   * The rows are read each time (the public-read cache's); the HTML is kept per build, language
   * and the rows' versions, and its ETag is made of them (lib/page-render.ts `sendRecordPage`).
   */
  async function sendListPage(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    of: { tag?: string; tagName?: string },
  ) {
    const q = BlogListQuery.parse(of.tag ? { tag: of.tag } : {});
    const rows = await listPublished(app.services(), q);
    const lang = app.pages.languageOf(request);
    return sendRecordPage(request, reply, {
      cache,
      version: [
        renderer!.buildId,
        path,
        of.tagName ?? '',
        lang,
        ...rows.map((r) => `${r.blog_id}:${r.updated_at}:${r.author_name ?? ''}`),
        rows[0]?.total_count ?? 0,
      ].join('|'),
      lang,
      render: () =>
        renderer!.render({
          url: path,
          lang,
          moduleKey: 'src/routes/blog.tsx',
          ns: ['blog', 'offline'],
          data: { ...of, blogRows: rows.map((row) => ({ ...row, content: sanitizeBlogText(row.content) })) },
          // the first cover is the page's largest paint on a wide screen
          preloadImages: preloadOf(rows[0]?.image_url, 'card'),
        }),
      fallback: () => app.pages.notFound(request, reply),
    });
  }

  // /blog itself: its first page with its posts, whatever the query (a campaign's utm_* words; the
  // list's later pages are not in the address)
  app.addHook('onReady', async () => {
    app.pages.renderOnRequest('/blog', async (request, reply) => {
      if (!renderer) return undefined;
      return sendListPage(request, reply, '/blog', {});
    });
  });

  /** Renders the permalink of `slug` with `post` (null: the blog's own 'not found' page), or its share preview. */
  function renderPermalink(slug: string, lang: string, post: BlogPost | null, preview?: string) {
    const image = post ? imageUrlOf(post.featured_image_url) : null;
    return renderer!.render({
      url: preview ? previewPath(preview) : permalinkPath(slug),
      lang,
      moduleKey: preview ? 'src/routes/blog-preview.tsx' : 'src/routes/blog-post.tsx',
      ns: ['blog', 'offline'],
      data: { blogPost: post ? pageRow(post) : null, slug, ...(preview && { preview }) },
      // the cover is the page's largest paint: fetch it with the page, not after the CSS
      // (only what the page's CSP lets it load: this site or https)
      preloadImages: preloadOf(image, 'post'),
    });
  }

  // Every /blog/<one segment> is the permalink route of the app (blog/:slug), so it is rendered
  // here, found or not: the browser then hydrates the same route the server rendered. (A wildcard,
  // not :slug, so that no length limit sends a long address past this handler.)
  // The 'not found' page per language, rendered once with this slug in place of the asked one.
  const notFoundPage = renderer
    ? missingPages(renderer, 'slug', (slug, lang) => renderPermalink(slug, lang, null))
    : undefined;

  app.get('/blog/*', { config: { rateLimit: app.pageRenderRateLimit } }, async (request, reply) => {
    // segments as the browser's router counts them: on the raw address (an encoded '/' stays in its segment)
    const rest = request.url.split('?', 1)[0].replace(/^\/blog\//, '');
    if (rest === '') return app.pages.handle(request, reply); // '/blog/': the blog page
    let slug: string;
    try {
      slug = decodeURIComponent(rest.replace(/\/$/, ''));
    } catch {
      return app.pages.notFound(request, reply);
    }
    if (/^[^/]+\/$/.test(rest)) return reply.redirect(app.pages.address(request, permalinkPath(slug)), 301); // one address
    if (rest.startsWith('preview/') && app.pages.manifest && renderer)
      return sendPreview(request, reply, slug);
    if (rest.startsWith('tag/') && app.pages.manifest) return sendTag(request, reply, rest);
    if (rest.includes('/') || !app.pages.manifest || !renderer) return app.pages.notFound(request, reply);
    const lang = app.pages.languageOf(request);
    const post =
      Array.from(slug).length <= SLUG_MAX * 2 && SLUG_PATTERN.test(slug)
        ? await publishedBySlug(app.services(), slug)
        : undefined;

    if (!post) {
      // an address the post had before its slug was edited
      const moved = SLUG_PATTERN.test(slug) ? await redirectedSlug(app.services(), slug) : undefined;
      if (moved) return reply.redirect(app.pages.address(request, permalinkPath(moved)), 301);
      return sendPageHtml(request, reply.code(404), new HtmlEntry(await notFoundPage!(slug, lang), ''), lang);
    }

    return sendRecordPage(request, reply, {
      cache,
      version: `${renderer.buildId}|${post.blog_id}|${post.updated_at}|${lang}`,
      lang,
      render: () => renderPermalink(post.slug, lang, post),
      fallback: () => app.pages.notFound(request, reply),
    });
  });

  /**
   * `/blog/preview/<token>` (`path` is 'preview/<token>'): the post of a valid share link, else
   * 404; `/blog/preview/live`: the page the blog editor frames and fills with what it holds (no
   * post from here), the one page this site lets itself frame.
   */
  async function sendPreview(request: FastifyRequest, reply: FastifyReply, path: string) {
    const token = path.slice('preview/'.length);
    const live = token === LIVE_PREVIEW;
    const post =
      !live && /^[\w.-]{1,300}$/.test(token) ? await previewedPost(app.services(), token) : undefined;
    reply.header('x-robots-tag', 'noindex, nofollow').header('referrer-policy', 'no-referrer');
    if (!post && !live) return app.pages.notFound(request, reply);
    if (live) framedBySelf(reply);
    const lang = app.pages.languageOf(request);
    const page = await renderPermalink(post?.slug ?? '', lang, post ?? null, token);
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('content-language', lang);
    return reply.send(page.html);
  }
};

export default blogPages;
