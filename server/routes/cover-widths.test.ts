import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IMAGE_WIDTHS, ManageBlogResponse } from '../../contract/blog';
import { multipart } from '../../tests/fixtures/multipart';
import { samplePng } from '../../tests/fixtures/images';
import { signInAs } from '../lib/auth-testing';
import { BLOG_IMAGE_KIND } from '../db/blog.repo';
import { recordStoredFile } from '../db/files.repo';
import { repairStoredCovers } from '../services/blog-images';
import { createTestApp } from '../testing';

/**
 * Covers are made safe and small when they are stored (docs/decisions/009-security-model.md,
 * "Images"): decoded, upright, without metadata, under the pixel limit, with their widths as
 * files; a visitor's request never makes the server convert one. Every call of sharp is counted.
 */
const sharpCalls = vi.hoisted(() => ({ n: 0 }));
vi.mock('sharp', async (importOriginal) => {
  type Sharp = typeof import('sharp').default;
  const actual = ((await importOriginal()) as { default: Sharp }).default;
  const counted = (...args: Parameters<typeof actual>) => {
    sharpCalls.n++;
    return actual(...args);
  };
  return { default: Object.assign(counted, actual) };
});
const { default: sharp } = await import('sharp');

let app: FastifyInstance;
let headers: Record<string, string>;

const BASE = {
  company_id: '2',
  blog_id: '0',
  mode: '1',
  excerpt: 'What the entries say, and what they leave out.',
  content: '<p>Registers record baptisms, marriages and burials.</p>',
  publication_date: 'August 6, 2025',
  read_time: '5 min read',
  featured_image_url: '',
  cover_alt: 'A page of a parish register',
};

function createWithCover(title: string, data: Buffer, filename = 'photo.jpg', type = 'image/jpeg') {
  const { body, contentType } = multipart([
    ...Object.entries({ ...BASE, title }).map(([name, value]) => ({ name, value })),
    { name: 'featured_image', filename, type, data },
  ]);
  return app.inject({
    method: 'POST',
    url: '/api/manage-company-blog',
    headers: { ...headers, 'content-type': contentType },
    payload: body,
  });
}

/** A phone photo: JPEG with its camera and the place it was taken (EXIF GPS). */
const phonePhoto = (width = 1200, height = 800) =>
  sharp({ create: { width, height, channels: 3, background: '#2a6f4e' } })
    .jpeg()
    .withMetadata({
      exif: {
        IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '9/1 58/1 0/1' },
      },
    })
    .toBuffer();

/** Whether the bytes still say where and with what the photo was taken (EXIF, its camera's name). */
const hasGps = async (bytes: Buffer) =>
  bytes.includes(Buffer.from('PhoneMaker')) || (await sharp(bytes).metadata()).exif !== undefined;

beforeAll(async () => {
  app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '10000' });
  ({ headers } = await signInAs(app, { role: 'editor' }));
});
afterAll(() => app.close());

describe('a cover as it is stored', () => {
  it('keeps no place or camera of a phone photo, in the original or any width', async () => {
    const photo = await phonePhoto();
    expect(await hasGps(photo)).toBe(true);
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const res = await createWithCover('A photo from a phone', photo);
    expect(res.statusCode, res.body).toBe(200);
    const url = ManageBlogResponse.parse(res.json()).row!.image_url!;
    const original = await app.inject(url);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(await hasGps(original.rawPayload)).toBe(false);
    const meta = await sharp(original.rawPayload).metadata();
    expect([meta.exif, meta.width, meta.height]).toEqual([undefined, 1200, 800]);
    for (const w of IMAGE_WIDTHS) {
      const res = await app.inject(`${url}?w=${w}`);
      expect(res.statusCode).toBe(200);
      expect(await hasGps(res.rawPayload)).toBe(false);
      expect((await sharp(res.rawPayload).metadata()).width).toBe(Math.min(w, 1200));
    }
  });

  it('refuses a cover over 40 megapixels (100 MP) with 413 before decoding it, storing nothing', async () => {
    const png = samplePng(8, 8);
    // IHDR's width and height are at bytes 16-23; its CRC follows the 13 bytes of data
    png.writeUInt32BE(10_000, 16);
    png.writeUInt32BE(10_000, 20);
    png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
    const before = await app.db.selectFrom('stored_file').select('file_key').execute();
    const res = await createWithCover('Too many pixels', png, 'big.png', 'image/png');
    expect(res.statusCode).toBe(413);
    expect(res.json().codes).toEqual({ featured_image: 'imageTooLarge' });
    expect(await app.db.selectFrom('stored_file').select('file_key').execute()).toHaveLength(before.length);
  });
});

describe('a cover at its widths', () => {
  it('serves every width of 50 covers without calling sharp', async () => {
    const urls: string[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await createWithCover(
        `Cover number ${i + 1}`,
        samplePng(1700, 60 + i),
        `c${i}.png`,
        'image/png',
      );
      expect(res.statusCode, res.body).toBe(200);
      urls.push(ManageBlogResponse.parse(res.json()).row!.image_url!);
    }
    sharpCalls.n = 0;
    for (const url of urls)
      for (const w of IMAGE_WIDTHS) {
        const res = await app.inject(`${url}?w=${w}`);
        expect([url, w, res.statusCode, res.headers['content-type']]).toEqual([url, w, 200, 'image/webp']);
      }
    expect(sharpCalls.n).toBe(0);
    // a width never made is not made on request: 404
    expect((await app.inject(`${urls[0]}?w=961`)).statusCode).toBe(404);
  });

  it('repairs a cover stored before (cleaned in place, its widths made) once, at the first start', async () => {
    const photo = await phonePhoto(2000, 1000);
    const key = await app.storage.put(Readable.from([photo]), {
      prefix: 'blog',
      ext: 'jpg',
      contentType: 'image/jpeg',
    });
    await recordStoredFile(app.db, {
      file_key: key,
      kind: BLOG_IMAGE_KIND,
      content_type: 'image/jpeg',
      byte_size: photo.length,
      original_name: 'old.jpg',
    });
    const made = await createWithCover('An old cover', samplePng(), 'old.png', 'image/png');
    const blogId = ManageBlogResponse.parse(made.json()).row!.blog_id;
    await app.db
      .updateTable('blog_post')
      .set({ featured_image_url: key })
      .where('blog_id', '=', blogId)
      .execute();
    // before the repair: the original keeps its place, and no width is there to serve
    expect(await hasGps((await app.inject(`/media/${key}`)).rawPayload)).toBe(true);
    expect((await app.inject(`/media/${key}?w=480`)).statusCode).toBe(404);
    // this app's own start ran the task already (nothing to repair then): a new database's first
    // start is what repairs, so the task's record is cleared as on a site that never ran it
    await app.db.deleteFrom('scheduled_task').where('name', '=', 'cover-repair').execute();
    expect(await repairStoredCovers(app.services())).toBe(1);
    const original = await app.inject(`/media/${key}`);
    expect(original.statusCode).toBe(200);
    expect(await hasGps(original.rawPayload)).toBe(false);
    for (const w of IMAGE_WIDTHS) {
      const res = await app.inject(`/media/${key}?w=${w}`);
      expect(res.statusCode).toBe(200);
      expect((await sharp(res.rawPayload).metadata()).width).toBe(w);
    }
    const stored = await app.db
      .selectFrom('stored_file')
      .select('byte_size')
      .where('file_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(Number(stored.byte_size)).toBe(original.rawPayload.length);
    // once: a second start does nothing
    expect(await repairStoredCovers(app.services())).toBeNull();
  });
});
