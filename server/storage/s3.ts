import { Readable } from 'node:stream';
import fsp from 'node:fs/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { contentTypeOfKey, isStorageKey, keyOfPut, type PutOptions, type Storage } from './storage';

export interface S3StorageSettings {
  /** An S3-compatible endpoint (MinIO, R2, s3rver ...); unset: AWS itself in `region`. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** Uploads here are at most a few MB (CVs 5 MB, images 5 MB): read them whole, send with a length. */
async function bytesOf(source: Readable | { path: string }): Promise<Buffer> {
  if (typeof (source as Readable).pipe !== 'function') return fsp.readFile((source as { path: string }).path);
  const chunks: Buffer[] = [];
  for await (const chunk of source as Readable) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const isMissing = (err: unknown) =>
  err instanceof NoSuchKey ||
  err instanceof NotFound ||
  (err as { name?: string }).name === 'NoSuchKey' ||
  (err as { name?: string }).name === 'NotFound' ||
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * Object storage: the same interface as the local driver, over
 * @aws-sdk/client-s3. A PutObject is atomic (an object is complete or absent), so no temporary
 * object is needed. Keys are the server's own (`cv/<uuid>.pdf`), checked before every call.
 * Private files (CVs) are read through the server's own signed /media/private address as on
 * local disk, so every read is logged as its reader's (routes/media.ts).
 */
export function createS3Storage(settings: S3StorageSettings): Storage & { client: S3Client } {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    // path-style addresses (`endpoint/bucket/key`) work with every S3-compatible server
    forcePathStyle: settings.endpoint !== undefined,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
  });
  const Bucket = settings.bucket;

  return {
    driver: 's3',
    client,

    async put(source, options: PutOptions) {
      const key = keyOfPut(options);
      const body = await bytesOf(source);
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: body.length, ContentType: options.contentType }),
      );
      return key;
    },

    async get(key) {
      if (!isStorageKey(key)) return undefined;
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!out.Body) return undefined;
        return {
          body: out.Body as Readable,
          size: Number(out.ContentLength ?? 0),
          contentType: contentTypeOfKey(key),
        };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async delete(key) {
      if (!isStorageKey(key)) return;
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },

    async exists(key) {
      if (!isStorageKey(key)) return false;
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },

  };
}
