/**
 * `npm run backup -- --out DIR`: one consistent backup of the database and files of the settings
 * (DATA_DIR / DATABASE_URL / S3_*) into a new folder `DIR/manna-backup-<UTC time>`, safe while the
 * server runs and takes writes (server/lib/backup.ts says what it holds). Prints the folder, its
 * size and the time taken; exits 1 with the reason when it cannot.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { BackupError, takeBackup } from '../lib/backup';

const USAGE = 'Usage: npm run backup -- --out /path/to/backups';

async function main(): Promise<number> {
  let values: { out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { out: { type: 'string' }, help: { type: 'boolean' } },
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
  const out = values.out ?? process.env.BACKUP_DIR;
  if (!out) {
    console.error(`--out is required (or BACKUP_DIR).\n${USAGE}`);
    return 1;
  }
  try {
    const config = loadConfig(process.env);
    const result = await takeBackup(config, out);
    console.log(
      `Backup ${result.dir}: ${result.files} files, ${(result.bytes / 1e6).toFixed(1)} MB, in ${(result.ms / 1000).toFixed(1)} s`,
    );
    for (const note of [result.manifest.database.note, result.manifest.storage.note])
      if (note) console.warn(`Note: ${note}`);
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
