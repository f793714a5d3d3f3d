import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
// fast-xml-parser 3 (installed with s3rver) only checks that the feed is well-formed XML
import xmlParser from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlogPostRows, type BlogPostRow } from '../../contract/blog';
import { BLOG_IMAGE_KIND, createPost, type PostInput } from '../db/blog.repo';
import seedBlog from '../db/seed/50-blog.seed';
import { createTestApp } from '../testing';

function input(overrides: Partial<PostInput> = {}): PostInput {
  return {
    title: 'A note on archives',
    excerpt: 'Short excerpt',
    content: '<p>Body text about archives and letters.</p>',
    publication_date: 'August 6, 2025',
    publication_day: '2025-08-06',
    read_time: '5 min read',
    featured_image_url: 'https://images.example.org/a.png',
    status: 'Published',
    ...overrides,
  };
}

const rows = (body: string) => BlogPostRows.parse(JSON.parse(body));

describe('GET /api/bind-company-blog', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
    await seedBlog(app.db, app.config);
  });
  afterAll(() => app.close());

  it('lists published posts only, newest first, with total_count on the first row and a slug', async () => {
    const res = await app.inject('/api/bind-company-blog');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const list = rows(res.body);
    expect(list).toHaveLength(9);
    expect(list.every((r) => r.status === 'Published')).toBe(true);
    expect(list[0].total_count).toBe(9);
    expect(list.slice(1).every((r) => r.total_count === undefined)).toBe(true);
    expect(list[0].title).toBe('Keeping a Research Log Your Future Self Can Read');
    expect(list[0].publication_date).toBe('August 6, 2025');
    expect(list[0].slug).toBe('keeping-a-research-log-your-future-self-can-read');
    expect(list[0].featured_image_url).toMatch(/^blog\/[0-9a-f-]{36}\.svg$/);
    expect(list[0].image_url).toBe(`/media/${list[0].featured_image_url}`);
  });

  it('compresses a page of posts when the client accepts it', async () => {
    const plain = await app.inject('/api/bind-company-blog');
    const br = await app.inject({
      url: '/api/bind-company-blog',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 2);
  });

  it('never answers a draft, by id, by slug or by search', async () => {
    const drafts = await app.db
      .selectFrom('blog_post')
      .select(['blog_id', 'slug'])
      .where('status', '=', 'Draft')
      .execute();
    expect(drafts).toHaveLength(3);
    for (const d of drafts) {
      expect(rows((await app.inject(`/api/bind-company-blog?blogid=${d.blog_id}`)).body)).toEqual([]);
      expect(rows((await app.inject(`/api/bind-company-blog?slug=${d.slug}`)).body)).toEqual([]);
    }
    expect(rows((await app.inject('/api/bind-company-blog?search=routines')).body)).toEqual([]);
  });

  it('pages by page_number and page_size (10 by default)', async () => {
    const first = rows((await app.inject('/api/bind-company-blog?page_size=4&page_number=1')).body);
    const third = rows((await app.inject('/api/bind-company-blog?page_size=4&page_number=3')).body);
    expect(first).toHaveLength(4);
    expect(third).toHaveLength(1);
    expect(third[0].total_count).toBe(9);
    expect(rows((await app.inject('/api/bind-company-blog?page_number=2')).body)).toEqual([]);
  });

  it('searches title, excerpt and content with the full-text index, as word prefixes', async () => {
    const found = rows((await app.inject('/api/bind-company-blog?search=palaeograph')).body);
    expect(found.map((r) => r.title)).toEqual([
      "Reading Old Handwriting: A Beginner's Guide to Palaeography",
    ]);
    const both = rows((await app.inject('/api/bind-company-blog?search=WATERMARK%20postmark')).body);
    expect(both.map((r) => r.slug)).toEqual(['dating-an-undated-letter']);
    // a word only in the content
    expect(rows((await app.inject('/api/bind-company-blog?search=IMG_4471')).body)).toHaveLength(1);
  });

  it.each([
    ['"'],
    ['*'],
    ['NEAR'],
    ['NEAR(archive letter)'],
    ["'; DROP TABLE blog_post; --"],
    ['" OR 1=1 --'],
    ['archive* AND -letter'],
    ['^title:archive'],
    ['\u0000\u202e'],
    ['%_%'],
  ])('answers 200 for the search %j', async (search) => {
    const res = await app.inject(`/api/bind-company-blog?search=${encodeURIComponent(search)}`);
    expect(res.statusCode).toBe(200);
    rows(res.body);
    const still = await app.db
      .selectFrom('blog_post')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(still.n)).toBe(12);
  });

  it.each([['0'], ['-1'], ['1e9'], ['abc'], ['1.5']])(
    'refuses page_number=%s with 400, not a 5xx',
    async (n) => {
      const res = await app.inject(`/api/bind-company-blog?page_number=${n}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: expect.any(String),
        errors: { page_number: expect.any(String) },
      });
    },
  );

  it('refuses a page size over 100 and a search over 200 characters', async () => {
    expect((await app.inject('/api/bind-company-blog?page_size=101')).statusCode).toBe(400);
    expect((await app.inject(`/api/bind-company-blog?search=${'a'.repeat(201)}`)).statusCode).toBe(400);
  });
});

describe('total_count above 10,000', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
    const now = new Date().toISOString();
    const values = Array.from({ length: 10_050 }, (_, i) => ({
      company_id: 2,
      title: `Post ${i}`,
      slug: `post-${i}`,
      excerpt: 'e',
      content: '<p>c</p>',
      search_text: i === 77 ? 'needle' : 'c',
      publication_date: 'January 1, 2025',
      publication_day: '2025-01-01',
      read_time: '1 min read',
      featured_image_url: 'https://example.org/i.png',
      status: 'Published' as const,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < values.length; i += 500)
      await app.db
        .insertInto('blog_post')
        .values(values.slice(i, i + 500))
        .execute();
  });
  afterAll(() => app.close());

  it('is capped at 10000 and exact below', async () => {
    const all = rows((await app.inject('/api/bind-company-blog')).body);
    expect(all[0].total_count).toBe(10_000);
    expect(all[0].title).toBe('Post 10049'); // same day: newest id first
    // a word nearly every post contains takes the other search plan; same answer shape
    const common = rows((await app.inject('/api/bind-company-blog?search=post&page_number=2')).body);
    expect(common.map((r) => r.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Post ${10039 - i}`));
    expect(common[0].total_count).toBe(10_000);
    const one = rows((await app.inject('/api/bind-company-blog?search=needle')).body);
    expect(one.map((r) => [r.title, r.total_count])).toEqual([['Post 77', 1]]);
  });
});

describe('/media and the blog permalink fallbacks', () => {
  let app: FastifyInstance;
  let post: BlogPostRow;
  beforeAll(async () => {
    app = await createTestApp();
    await seedBlog(app.db, app.config);
    post = rows((await app.inject('/api/bind-company-blog?page_size=1')).body)[0];
  });
  afterAll(() => app.close());

  it('serves a blog image with its checked type, a year of cache, nosniff and a sandbox CSP', async () => {
    const res = await app.inject(post.image_url!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.body).toMatch(/^<svg /);
    const again = await app.inject({
      url: post.image_url!,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers a JSON 404 for unknown keys, paths that are not keys, and private files', async () => {
    const cvKey = await app.storage.put(Readable.from([Buffer.from('%PDF-1.4 secret')]), {
      prefix: 'cv',
      ext: 'pdf',
      contentType: 'application/pdf',
    });
    await app.db
      .insertInto('stored_file')
      .values({
        file_key: cvKey,
        kind: 'cv',
        content_type: 'application/pdf',
        byte_size: 15,
        original_name: 'cv.pdf',
        created_at: new Date().toISOString(),
      })
      .execute();
    for (const url of [
      `/media/${cvKey}`,
      `/media/private/${cvKey}`,
      `/media/private/${cvKey}?expires=9999999999&sig=${'a'.repeat(43)}`,
      '/media/blog/00000000-0000-0000-0000-000000000000.png',
      '/media/blog/../secret',
      '/media/blog%2f..%2f..%2fsecret',
      '/media/',
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: 'Not found' });
    }
  });

  it('does not serve a stored file of another kind under blog/', async () => {
    const key = await app.storage.put(Readable.from([Buffer.from('<html>')]), {
      prefix: 'blog',
      ext: 'png',
      contentType: 'image/png',
    });
    await app.db
      .insertInto('stored_file')
      .values({
        file_key: key,
        kind: 'other',
        content_type: 'text/html',
        byte_size: 6,
        original_name: 'x',
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await app.inject(`/media/${key}`)).statusCode).toBe(404);
    await app.db
      .updateTable('stored_file')
      .set({ kind: BLOG_IMAGE_KIND })
      .where('file_key', '=', key)
      .execute();
    // a blog-image row whose type is not an image is still refused
    expect((await app.inject(`/media/${key}`)).statusCode).toBe(404);
  });

  it('without a build, a permalink answers like any page of an unbuilt app (503 JSON)', async () => {
    const res = await app.inject(`/blog/${post.slug}`);
    expect(res.statusCode).toBe(503);
  });
});

describe('GET /blog/rss.xml', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp({ PUBLIC_URL: 'https://www.manna.example' });
    await seedBlog(app.db, app.config);
  });
  afterAll(() => app.close());

  it('is valid RSS 2.0 of the published posts with absolute permalinks', async () => {
    const res = await app.inject('/blog/rss.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(xmlParser.validate(res.body)).toBe(true);
    expect(res.body).toContain('<rss version="2.0"');
    expect(res.body.match(/<item>/g)).toHaveLength(9);
    expect(res.body).toContain(
      '<link>https://www.manna.example/blog/keeping-a-research-log-your-future-self-can-read</link>',
    );
    expect(res.body).toContain('<pubDate>Wed, 06 Aug 2025 00:00:00 GMT</pubDate>');
    expect(res.body).toMatch(
      /<media:content url="https:\/\/www\.manna\.example\/media\/blog\/[0-9a-f-]{36}\.svg"/,
    );
    expect(res.body).not.toContain('Writing Routines of Working Historians'); // a draft
    const again = await app.inject({
      url: '/blog/rss.xml',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("dates an item at the moment it went public on its publication day, else at that day's midnight", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const [y, m, d] = today.split('-').map(Number);
    const dated = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const before = Date.now();
    await createPost(app.db, {
      title: 'Out today, at a moment',
      excerpt: 'Published while you read.',
      content: '<p>Text.</p>',
      publication_date: dated,
      publication_day: today,
      read_time: '2 min read',
      featured_image_url: '',
      status: 'Published',
      publish_at: null,
    });
    const res = await app.inject('/blog/rss.xml');
    const item = res.body.split('<item>').find((i) => i.includes('Out today, at a moment'))!;
    const pubDate = Date.parse(/<pubDate>([^<]+)<\/pubDate>/.exec(item)![1]);
    // to the second it went out (RFC 822 keeps seconds), not midnight
    expect(pubDate).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(pubDate).toBeLessThanOrEqual(Date.now());
  });

  it('stays well-formed whatever a post contains', async () => {
    await createPost(
      app.db,
      input({
        title: '<script>alert(1)</script> & "quotes" \u0001\u0008 ]]> \ud800',
        excerpt: '<img src=x onerror=alert(1)>',
        content: '<p>]]&gt; <a href="javascript:alert(1)">x</a></p>',
        publication_date: 'December 31, 2099',
        publication_day: '2099-12-31',
      }),
    );
    const res = await app.inject('/blog/rss.xml');
    expect(xmlParser.validate(res.body)).toBe(true);
    expect(res.body).toMatch(
      /<title>&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;quotes&quot; {2}\]\]&gt; [^<]*<\/title>/,
    );
    expect(res.body).not.toContain('<script>');
  });
});
