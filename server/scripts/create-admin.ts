/**
 * `npm run create-admin -- --email E`: creates an owner account in the database of the settings
 * (DATA_DIR / DATABASE_URL), migrating it first. The password comes from ADMIN_PASSWORD, or is
 * asked for at a prompt that does not echo it (or read as the first line of standard input when
 * that is not a terminal), never from the command line, where the shell history and the process
 * list would keep it. Prints what it did; exits 1 with the reason when the account cannot be made
 * (weak password, taken email, bad settings).
 */
import readline from 'node:readline';
import { ConfigError, loadConfig } from '../config';
import { createDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import type { Database } from '../db/schema';
import type { Kysely } from 'kysely';
import { systemContext } from '../services/context';
import { createOwner, OwnerAccountError } from '../services/owner';
import { openStorage } from '../storage/open';
import { runCommand } from './cli';

const USAGE =
  'Usage: npm run create-admin -- --email you@example.com\n' +
  '  The password is asked for at the prompt, or read from ADMIN_PASSWORD.';

/** The password from a prompt that shows nothing typed, or from piped standard input. */
async function readPassword(): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) text += String(chunk);
    return text.split(/\r?\n/, 1)[0] ?? '';
  }
  const rl = readline.createInterface({ input, output: process.stdout, terminal: true });
  let muted = false;
  // readline echoes through this method: keep the prompt, hide what is typed
  (rl as unknown as { _writeToOutput(text: string): void })._writeToOutput = (text: string) => {
    if (!muted) process.stdout.write(text);
  };
  const answer = new Promise<string>((resolve) => rl.question('Password: ', resolve));
  muted = true;
  const password = await answer;
  rl.close();
  process.stdout.write('\n');
  return password;
}

process.exitCode = await runCommand(
  USAGE,
  { email: { type: 'string' }, password: { type: 'string' } },
  async ({ values }) => {
    if (values.password !== undefined) {
      console.error(
        'Do not pass the password on the command line: the shell history and the process list keep it.\n' +
          USAGE,
      );
      return 1;
    }
    const email = values.email as string | undefined;
    if (!email) {
      console.error(`--email is required.\n${USAGE}`);
      return 1;
    }
    const password = process.env.ADMIN_PASSWORD || (await readPassword());
    if (!password) {
      console.error(`No password given.\n${USAGE}`);
      return 1;
    }
    let db: Kysely<Database> | undefined;
    let files: Awaited<ReturnType<typeof openStorage>> | undefined;
    try {
      // ADMIN_PASSWORD is this script's input here, not the first-start pair of the server
      const config = loadConfig({ ...process.env, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
      db = createDatabase(config.database);
      await migrateToLatest(db);
      files = await openStorage({ dataDir: config.DATA_DIR, s3: config.s3 });
      const ctx = systemContext({ db, config, storage: files.storage });
      const userId = await createOwner(ctx, email, password, 'create-admin');
      console.log(`Owner account ${email.trim().toLowerCase()} created (user ${userId}).`);
      return 0;
    } finally {
      files?.close();
      await db?.destroy();
    }
  },
  [OwnerAccountError, ConfigError],
);
