/**
 * `npm run backup -- --out DIR`: one consistent backup of the database and files of the settings
 * (DATA_DIR / DATABASE_URL / S3_*) into a new folder `DIR/manna-backup-<UTC time>`, safe while the
 * server runs and takes writes (server/lib/backup.ts says what it holds). Prints the folder, its
 * size and the time taken; exits 1 with the reason when it cannot.
 */
import { ConfigError, loadConfig } from '../config';
import { BackupError, takeBackup } from '../lib/backup';
import { runCommand } from './cli';

const USAGE = 'Usage: npm run backup -- --out /path/to/backups   (or set BACKUP_DIR)';

process.exitCode = await runCommand(
  USAGE,
  { out: { type: 'string' } },
  async ({ values }) => {
    const out = (values.out as string | undefined) ?? process.env.BACKUP_DIR;
    if (!out) {
      console.error(`--out is required (or BACKUP_DIR).\n${USAGE}`);
      return 1;
    }
    const result = await takeBackup(loadConfig(process.env), out);
    console.log(
      `Backup ${result.dir}: ${result.files} files, ${(result.bytes / 1e6).toFixed(1)} MB, in ${(result.ms / 1000).toFixed(1)} s`,
    );
    for (const note of [result.manifest.database.note, result.manifest.storage.note]) {
      if (note) console.warn(`Note: ${note}`);
    }
    return 0;
  },
  [BackupError, ConfigError],
);
