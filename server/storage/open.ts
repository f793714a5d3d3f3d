import path from 'node:path';
import { createLocalStorage } from './local';
import { createS3Storage, type S3StorageSettings } from './s3';
import type { Storage } from './storage';

/**
 * The site's file store as its settings name it: the S3 bucket when the S3_ settings are given,
 * else local disk under DATA_DIR/files. One way for the server (plugins/storage.ts) and the CLI.
 * `close()` ends what it holds open (the S3 client's connections).
 */
export async function openStorage(options: {
  dataDir: string;
  s3?: S3StorageSettings;
}): Promise<{ storage: Storage; close(): void; where: string }> {
  if (options.s3) {
    const s3 = createS3Storage(options.s3);
    return { storage: s3, close: () => s3.client.destroy(), where: `S3 ${options.s3.bucket}` };
  }
  const root = path.join(options.dataDir, 'files');
  return { storage: await createLocalStorage(root), close: () => {}, where: root };
}
