import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { IMAGE_WIDTHS } from '../../src/api/contract/blog';
import { BLOG_MESSAGES as M, type BlogTextImage } from '../../src/api/contract/blog-form';
import { BLOG_IMAGE_KIND, MEDIA_PREFIX, blogImageKeysBefore, textsNamingBlogImages } from '../db/blog.repo';
import { deleteStoredFiles, recordStoredFile } from '../db/files.repo';
import { cleanFileName } from '../lib/file-check';
import { checkImage } from '../lib/image-check';
import { Lru } from '../lib/page-render';
import { refusedPost } from './blog';
import { inTransaction, type ServiceContext } from './context';

/**
 * Images inside a post's text (issue 31). The editor uploads one at a time; it is accepted by its
 * bytes (lib/image-check.ts, then decoded by sharp: a file that only looks like an image is
 * refused), turned upright, stripped of its metadata (a phone photo's place and time), and stored
 * as WebP at up to three widths (TEXT_IMAGE_WIDTHS, never wider than it is), each a file of its
 * own with its stored_file row. The answer is what the editor puts in the text: `src`, `srcset`,
 * and the width and height that keep the page from moving while it loads. The text holds
 * addresses, never the image itself.
 *
 * Uploads no post names any more (the editor closed unsaved, an image deleted from the text, a
 * post deleted) are removed a day later by the daily retention run (`sweepUnusedBlogImages`),
 * unless a kept revision of a post still names them.
 */

export const TEXT_IMAGE_WIDTHS = IMAGE_WIDTHS;
/** Larger images (40 megapixels, 8000 x 5000) are refused before they are decoded. */
export const TEXT_IMAGE_MAX_PIXELS = 40_000_000;
/** The variant `src` names (browsers without srcset): the widest up to this. */
const FALLBACK_WIDTH = 960;
const DAY_MS = 24 * 60 * 60 * 1000;

// libvips keeps no decoded images between requests: the server's memory stays flat
sharp.cache(false);

export const imageRefused = () => refusedPost({ image: 'imageInvalidFile' }, 415, M.imageInvalidFile);
export const textImageTooLarge = () => refusedPost({ image: 'imageTooLarge' }, 413, M.imageTooLarge);

/** The widths an image of `width` pixels is stored at. */
export function variantWidths(width: number): number[] {
  return [...new Set(TEXT_IMAGE_WIDTHS.map((w) => Math.min(w, width)))].sort((a, b) => a - b);
}

/**
 * The image as WebP, at most `width` pixels wide (never enlarged), upright and without its
 * metadata: a text image's stored variants and a cover's widths (`coverAtWidth`).
 */
async function webpAt(bytes: Buffer, width: number, animated: boolean) {
  const { data, info } = await sharp(bytes, {
    animated,
    limitInputPixels: TEXT_IMAGE_MAX_PIXELS,
    failOn: 'error',
  })
    .rotate()
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: 80, effort: 4 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.pageHeight ?? info.height };
}

/** Covers made at a width lately, kept in memory (a browser keeps each for a year). */
const COVER_WIDTHS_KEPT = 120;
const coverWidths = new Lru<Promise<Buffer | null>>(COVER_WIDTHS_KEPT);

/**
 * A stored cover (a photo under `blog/`) at one of IMAGE_WIDTHS as WebP (`/media/blog/<key>?w=`,
 * contract/blog.ts `coverSources`): made from the stored file on first ask and kept; at the same
 * moment two asks share one conversion. Null when the file is not there or cannot be read as an
 * image. Only IMAGE_WIDTHS are made, so an address cannot make the server convert at will.
 */
export function coverAtWidth(ctx: ServiceContext, key: string, width: number): Promise<Buffer | null> {
  const id = `${key} ${width}`;
  let made = coverWidths.get(id);
  if (!made) {
    made = (async () => {
      const object = await ctx.storage.get(key);
      if (!object) return null;
      const bytes = await buffer(object.body);
      try {
        return (await webpAt(bytes, width, false)).bytes;
      } catch (err) {
        ctx.log.warn({ err, key }, 'A cover could not be converted');
        return null;
      }
    })();
    coverWidths.set(id, made);
    // a file that was missing may come (another process stores it): ask again next time
    made.then(
      (bytes) => bytes === null && coverWidths.delete(id),
      () => coverWidths.delete(id),
    );
  }
  return made;
}

export async function storeTextImage(
  ctx: ServiceContext,
  upload: { bytes: Buffer; name: string },
): Promise<BlogTextImage> {
  const check = await checkImage(upload.bytes);
  if (!check.ok) throw imageRefused();
  // a GIF may move: it stays animated (as an animated WebP)
  const animated = check.type.ext === 'gif';
  const open = () =>
    sharp(upload.bytes, { animated, limitInputPixels: TEXT_IMAGE_MAX_PIXELS, failOn: 'error' });
  let width: number;
  try {
    const meta = await open().metadata();
    // as it is drawn: a photo taken sideways says so in its orientation
    width = meta.autoOrient?.width ?? meta.width ?? 0;
    if (!width) throw new Error('no width');
  } catch {
    throw imageRefused();
  }

  let variants: { bytes: Buffer; width: number; height: number }[];
  try {
    variants = await Promise.all(variantWidths(width).map((w) => webpAt(upload.bytes, w, animated)));
  } catch (err) {
    ctx.log.warn({ err }, 'An uploaded image could not be converted');
    throw imageRefused();
  }

  const keys: string[] = [];
  try {
    for (const v of variants) {
      keys.push(
        await ctx.storage.put(Readable.from([v.bytes]), {
          prefix: 'blog',
          ext: 'webp',
          contentType: 'image/webp',
        }),
      );
    }
    const name = cleanFileName(upload.name) ?? 'image';
    await inTransaction(ctx, async (c) => {
      for (const [i, key] of keys.entries()) {
        await recordStoredFile(c.trx, {
          file_key: key,
          kind: BLOG_IMAGE_KIND,
          content_type: 'image/webp',
          byte_size: variants[i].bytes.length,
          original_name: name,
        });
      }
    });
  } catch (err) {
    await Promise.all(keys.map((key) => ctx.storage.delete(key).catch(() => {})));
    throw err;
  }

  const url = (i: number) => `${MEDIA_PREFIX}${keys[i]}`;
  const largest = variants.length - 1;
  const fallback = variants.reduce((best, v, i) => (v.width <= FALLBACK_WIDTH ? i : best), 0);
  return {
    src: url(fallback),
    srcset: variants.map((v, i) => `${url(i)} ${v.width}w`).join(', '),
    width: variants[largest].width,
    height: variants[largest].height,
  };
}

/** Storage keys of blog images named in `text` (a post's text, a cover, a revision's fields). */
const KEY_IN_TEXT = /blog\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,8}/g;

/**
 * Removes blog images stored more than a day before `now` that no post and no kept revision names
 * (covers and images in the text alike); answers how many files went.
 */
export async function sweepUnusedBlogImages(ctx: ServiceContext, now: Date): Promise<number> {
  const candidates = await blogImageKeysBefore(ctx.db, new Date(now.getTime() - DAY_MS).toISOString());
  if (candidates.length === 0) return 0;
  const named = new Set<string>();
  for await (const text of textsNamingBlogImages(ctx.db)) {
    for (const key of text.match(KEY_IN_TEXT) ?? []) named.add(key);
  }
  const unused = candidates.filter((key) => !named.has(key));
  for (let i = 0; i < unused.length; i += 200) {
    const batch = unused.slice(i, i + 200);
    await deleteStoredFiles(ctx.db, batch, BLOG_IMAGE_KIND);
    for (const key of batch) await ctx.storage.delete(key).catch(() => {});
  }
  return unused.length;
}
