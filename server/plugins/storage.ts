import path from 'node:path';
import { createLocalStorage } from '../storage/local';
import type { Storage } from '../storage/storage';
import { global } from './global';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files (CVs, blog images): server/storage, local disk under DATA_DIR/files by default. */
    storage: Storage;
  }
}

/**
 * Decorates `app.storage`. Local disk (DATA_DIR/files) unless S3 is configured; the S3 driver
 * arrives with its own issue, and until then S3 settings still use local disk, with a warning.
 */
export const storage = global<{ dataDir: string; s3Configured: boolean }>(async (app, options) => {
  if (options.s3Configured) {
    app.log.warn(
      'S3 settings are set but the S3 storage driver is not built yet; files go to DATA_DIR/files',
    );
  }
  app.decorate('storage', await createLocalStorage(path.join(options.dataDir, 'files')));
});
