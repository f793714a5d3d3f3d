import path from 'node:path';
import { createLocalStorage } from '../storage/local';
import { createS3Storage, type S3StorageSettings } from '../storage/s3';
import type { Storage } from '../storage/storage';
import { global } from './global';

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
export const storage = global<{ dataDir: string; s3?: S3StorageSettings }>(async (app, options) => {
  if (options.s3) {
    const s3 = createS3Storage(options.s3);
    app.addHook('onClose', async () => s3.client.destroy());
    app.decorate('storage', s3);
    app.log.info(
      { bucket: options.s3.bucket, endpoint: options.s3.endpoint ?? 'AWS' },
      'Files are stored in S3',
    );
    return;
  }
  app.decorate('storage', await createLocalStorage(path.join(options.dataDir, 'files')));
});
