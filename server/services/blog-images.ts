import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { IMAGE_WIDTHS } from '../../contract/blog';
import { BLOG_MESSAGES as M, type BlogTextImage } from '../../contract/blog-form';
import {
  BLOG_IMAGE_KIND,
  COVER_WIDTH_KIND,
  MEDIA_PREFIX,
  blogImageKeysBefore,
  coverWidthFile,
  coverWidthFilesOf,
  coversWithoutWidths,
  deleteCoverWidths,
  insertCoverWidths,
  textsNamingBlogImages,
} from '../db/blog.repo';
import { finishLease, PROCESS_HOLDER, releaseLease, takeLease } from '../db/scheduled-task.repo';
import { deleteStoredFiles, recordStoredFile, setStoredFileSize } from '../db/files.repo';
import { cleanFileName } from '../lib/file-check';
import { checkImage } from '../lib/image-check';
import { refusedPost } from './blog';
import { inTransaction, type ServiceContext } from './context';

/**
 * Images inside a post's text (docs/decisions/025-blog-publishing.md). The editor uploads one at a time; it is accepted by its
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
 * metadata: a text image's stored variants and a cover's widths (`storeCoverWidths`).
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

/** The photo covers (their stored type and how sharp writes it); GIF and SVG covers stay as sent. */
const PHOTO_COVERS: Record<string, 'jpeg' | 'png' | 'webp' | 'avif'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

/** Whether a cover of this stored type has widths (a photo). */
export const hasWidths = (contentType: string) => contentType in PHOTO_COVERS;

/**
 * A photo cover as it is stored and linked (the page, Open Graph, RSS): decoded whole (a file that
 * only looks like an image is refused, 'invalid'), no larger than TEXT_IMAGE_MAX_PIXELS
 * ('tooLarge', refused before it is decoded), turned upright and without its metadata (a phone
 * photo's place, time and camera), in its own format.
 */
export async function cleanCover(bytes: Buffer, contentType: string): Promise<Buffer | 'invalid' | 'tooLarge'> {
  const format = PHOTO_COVERS[contentType];
  if (!format) return bytes;
  const image = sharp(bytes, { limitInputPixels: TEXT_IMAGE_MAX_PIXELS, failOn: 'error' }).rotate();
  try {
    if (format === 'jpeg') return await image.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    if (format === 'png') return await image.png().toBuffer();
    if (format === 'webp') return await image.webp({ quality: 90 }).toBuffer();
    return await image.avif({ quality: 70 }).toBuffer();
  } catch (err) {
    return /pixel limit/i.test(String(err)) ? 'tooLarge' : 'invalid';
  }
}

/**
 * Makes and stores a cleaned photo cover's widths: WebP files at each of IMAGE_WIDTHS (never wider
 * than the cover; the widths of a small cover share one file), each with its stored_file row, and
 * the cover's `cover_width` rows. Answers the files made (removed again if recording them fails).
 */
export async function storeCoverWidths(ctx: ServiceContext, coverKey: string, clean: Buffer): Promise<string[]> {
  const meta = await sharp(clean, { limitInputPixels: TEXT_IMAGE_MAX_PIXELS }).metadata();
  const widths = variantWidths(meta.width ?? 1);
  const made = await Promise.all(widths.map((w) => webpAt(clean, w, false)));
  const keys: string[] = [];
  try {
    for (const m of made)
      keys.push(
        await ctx.storage.put(Readable.from([m.bytes]), { prefix: 'blog', ext: 'webp', contentType: 'image/webp' }),
      );
    await inTransaction(ctx, async (c) => {
      for (const [i, key] of keys.entries())
        await recordStoredFile(c.trx, {
          file_key: key,
          kind: COVER_WIDTH_KIND,
          content_type: 'image/webp',
          byte_size: made[i].bytes.length,
          original_name: `cover-${made[i].width}.webp`,
        });
      await insertCoverWidths(
        c.trx,
        TEXT_IMAGE_WIDTHS.map((width) => ({
          cover_key: coverKey,
          width,
          file_key: keys[widths.indexOf(Math.min(width, meta.width ?? 1))],
        })),
      );
    });
  } catch (err) {
    await Promise.all(keys.map((key) => ctx.storage.delete(key).catch(() => {})));
    throw err;
  }
  return keys;
}

/** The stored file that answers a cover at one of IMAGE_WIDTHS, if it was made (never made here). */
export const coverWidthKey = (ctx: ServiceContext, coverKey: string, width: number) =>
  coverWidthFile(ctx.db, coverKey, width);

/** Removes the width files of covers that are going (their rows, then the files). */
export async function dropCoverWidths(ctx: ServiceContext, coverKeys: readonly string[]): Promise<void> {
  const files = await coverWidthFilesOf(ctx.db, coverKeys);
  await deleteCoverWidths(ctx.db, coverKeys);
  await deleteStoredFiles(ctx.db, files, COVER_WIDTH_KIND);
  for (const key of files) await ctx.storage.delete(key).catch(() => {});
}

export const COVER_REPAIR_TASK = 'cover-repair';

/**
 * The one-time repair of photo covers stored before covers were cleaned at upload: each is
 * cleaned in place (the same key, so posts, revisions and links stay) and given its widths. Run by
 * one process of the site under a lease, once (a failed run is tried again at the next start);
 * a cover that cannot be read or is over the pixel limit is left as it is, with a warning.
 * Answers how many covers were repaired, or null when another process has it or it has run.
 */
export async function repairStoredCovers(ctx: ServiceContext, holder = PROCESS_HOLDER): Promise<number | null> {
  const now = ctx.now();
  const taken = await takeLease(ctx.db, COVER_REPAIR_TASK, {
    holder,
    now,
    leaseMs: 60 * 60 * 1000,
    everyMs: 100 * 365 * 24 * 60 * 60 * 1000, // once: the last run is never a century old
  });
  if (!taken) return null;
  try {
    let repaired = 0;
    for (const cover of await coversWithoutWidths(ctx.db)) {
      const object = await ctx.storage.get(cover.file_key);
      if (!object) continue;
      const clean = await cleanCover(await buffer(object.body), cover.content_type);
      if (typeof clean === 'string') {
        ctx.log.warn({ key: cover.file_key, problem: clean }, 'A stored cover could not be repaired; it is left as it is');
        continue;
      }
      await ctx.storage.put(Readable.from([clean]), {
        prefix: 'blog',
        ext: cover.file_key.slice(cover.file_key.lastIndexOf('.') + 1),
        contentType: cover.content_type,
        replace: cover.file_key,
      });
      await setStoredFileSize(ctx.db, cover.file_key, clean.length);
      await storeCoverWidths(ctx, cover.file_key, clean);
      repaired++;
    }
    await finishLease(ctx.db, COVER_REPAIR_TASK, holder, now, `repaired ${repaired}`);
    if (repaired > 0) ctx.log.info({ repaired }, 'Stored covers repaired: cleaned, with their widths');
    return repaired;
  } catch (err) {
    ctx.log.error({ err }, 'Repairing stored covers failed; it is tried again at the next start');
    await releaseLease(ctx.db, COVER_REPAIR_TASK, holder, `failed: ${String(err)}`).catch(() => {});
    return null;
  }
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
    await dropCoverWidths(ctx, batch);
    await deleteStoredFiles(ctx.db, batch, BLOG_IMAGE_KIND);
    for (const key of batch) await ctx.storage.delete(key).catch(() => {});
  }
  return unused.length;
}
