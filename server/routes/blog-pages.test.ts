import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, updatePost, getPost, type PostInput } from '../db/blog.repo';
import seedBlog from '../db/seed/50-blog.seed';
import { previewedPost, shareLink } from '../services/blog';
import { createTestApp } from '../testing';
import { COVER_SIZES } from '../../contract/blog';
import { BOOT_SCRIPT } from '../../common/page-html.mjs';
import { expectAnsweredOnce, fakeBuild } from '../lib/fake-build.testing';

const POST: PostInput = {
  title: 'Letters </script><script>alert(1)</script> & "quotes"',
  excerpt: 'An excerpt with <b>tags</b> that stay text',
  content: '<p>Body <strong>bold</strong></p><script>alert(2)</script><img src=x onerror=alert(3)>',
  publication_date: 'August 6, 2025',
  publication_day: '2025-08-06',
  read_time: '5 min read',
  featured_image_url: 'https://images.example.org/letter.png',
  status: 'Published',
};

let dist: string;
let dataDir: string;
let app: FastifyInstance;
let slug: string;
/** What the server logged at warn and above. */
const logged: string[] = [];

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'manna-fake-dist-'));
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'manna-blog-pages-'));
  await fakeBuild(dist);
  app = await createTestApp(
    { DIST_DIR: dist, DATA_DIR: dataDir, PUBLIC_URL: 'https://www.manna.example', LOG_LEVEL: 'warn' },
    { write: (line: string) => void logged.push(line) },
  );
  await seedBlog(app.db, app.config);
  slug = (await createPost(app.db, POST)).slug;
});
afterAll(async () => {
  await app.close();
  await fs.rm(dist, { recursive: true, force: true });
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('GET /blog', () => {
  it('answers once, in every way it is asked (no "Reply was already sent")', async () => {
    await expectAnsweredOnce(app, logged, ['/blog', '/Blog', '/blog/', '/blog?utm_source=news']);
  });
});

describe('GET /blog/{slug}', () => {
  it('renders the post on request with its own head, escaped, and its data for hydration', async () => {
    const res = await app.inject(`/blog/${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-language']).toBe('en');
    expect(res.headers.vary).toBe('Cookie, Accept-Encoding');
    const html = res.body;
    expect(html).toContain(
      '<title>Letters &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; | Manna Blog</title>',
    );
    expect(html).toContain(`<link rel="canonical" href="https://www.manna.example/blog/${slug}" />`);
    expect(html).toContain('<meta property="og:type" content="article" />');
    expect(html).toContain('<meta property="og:image" content="https://images.example.org/letter.png" />');
    expect(html).toContain(`"url":"https://www.manna.example/blog/${slug}"`);
    // the app starts after the first paint: the boot script names the entry and the route's chunks
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('<script data-entry="/assets/index.js" data-preload="/assets/blog-post.js">');
    expect(html).toContain('.post{color:navy}');
    // the CSS is inlined; its file is only named by a link that is never fetched (disabled)
    expect(html.match(/<link rel="stylesheet"[^>]*>/g)).toEqual([
      '<link rel="stylesheet" href="/assets/index.css" disabled />',
      '<link rel="stylesheet" href="/assets/blog-post.css" disabled />',
    ]);
    // the content is sanitised, and no script element but the boot script exists
    expect(html).toContain('<p>Body <strong>bold</strong></p>');
    expect(html).not.toContain('alert(2)');
    expect(html).not.toContain('onerror');
    expect(html.match(/<script(?![^>]*type="application\/(ld\+)?json")[^>]*>/g)).toEqual([
      '<script data-entry="/assets/index.js" data-preload="/assets/blog-post.js">',
    ]);
    // its CSP hash is the one the build collects (constant text)
    expect(html).toContain(`>${BOOT_SCRIPT}</script>`);
    const data = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html)?.[1];
    expect(data).toBeDefined();
    expect(data).not.toContain('</script>');
    const parsed = JSON.parse(data!) as {
      slug: string;
      blogPost: { title: string; slug: string; image_url: string };
    };
    expect(parsed.slug).toBe(slug);
    expect(parsed.blogPost).toMatchObject({ title: POST.title, slug, image_url: POST.featured_image_url });
  });

  it("answers in the language of its address, never the cookie's (docs/decisions/041-language-addresses.md)", async () => {
    const res = await app.inject({ url: `/ml/blog/${slug}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe('ml');
    expect(res.body).toContain('<html lang="ml">');
    expect(res.body).toContain('data-lang="ml"');
    expect(res.body).toContain(`<link rel="canonical" href="https://www.manna.example/ml/blog/${slug}" />`);
    expect(res.body).toContain(
      `<link rel="alternate" hreflang="x-default" href="https://www.manna.example/blog/${slug}" />`,
    );
    const english = await app.inject({ url: `/blog/${slug}`, headers: { cookie: 'lang=ml' } });
    expect(english.headers['content-language']).toBe('en');
    // another spelling of its address moves to it, in the same language
    const moved = await app.inject({ url: `/ml/blog/${slug}/` });
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/ml/blog/${slug}`);
  });

  it('is compressed, and revalidates with a 304 that any process of the site gives for the same version', async () => {
    const first = await app.inject({ url: `/blog/${slug}`, headers: { 'accept-encoding': 'br, gzip' } });
    expect(first.headers['content-encoding']).toBe('br');
    const etag = String(first.headers.etag);
    expect((await app.inject({ url: `/blog/${slug}`, headers: { 'if-none-match': etag } })).statusCode).toBe(
      304,
    );
    // a second process on the same database and build: same ETag before it ever rendered the page
    const shared = app.config.database;
    const other = await createTestApp({
      DIST_DIR: dist,
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://www.manna.example',
      // on PostgreSQL (CI's second run) the same schema, not a fresh one
      ...(shared.dialect === 'postgres' ? { DATABASE_URL: shared.url } : {}),
    });
    try {
      const again = await other.inject({ url: `/blog/${slug}`, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
    } finally {
      await other.close();
    }
  });

  it('shows the new version after an edit (new ETag, new text)', async () => {
    const before = await app.inject(`/blog/${slug}`);
    const post = (
      await app.db
        .selectFrom('blog_post')
        .select('blog_id')
        .where('slug', '=', slug)
        .executeTakeFirstOrThrow()
    ).blog_id;
    const current = (await getPost(app.db, post))!;
    await updatePost(app.db, current, { ...POST, content: '<p>Revised body</p>' });
    const after = await app.inject(`/blog/${slug}`);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toContain('<p>Revised body</p>');
    expect(
      (await app.inject({ url: `/blog/${slug}`, headers: { 'if-none-match': String(before.headers.etag) } }))
        .statusCode,
    ).toBe(200);
  });

  it("answers a draft, an unknown slug or one that cannot be one with the blog's not-found page, status 404", async () => {
    const draft = await app.db
      .selectFrom('blog_post')
      .select('slug')
      .where('status', '=', 'Draft')
      .executeTakeFirstOrThrow();
    for (const [url, slugOf] of [
      [`/blog/${draft.slug}`, draft.slug],
      ['/blog/no-such-post', 'no-such-post'],
      ['/blog/%3Cscript%3Ealert(1)%3C%2Fscript%3E', '<script>alert(1)</script>'],
      ['/blog/UPPER', 'UPPER'],
      [`/blog/${'a'.repeat(400)}`, 'a'.repeat(400)],
      // replacement patterns are text: nothing of the page is spliced into itself
      ["/blog/%24'", "$'"],
      ['/blog/%24%60', '$`'],
      ['/blog/%24%26', '$&'],
      ['/blog/%241', '$1'],
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain('<h1>Blog post not found</h1>');
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
      expect(res.body, url).not.toContain('<script>alert(1)');
      const data = JSON.parse(/id="page-data">(.*?)<\/script>/s.exec(res.body)![1]) as unknown;
      expect(data, url).toEqual({ blogPost: null, slug: slugOf });
      expect(res.body, url).not.toContain('placeholder');
      expect(res.body.match(/<html/g), url).toHaveLength(1);
      expect(res.body.match(/<\/html>/g), url).toHaveLength(1);
    }
  });

  it('renders the not-found page once per language, however many unknown addresses are asked', async () => {
    const renders = () => (globalThis as { __mannaRenders?: number }).__mannaRenders ?? 0;
    await app.inject('/blog/warm-up-unknown'); // the English page may be kept already
    const before = renders();
    for (let i = 0; i < 20; i++) {
      const res = await app.inject(`/blog/unknown-${i}`);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain(`"slug":"unknown-${i}"`);
    }
    expect(renders()).toBe(before);
    const ml = await app.inject({ url: '/ml/blog/unknown-ml' });
    expect(ml.statusCode).toBe(404);
    expect(renders()).toBeLessThanOrEqual(before + 1);
  });

  it('limits page renders per client (RATE_LIMIT_PAGE_RENDERS_PER_MIN)', async () => {
    const limited = await createTestApp({
      DIST_DIR: dist,
      PUBLIC_URL: 'https://www.manna.example',
      RATE_LIMIT_PAGE_RENDERS_PER_MIN: '3',
    });
    try {
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push((await limited.inject(`/blog/some-post-${i}`)).statusCode);
      expect(codes).toEqual([404, 404, 404, 429, 429]);
      // another client is not held back
      expect((await limited.inject({ url: '/blog/x', remoteAddress: '10.0.0.9' })).statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });

  it('leaves addresses deeper than a permalink to the 404 page, and /blog/ to the blog page', async () => {
    const deep = await app.inject('/blog/a/b');
    expect(deep.statusCode).toBe(404);
    expect(deep.body).toContain('Oops! Page not found');
    const blog = await app.inject('/blog/');
    expect(blog.statusCode).toBe(200);
    // the blog page, rendered with its first posts
    expect(blog.body).toContain('"blogRows":[');
  });

  it('sends /blog/{slug}/ to the address without the slash', async () => {
    const res = await app.inject(`/blog/${slug}/`);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`/blog/${slug}`);
  });

  it('keeps a site-relative image address in the page data and makes it absolute in the head', async () => {
    const seeded = 'keeping-a-research-log-your-future-self-can-read';
    const res = await app.inject(`/blog/${seeded}`);
    const data = JSON.parse(/id="page-data">(.*?)<\/script>/s.exec(res.body)![1]) as {
      blogPost: { image_url: string };
    };
    expect(data.blogPost.image_url).toMatch(/^\/media\/blog\/[0-9a-f-]{36}\.svg$/);
    expect(res.body).toContain(
      `<meta property="og:image" content="https://www.manna.example${data.blogPost.image_url}" />`,
    );
    // the cover, the page's largest paint, is fetched with the page
    expect(res.body).toContain(
      `<link rel="preload" as="image" href="${data.blogPost.image_url}" fetchpriority="high" />`,
    );
  });
});

describe('a photo cover', () => {
  it('is preloaded at the widths its <img> names, on the post and on the list', async () => {
    const key = 'blog/0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.jpg';
    const post = await createPost(app.db, {
      ...POST,
      title: 'A photo cover',
      featured_image_url: key,
      publication_date: 'December 31, 2099',
      publication_day: '2099-12-31',
    });
    const srcset = [480, 960, 1600].map((w) => `/media/${key}?w=${w} ${w}w`).join(', ');
    const page = await app.inject(`/blog/${post.slug}`);
    expect(page.body).toContain(
      `<link rel="preload" as="image" href="/media/${key}?w=960" imagesrcset="${srcset}" imagesizes="${COVER_SIZES.post}" fetchpriority="high" />`,
    );
    // Open Graph keeps the original
    expect(page.body).toContain(
      `<meta property="og:image" content="https://www.manna.example/media/${key}" />`,
    );
    const list = await app.inject('/blog');
    expect(list.body).toContain(`imagesrcset="${srcset}" imagesizes="${COVER_SIZES.card}"`);
  });
});

describe('sitemap', () => {
  it('lists every published post with its last change, and no draft', async () => {
    const res = await app.inject('/sitemap-en.xml');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(
      '<loc>https://www.manna.example/blog/keeping-a-research-log-your-future-self-can-read</loc>',
    );
    expect(res.body).toContain('<lastmod>2025-08-06T09:00:00.000Z</lastmod>');
    expect(res.body).not.toContain('writing-routines-of-working-historians');
    const published = await app.db
      .selectFrom('blog_post')
      .select('slug')
      .where('status', '=', 'Published')
      .execute();
    for (const { slug: s } of published) expect(res.body).toContain(`/blog/${encodeURI(s)}</loc>`);
  });
});

describe('addresses and previews of posts (docs/decisions/025)', () => {
  const draftInput: PostInput = {
    ...POST,
    title: 'A scheduled thought',
    status: 'Scheduled',
    publish_at: '2099-01-01T09:00:00.000Z',
  };

  it("answers 404 at a Scheduled post's address, and 301 from an edited address to the new one", async () => {
    const scheduled = await createPost(app.db, draftInput);
    expect((await app.inject(`/blog/${scheduled.slug}`)).statusCode).toBe(404);
    const published = await createPost(app.db, { ...POST, title: 'An address that moves' });
    await updatePost(app.db, published, { ...POST, title: 'An address that moves', slug: 'the-new-address' });
    const res = await app.inject('/blog/an-address-that-moves');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/blog/the-new-address');
    expect((await app.inject('/blog/the-new-address')).statusCode).toBe(200);
  });

  it('shows a post of any status at its share link, never kept or indexed; a changed or expired link is 404', async () => {
    const scheduled = await createPost(app.db, { ...draftInput, title: 'Shared before it is out' });
    const ctx = app.services();
    const { url } = await shareLink(ctx, scheduled.blog_id);
    const path = new URL(url).pathname;
    const res = await app.inject(path);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Shared before it is out');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const [id, expires, sig] = path.slice('/blog/preview/'.length).split('.');
    // another post's number under this signature, a later expiry, a changed signature
    for (const changed of [
      `${id}1.${expires}.${sig}`,
      `${id}.${Number(expires) + 60}.${sig}`,
      `${id}.${expires}.${sig.slice(1)}x`,
    ])
      expect((await app.inject(`/blog/preview/${changed}`)).statusCode, changed).toBe(404);
    // eight days later the link has expired
    const later = { ...ctx, now: () => new Date(Date.now() + 8 * 24 * 3600_000) };
    expect(await previewedPost(later, path.slice('/blog/preview/'.length))).toBeUndefined();
  });

  it("lets this site alone frame the editor's live preview, which holds no post of its own", async () => {
    const res = await app.inject('/blog/preview/live');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    expect(res.body).toContain('Blog post not found'); // the stand-in bundle's page without a post
    expect(res.headers['cache-control']).toBe('private, no-store');
    const other = await app.inject(`/blog/${slug}`);
    expect(String(other.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});

describe('tag pages', () => {
  it("render a tag's page with its name, its feed and sitemap entry; a tag of drafts only is 404", async () => {
    await createPost(app.db, { ...POST, title: 'Tagged for the page', tags: 'Field Notes' });
    await createPost(app.db, { ...POST, title: 'A draft tag', status: 'Draft', tags: 'Unseen' });
    const page = await app.inject('/blog/tag/field-notes');
    expect(page.statusCode).toBe(200);
    const data = JSON.parse(/id="page-data">(.*?)<\/script>/s.exec(page.body)![1]);
    expect(data).toMatchObject({ tag: 'field-notes', tagName: 'Field Notes' });
    expect(data.blogRows.map((r: { title: string }) => r.title)).toEqual(['Tagged for the page']);
    const feed = await app.inject('/blog/tag/field-notes/rss.xml');
    expect(feed.statusCode).toBe(200);
    expect(feed.body).toContain('<title>Manna Blog: Field Notes</title>');
    expect(feed.body).toContain('Tagged for the page');
    expect(feed.body).not.toContain('Letters &lt;');
    expect((await app.inject('/blog/tag/unseen')).statusCode).toBe(404);
    expect((await app.inject('/blog/tag/unseen/rss.xml')).statusCode).toBe(404);
    expect([400, 404]).toContain((await app.inject('/blog/tag/%E0%A4')).statusCode);
    expect((await app.inject('/sitemap-en.xml')).body).toContain(
      '<loc>https://www.manna.example/blog/tag/field-notes</loc>',
    );
  });
});

describe('the blog list in the first HTML', () => {
  it('renders /blog with its first ten published posts as page data, revalidated by ETag, also under a campaign link and another spelling', async () => {
    const res = await app.inject('/blog');
    expect(res.statusCode).toBe(200);
    const data = JSON.parse(/id="page-data">(.*?)<\/script>/s.exec(res.body)![1]) as {
      blogRows: { blog_id: number; status: string; content: string; total_count?: number }[];
    };
    const published = await app.db
      .selectFrom('blog_post')
      .select('blog_id')
      .where('status', '=', 'Published')
      .orderBy('publication_day', 'desc')
      .orderBy('blog_id', 'desc')
      .limit(10)
      .execute();
    expect(data.blogRows.map((r) => r.blog_id)).toEqual(published.map((r) => r.blog_id));
    expect(data.blogRows.every((r) => r.status === 'Published')).toBe(true);
    expect(data.blogRows[0].total_count).toBeGreaterThan(0);
    // the stored text is sanitised again for the page
    expect(JSON.stringify(data)).not.toContain('onerror');
    const again = await app.inject({ url: '/blog', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    for (const url of ['/blog?utm_source=newsletter&utm_campaign=autumn', '/Blog/']) {
      const other = await app.inject(url);
      expect(other.statusCode, url).toBe(200);
      expect(other.headers.etag, url).toBe(res.headers.etag);
      expect(other.body, url).toContain('id="page-data"');
    }
    // the service worker's precache keeps the prerendered copy, never one with data
    const precached = await app.inject({ url: '/blog', headers: { 'x-manna-precache': '1' } });
    expect(precached.body).toContain('<title>Blog</title>');
    expect(precached.body).not.toContain('page-data');
  });
});
