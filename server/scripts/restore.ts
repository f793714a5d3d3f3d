/**
 * `npm run restore -- FROM [--force]`: restores the backup folder FROM into DATA_DIR, which must be
 * empty unless --force. Every checksum is verified before anything is written (a damaged backup is
 * refused, naming its files), and SQLite's integrity check runs on the restored database before
 * success is reported. Start the server on DATA_DIR afterwards.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { ConfigError, DEFAULT_DATA_DIR } from '../config';
import { BackupError, restoreBackup } from '../lib/backup';

const USAGE = 'Usage: npm run restore -- /path/to/backups/manna-backup-<time> [--force]';

async function main(): Promise<number> {
  let values: { force?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      options: { force: { type: 'boolean' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 1;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(`Name one backup folder.\n${USAGE}`);
    return 1;
  }
  try {
    // Only DATA_DIR matters here, read as config.ts reads it; loading the whole config would make
    // a new SECRET file in DATA_DIR, and the folder would no longer be empty.
    const DATA_DIR = path.resolve(process.env.DATA_DIR ?? DEFAULT_DATA_DIR);
    const started = Date.now();
    const result = await restoreBackup(positionals[0], DATA_DIR, { force: values.force });
    console.log(
      `Restored ${result.files} files (${(result.bytes / 1e6).toFixed(1)} MB) into ${DATA_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s; every checksum matches and the database passes its integrity check.`,
    );
    return 0;
  } catch (err) {
    if (err instanceof BackupError || err instanceof ConfigError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

process.exitCode = await main();
