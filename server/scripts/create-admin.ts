/**
 * `npm run create-admin -- --email E --password P`: creates an owner account in the database of
 * the settings (DATA_DIR / DATABASE_URL), migrating it first. Prints what it did; exits 1 with
 * the reason when the account cannot be made (weak password, taken email, bad settings).
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { createDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import type { Database } from '../db/schema';
import type { Kysely } from 'kysely';
import { createOwner, OwnerAccountError } from '../lib/owner-account';

const USAGE = 'Usage: npm run create-admin -- --email you@example.com --password "a long passphrase"';

async function main(): Promise<number> {
  let values: { email?: string; password?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean' } },
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
  if (!values.email || !values.password) {
    console.error(`--email and --password are required.\n${USAGE}`);
    return 1;
  }
  let db: Kysely<Database> | undefined;
  try {
    const config = loadConfig();
    db = createDatabase(config.database);
    await migrateToLatest(db);
    const userId = await createOwner(db, values.email, values.password, 'create-admin');
    console.log(`Owner account ${values.email.trim().toLowerCase()} created (user ${userId}).`);
    return 0;
  } catch (err) {
    if (err instanceof OwnerAccountError || err instanceof ConfigError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await db?.destroy();
  }
}

process.exitCode = await main();
