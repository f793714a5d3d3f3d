import { fileTypeFromBuffer } from 'file-type';

/**
 * Featured images are accepted by their bytes, never by name or
 * declared type: PNG, JPEG, WebP, GIF or AVIF as file-type recognises them from the magic bytes.
 * SVG is refused (it is a document that can carry script), and so is everything else: an HTML or
 * SVG file renamed `.png` has no image signature. The résumé checks live in file-check.ts.
 */

export type ImageType = { ext: 'png' | 'jpg' | 'webp' | 'gif' | 'avif'; contentType: string };
export type ImageCheck = { ok: true; type: ImageType } | { ok: false; reason: string };

const ACCEPTED: Record<string, ImageType> = {
  png: { ext: 'png', contentType: 'image/png' },
  jpg: { ext: 'jpg', contentType: 'image/jpeg' },
  webp: { ext: 'webp', contentType: 'image/webp' },
  gif: { ext: 'gif', contentType: 'image/gif' },
  avif: { ext: 'avif', contentType: 'image/avif' },
};

/** Decides whether `bytes` is an image we publish. Never throws for any input. */
export async function checkImage(bytes: Buffer): Promise<ImageCheck> {
  if (bytes.length === 0) return { ok: false, reason: 'empty file' };
  let detected: { ext: string; mime: string } | undefined;
  try {
    detected = await fileTypeFromBuffer(bytes);
  } catch {
    detected = undefined;
  }
  // an animated PNG is a PNG
  const ext = detected?.ext === 'apng' ? 'png' : detected?.ext;
  const type = ext ? ACCEPTED[ext] : undefined;
  if (!type) {
    return { ok: false, reason: detected ? `content is ${detected.ext}` : 'unknown content' };
  }
  return { ok: true, type };
}

/** Content types /media may answer with for a public image (seeded artwork may be SVG). */
export const PUBLIC_IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/svg+xml',
]);
