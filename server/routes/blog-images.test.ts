import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_MESSAGES as M, BlogTextImage } from '../../contract/blog-form';
import { ManageBlogResponse } from '../../contract/blog';
import { multipart, type Part } from '../../tests/fixtures/multipart';
import { htmlPage, pngOfSize, samplePng, svgWithScript } from '../../tests/fixtures/images';
import { sameOrigin, signInAs } from '../lib/auth-testing';
import { sweepUnusedBlogImages } from '../services/blog-images';
import { createTestApp } from '../testing';

let app: FastifyInstance;
let editor: string;
let recruiter: string;
let origin: string;

function upload(
  data: Buffer,
  { filename = 'photo.jpg', type = 'image/jpeg', cookie = editor, field = 'image' } = {},
) {
  const parts: Part[] = [{ name: field, filename, type, data }];
  const { body, contentType } = multipart(parts);
  return app.inject({
    method: 'POST',
    url: '/api/admin/blog-images',
    headers: { 'content-type': contentType, cookie, origin },
    payload: body,
  });
}

/** A photo as a phone saves it: JPEG with EXIF (orientation, a camera and a place). */
async function photo(width: number, height: number, orientation = 1) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .withMetadata({
      orientation,
      exif: {
        IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '9/1 58/1 0/1' },
      },
    })
    .toBuffer();
}

/** The files an answer names, fetched from /media as a visitor's browser would. */
async function variantsOf(image: BlogTextImage) {
  return Promise.all(
    image.srcset.split(', ').map(async (candidate) => {
      const [url, w] = candidate.split(' ');
      const res = await app.inject(url);
      const meta = await sharp(res.rawPayload).metadata();
      return {
        url,
        declared: Number(w.slice(0, -1)),
        status: res.statusCode,
        type: res.headers['content-type'],
        meta,
      };
    }),
  );
}

const storedCount = async () => (await app.db.selectFrom('stored_file').select('file_key').execute()).length;

beforeAll(async () => {
  app = await createTestApp();
  origin = sameOrigin(app);
  editor = (await signInAs(app, { permissions: ['blog.manage'] })).cookie;
  recruiter = (await signInAs(app, { permissions: ['applications.read'] })).cookie;
});
afterAll(() => app.close());

describe('POST /api/admin/blog-images', () => {
  it('stores a large photo as WebP at 480, 960 and 1600 px, upright, without its EXIF', async () => {
    const res = await upload(await photo(2400, 1200));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const image = BlogTextImage.parse(res.json());
    expect(image).toMatchObject({ width: 1600, height: 800 });
    expect(image.src).toMatch(/^\/media\/blog\/[0-9a-f-]{36}\.webp$/);
    const variants = await variantsOf(image);
    expect(variants.map((v) => [v.declared, v.meta.width, v.meta.height])).toEqual([
      [480, 480, 240],
      [960, 960, 480],
      [1600, 1600, 800],
    ]);
    for (const v of variants) {
      expect(v.status).toBe(200);
      expect(v.type).toBe('image/webp');
      expect(v.meta.format).toBe('webp');
      expect(v.meta.exif).toBeUndefined();
    }
    // the src of a browser without srcset: the 960 px one
    expect(image.src).toBe(variants[1].url);
  });

  it('turns a photo taken sideways upright, and never makes an image wider than it is', async () => {
    // 1000 x 500 as stored, orientation 6: drawn 500 wide and 1000 high
    const image = BlogTextImage.parse((await upload(await photo(1000, 500, 6))).json());
    expect(image).toMatchObject({ width: 500, height: 1000 });
    expect((await variantsOf(image)).map((v) => [v.meta.width, v.meta.height])).toEqual([
      [480, 960],
      [500, 1000],
    ]);
    const small = BlogTextImage.parse((await upload(samplePng(300, 200), { filename: 'a.png' })).json());
    expect(small).toMatchObject({ width: 300, height: 200 });
    expect(small.srcset).toMatch(/^\S+ 300w$/);
  });

  it('keeps an animated GIF animated (an animated WebP of the same frames)', async () => {
    const frame = (background: string) =>
      sharp({ create: { width: 40, height: 40, channels: 3, background } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame('#ff0000'), await frame('#0000ff')], { join: { animated: true } })
      .gif({ delay: [200, 200], loop: 0 })
      .toBuffer();
    const res = await upload(gif, { filename: 'a.gif', type: 'image/gif' });
    expect(res.statusCode).toBe(200);
    const image = BlogTextImage.parse(res.json());
    expect(image).toMatchObject({ width: 40, height: 40 });
    const stored = await app.inject(image.src);
    const meta = await sharp(stored.rawPayload, { animated: true }).metadata();
    expect([meta.format, meta.pages, meta.pageHeight]).toEqual(['webp', 2, 40]);
  });

  it.each([
    ['an SVG', svgWithScript(), 'drawing.svg', 'image/svg+xml'],
    ['an HTML page renamed .jpg', htmlPage(), 'photo.jpg', 'image/jpeg'],
    [
      'a JPEG cut off after its header',
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
      'a.jpg',
      'image/jpeg',
    ],
  ])('refuses %s with 415, storing nothing', async (_name, data, filename, type) => {
    const before = await storedCount();
    const res = await upload(data, { filename, type });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ message: M.imageInvalidFile, codes: { image: 'imageInvalidFile' } });
    expect(await storedCount()).toBe(before);
  });

  it('refuses a PNG that claims 50,000 x 50,000 pixels before decoding it', async () => {
    const png = samplePng(8, 8);
    // IHDR's width and height are at bytes 16-23; its CRC follows the 13 bytes of data
    png.writeUInt32BE(50_000, 16);
    png.writeUInt32BE(50_000, 20);
    png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
    const res = await upload(png, { filename: 'bomb.png', type: 'image/png' });
    expect(res.statusCode).toBe(415);
  });

  it('refuses more than 5 MB with 413', async () => {
    const res = await upload(pngOfSize(5 * 1024 * 1024 + 1), { filename: 'a.png', type: 'image/png' });
    expect(res.statusCode).toBe(413);
    expect(res.json().codes).toEqual({ image: 'imageTooLarge' });
  });

  it('answers 401 signed out, 403 without blog.manage, 400 for a file in another field', async () => {
    const jpeg = await photo(100, 100);
    expect((await upload(jpeg, { cookie: '' })).statusCode).toBe(401);
    expect((await upload(jpeg, { cookie: recruiter })).statusCode).toBe(403);
    expect((await upload(jpeg, { field: 'featured_image' })).statusCode).toBe(400);
  });
});

describe('images in a post', () => {
  async function savePost(content: string) {
    const parts: Part[] = Object.entries({
      mode: '1',
      company_id: '2',
      blog_id: '0',
      title: `Images ${randomBytes(3).toString('hex')}`,
      excerpt: 'With a picture.',
      content,
      publication_date: 'August 6, 2025',
      read_time: '2 min read',
      featured_image_url: 'https://images.example.org/cover.png',
      cover_alt: 'A cover',
      status: 'Published',
    }).map(([name, value]) => ({ name, value }));
    const { body, contentType } = multipart(parts);
    const res = await app.inject({
      method: 'POST',
      url: '/api/manage-company-blog',
      headers: { 'content-type': contentType, cookie: editor, origin },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    return ManageBlogResponse.parse(res.json()).row!;
  }

  it('keeps this site’s uploaded images with their alt text, and drops data: and other sites’ images', async () => {
    const image = BlogTextImage.parse((await upload(await photo(1200, 600))).json());
    const row = await savePost(
      `<p>Before</p><img src="${image.src}" srcset="${image.srcset}" width="${image.width}" height="${image.height}" alt="The submissions per month" onerror="alert(1)">` +
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="pasted"><img src="https://tracker.example/pixel.gif" alt="">' +
        `<img src="${image.src}" srcset="https://tracker.example/x.png 10w" alt="bad srcset"><p>After</p>`,
    );
    const content = row.content;
    expect(content).not.toContain('data:');
    expect(content).not.toContain('tracker.example');
    expect(content).not.toContain('onerror');
    expect(content).toContain(
      `<img src="${image.src}" srcset="${image.srcset}" sizes="(max-width: 760px) 100vw, 720px" width="1200" height="600" alt="The submissions per month" loading="lazy" decoding="async" />`,
    );
    // the srcset that named another site is gone; the image itself is ours and stays, without it
    expect(content).toContain(`<img src="${image.src}" alt="bad srcset" loading="lazy" decoding="async" />`);

    // the public list gives it to visitors, and the feed names it by its whole address
    const list = await app.inject('/api/bind-company-blog?company_id=2');
    expect(list.body).toContain('alt=\\"The submissions per month\\"');
    const feed = await app.inject('/blog/rss.xml');
    expect(feed.body).toContain(`${app.config.PUBLIC_URL}${image.src}`);
  });

  it('removes, a day later, uploads that no post or revision names, and keeps the rest', async () => {
    const used = BlogTextImage.parse((await upload(await photo(600, 300))).json());
    const unused = BlogTextImage.parse((await upload(await photo(600, 300))).json());
    await savePost(`<p>A chart:</p><img src="${used.src}" srcset="${used.srcset}" alt="Kept">`);
    const keysOf = (image: BlogTextImage) =>
      image.srcset.split(', ').map((c) => c.split(' ')[0].slice('/media/'.length));
    const exists = async (key: string) =>
      (await app.db
        .selectFrom('stored_file')
        .select('file_key')
        .where('file_key', '=', key)
        .executeTakeFirst()) !== undefined;

    // within the day nothing goes (the editor may still be open)
    await sweepUnusedBlogImages(app.services(), new Date());
    for (const key of keysOf(unused)) expect(await exists(key)).toBe(true);

    await sweepUnusedBlogImages(app.services(), new Date(Date.now() + 25 * 60 * 60 * 1000));
    for (const key of keysOf(unused)) {
      expect(await exists(key)).toBe(false);
      expect((await app.inject(`/media/${key}`)).statusCode).toBe(404);
    }
    for (const key of keysOf(used)) {
      expect(await exists(key)).toBe(true);
      expect((await app.inject(`/media/${key}`)).statusCode).toBe(200);
    }
  });
});
