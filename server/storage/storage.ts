import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * Where uploaded files live: local disk by default (local.ts), S3 when
 * configured (a later driver with the same interface). Files are stored under keys the server
 * generates (`cv/<uuid>.pdf`), never under an uploaded name. A stored object is complete or absent:
 * a crash while storing never leaves a half file under a key.
 */
export interface Storage {
  /** Which driver this is ('local' or 's3'), for logs and health checks. */
  readonly driver: string;
  /**
   * Stores bytes under a new generated key `<prefix>/<uuid>.<ext>` and answers the key once the
   * object is complete. `source` is a stream, or a file to copy (the caller keeps and removes it).
   */
  put(source: Readable | { path: string }, options: PutOptions): Promise<string>;
  /** The object's bytes as a stream, or undefined for an unknown key. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; an unknown key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Throws unless the store answers and can be written (GET /api/ready): the folder, or the bucket. */
  check(): Promise<void>;
  /**
   * Every stored key with the time it was written (the local driver), for the start-up sweep of
   * files that no row references (lib/orphan-files.ts).
   */
  list?(): AsyncIterable<{ key: string; modifiedAt: number }>;
}

export interface PutOptions {
  /** First part of the key: 'cv', 'blog'. Lower-case letters, digits and '-'. */
  prefix: string;
  /** Extension without the dot, chosen from the checked content ('pdf', 'docx'). */
  ext: string;
  contentType: string;
  /**
   * An existing key whose bytes these replace, at once (a reader sees the old bytes or the new,
   * never part of either): a cover repaired in place. Its own prefix and extension stand.
   */
  replace?: string;
}

/** The key a put writes: the key it replaces, else a new one. */
export function keyOfPut(options: PutOptions): string {
  if (options.replace === undefined) return newKey(options.prefix, options.ext);
  if (!isStorageKey(options.replace)) throw new Error('Only a stored key can be replaced');
  return options.replace;
}

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string;
}

const PREFIX = /^[a-z0-9-]{1,30}$/;
const EXT = /^[a-z0-9]{1,8}$/;
/** Every key this server makes: prefix/uuid.ext. Anything else is not a key (no paths, no dots). */
export const KEY_PATTERN =
  /^[a-z0-9-]{1,30}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,8}$/;

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function newKey(prefix: string, ext: string): string {
  if (!PREFIX.test(prefix)) throw new Error(`Invalid storage prefix "${prefix}"`);
  if (!EXT.test(ext)) throw new Error(`Invalid storage extension "${ext}"`);
  return `${prefix}/${randomUUID()}.${ext}`;
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

/** The content type of a key's extension (keys carry the extension of the checked content). */
export function contentTypeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1);
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}
