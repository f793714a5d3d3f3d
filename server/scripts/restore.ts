/**
 * `npm run restore -- FROM [--force]`: restores the backup folder FROM into DATA_DIR, which must be
 * empty unless --force, and which no running server may hold. The backup is copied into a new
 * folder beside DATA_DIR and proven there (plain files only, every checksum, SQLite's integrity
 * check, this version's migrations); only then does one rename swap it in, and the old folder is
 * removed. A refusal leaves DATA_DIR as it was. Start the server on DATA_DIR afterwards.
 */
import path from 'node:path';
import { ConfigError, DEFAULT_DATA_DIR } from '../config';
import { BackupError, restoreBackup } from '../lib/backup';
import { runCommand } from './cli';

const USAGE = 'Usage: npm run restore -- /path/to/backups/manna-backup-<time> [--force]';

process.exitCode = await runCommand(
  USAGE,
  { force: { type: 'boolean' } },
  async ({ values, positionals }) => {
    if (positionals.length !== 1) {
      console.error(`Name one backup folder.\n${USAGE}`);
      return 1;
    }
    // Only DATA_DIR matters here, read as config.ts reads it; loading the whole config would make
    // a new SECRET file in DATA_DIR, and the folder would no longer be empty.
    const dataDir = path.resolve(process.env.DATA_DIR ?? DEFAULT_DATA_DIR);
    const started = Date.now();
    const result = await restoreBackup(positionals[0], dataDir, { force: values.force === true });
    console.log(
      `Restored ${result.files} files (${(result.bytes / 1e6).toFixed(1)} MB) into ${dataDir} in ${((Date.now() - started) / 1000).toFixed(1)} s; every checksum matches, the database passes its integrity check and is migrated.`,
    );
    return 0;
  },
  [BackupError, ConfigError],
);
