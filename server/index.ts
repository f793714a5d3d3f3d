import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { migrateToLatest } from './db/migrate';
import { runSeeders } from './db/seed';
import { createAdminCommand, issueSetupToken, prepareAccounts, SETUP_TOKEN_HOURS } from './services/owner';
import { unavailableMessage } from './lib/dependency-errors';
import { removeOrphanFiles } from './lib/orphan-files';
import { DataDirError, holdDataDir, privateFiles, securePrivateFolder } from './lib/data-dir';

/** How long in-flight requests get to finish after SIGTERM/SIGINT. */
const SHUTDOWN_GRACE_MS = 10_000;

// what this process creates (the database, its WAL, CVs, the secret) only its own account reads
privateFiles();

let config: Config;
let modesFixed: number;
try {
  config = loadConfig();
  modesFixed = securePrivateFolder(config.DATA_DIR);
} catch (err) {
  if (!(err instanceof ConfigError) && !(err instanceof DataDirError)) throw err;
  console.error(err.message);
  process.exit(1);
}
// `npm run restore` refuses a folder a running server holds
const releaseDataDir = holdDataDir(config.DATA_DIR);

const app = await buildApp(config);
app.addHook('onClose', async () => releaseDataDir());

// Signals are handled from here on: a SIGTERM during start-up closes what has been opened.
let closing = false;
function shutdown(signal: NodeJS.Signals) {
  if (closing) {
    app.log.warn({ signal }, 'Second signal: exiting now');
    process.exit(1);
  }
  closing = true;
  app.log.info({ signal }, 'Shutting down: finishing in-flight requests');
  setTimeout(() => {
    app.log.error(`In-flight requests did not finish within ${SHUTDOWN_GRACE_MS / 1000} s; exiting`);
    process.exit(1);
  }, SHUTDOWN_GRACE_MS).unref();
  app.close().then(
    () => process.exit(0),
    (err: unknown) => {
      app.log.error({ err }, 'Shutdown failed');
      process.exit(1);
    },
  );
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

if (modesFixed > 0) {
  app.log.warn(
    { dataDir: config.DATA_DIR, changed: modesFixed },
    'DATA_DIR was readable by other accounts: made it 0700 and its files 0600',
  );
}

/**
 * Migrates, waiting for a database that is not reachable yet (PostgreSQL starting beside us) up
 * to DATABASE_WAIT_SECONDS, with one log line per try; any other error stops at once.
 */
async function migrateWhenReachable() {
  const deadline = Date.now() + config.DATABASE_WAIT_SECONDS * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateToLatest(app.db);
    } catch (err) {
      if (!unavailableMessage(err) || Date.now() >= deadline) throw err;
      app.log.warn(
        { attempt, err: err instanceof Error ? err.message : String(err) },
        `The database is not reachable yet; trying again (for up to ${config.DATABASE_WAIT_SECONDS} s)`,
      );
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * attempt, 5000)));
    }
  }
}

/** Printed once the server listens, when the site has no account yet (services/owner.ts). */
let setupToken: string | null = null;

try {
  const applied = await migrateWhenReachable();
  if (applied.length > 0) app.log.info({ migrations: applied }, 'Database migrated');
  const accounts = await prepareAccounts(app.services(), config);
  const unsetReplies = (['CONTACT_REPLY_TO', 'HIRING_REPLY_TO'] as const).filter((name) => !config[name]);
  if (config.SMTP_URL && unsetReplies.length > 0)
    app.log.warn(
      { unset: unsetReplies },
      `Replies to the site's mails go nowhere: set ${unsetReplies.join(' and ')} to a mailbox someone reads (otherwise they reach ${config.MAIL_FROM})`,
    );
  if (accounts.created) app.log.info({ email: accounts.email }, 'Owner account created from ADMIN_EMAIL');
  else if (accounts.passwordLeftSet)
    app.log.warn(
      'ADMIN_PASSWORD is still set, though accounts exist and it does nothing: remove ADMIN_EMAIL and ADMIN_PASSWORD from the settings (.env), so the password does not stay in the environment',
    );
  setupToken = await issueSetupToken(app.services());
  if (config.SEED_DEMO) {
    const seeders = await runSeeders(app.db, config);
    app.log.info({ seeders }, 'Demo content seeded');
  }
  // files a crash left without their row (an upload killed between its file and its row)
  const orphans = await removeOrphanFiles(app.db, app.storage, {
    minAgeMs: config.ORPHAN_MIN_AGE_SECONDS * 1000,
  });
  if (orphans.length > 0)
    app.log.warn({ count: orphans.length }, 'Removed stored files that no row references');
  await app.listen({ host: config.HOST, port: config.PORT });
} catch (err) {
  const code = (err as NodeJS.ErrnoException).code;
  console.error(
    code === 'EADDRINUSE'
      ? `Port ${config.PORT} on ${config.HOST} is in use; stop the other server or set PORT`
      : unavailableMessage(err)
        ? `Manna could not start: the database did not answer within ${config.DATABASE_WAIT_SECONDS} s (${err instanceof Error ? err.message : String(err)}); check DATABASE_URL`
        : `Manna could not start: ${err instanceof Error ? err.message : String(err)}`,
  );
  await app.close().catch(() => {});
  process.exit(1);
}

const host = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(config.HOST)
  ? 'localhost'
  : config.HOST.includes(':')
    ? `[${config.HOST}]`
    : config.HOST;
const local = `http://${host}:${config.PORT}`;
console.log(
  `Manna is running at ${local}${config.PUBLIC_URL !== local ? ` (public address ${config.PUBLIC_URL})` : ''}`,
);
if (setupToken) {
  // the container image runs the compiled server (scripts/container-server.mjs), without npm
  const createAdmin = createAdminCommand(import.meta.url);
  console.log(
    `No admin account exists yet. Create the owner account at\n\n  ${config.PUBLIC_URL}/admin/setup?token=${setupToken}\n\n` +
      `(works once, for ${SETUP_TOKEN_HOURS} hours), or run: ${createAdmin}`,
  );
}
