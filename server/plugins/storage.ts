import fp from 'fastify-plugin';
import { openStorage } from '../storage/open';
import type { S3StorageSettings } from '../storage/s3';
import type { Storage } from '../storage/storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files (CVs, blog images): server/storage, local disk under DATA_DIR/files by default. */
    storage: Storage;
  }
}

/**
 * Decorates `app.storage`: local disk (DATA_DIR/files), or the S3 bucket when the S3_ settings
 * are given (server/storage/README.md).
 */
export const storage = fp<{ dataDir: string; s3?: S3StorageSettings }>(
  async (app, options) => {
    const opened = await openStorage(options);
    app.addHook('onClose', async () => opened.close());
    app.decorate('storage', opened.storage);
    if (options.s3)
      app.log.info(
        { bucket: options.s3.bucket, endpoint: options.s3.endpoint ?? 'AWS' },
        'Files are stored in S3',
      );
  },
  { name: 'storage' },
);
