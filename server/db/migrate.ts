import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { dialectOf } from './database';

/**
 * What a migration's up()/down() receive. Deliberately untyped: a migration describes the schema as
 * it was when it was written, not the current `Database` interface.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type MigrationDb = Kysely<any>;

export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * A migration file: `NNNN-kebab-name.ts` (`.js` in the container image's compiled server); its
 * tests (`.test.ts`) sit beside it and are skipped. The name without the extension is what the
 * database records, so both forms are the same migration.
 */
const MIGRATION_FILE = /^\d{4}-[a-z0-9-]+\.[tj]s$/;

/**
 * Kysely's FileMigrationProvider would also import `*.test.ts` files, so this small provider lists
 * the folder itself. Migrations run in file-name order.
 */
export class MigrationFolder implements MigrationProvider {
  constructor(private readonly dir = migrationsDir) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(this.dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const module = (await import(pathToFileURL(path.join(this.dir, file)).href)) as Partial<Migration>;
      if (typeof module.up !== 'function') throw new Error(`Migration ${file} exports no up() function`);
      migrations[file.replace(/\.[tj]s$/, '')] = { up: module.up, down: module.down };
    }
    return migrations;
  }
}

/** The migrator of `dir` for `db`. */
async function migratorOf<DB>(db: Kysely<DB>, dir: string): Promise<Migrator> {
  // On PostgreSQL, Kysely would accept its bookkeeping tables from any schema; pin them to ours.
  const migrationTableSchema =
    dialectOf(db) === 'postgres'
      ? ((await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0]
          ?.schema ?? undefined)
      : undefined;
  return new Migrator({ db, provider: new MigrationFolder(dir), migrationTableSchema });
}

/** Brings the database to the newest migration; throws an error naming the migration that failed. */
export async function migrateToLatest<DB>(db: Kysely<DB>, dir = migrationsDir): Promise<string[]> {
  const migrator = await migratorOf(db, dir);
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      failed ? `Migration ${failed} failed: ${reason}` : `Migrations could not run: ${reason}`,
      { cause: error },
    );
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of the migrations of `dir` that this database has not run yet (none when it is current). */
export async function pendingMigrations<DB>(db: Kysely<DB>, dir = migrationsDir): Promise<string[]> {
  // Read from the folder's names and our own bookkeeping table, not through Kysely's migrator: it
  // loads every migration module and reads the table list of every schema of the database, which
  // a load balancer's /api/ready poll should not cost (and which fails while another schema of the
  // database is being dropped).
  const names = [
    ...new Set(
      (await fs.readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).map((f) => f.replace(/\.[tj]s$/, '')),
    ),
  ].sort();
  const kept =
    dialectOf(db) === 'postgres'
      ? (await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(db)).rows[0]
          ?.t != null
      : Number(
          (
            await sql<{ n: number }>`select count(*) as n from sqlite_master
              where type = 'table' and name = 'kysely_migration'`.execute(db)
          ).rows[0]?.n,
        ) > 0;
  if (!kept) return names;
  const done = new Set(
    (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name),
  );
  return names.filter((name) => !done.has(name));
}
