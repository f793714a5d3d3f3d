// @vitest-environment node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createDatabase, dialectOf } from './database';
import { migrateToLatest, MigrationFolder, pendingMigrations } from './migrate';
import type { Database } from './schema';
import { runSeeders } from './seed';

let dir: string;
let db: Kysely<Database> | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-db-'));
});
afterEach(async () => {
  await db?.destroy();
  db = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

const sqliteFile = () => path.join(dir, 'data', 'manna.sqlite');
const openSqlite = () => (db = createDatabase({ dialect: 'sqlite', file: sqliteFile() }));

describe('the embedded SQLite database', () => {
  it('is created in DATA_DIR and migrated from scratch, with WAL and foreign keys on', async () => {
    const db = openSqlite();
    expect(await migrateToLatest(db)).toContain('0001-initial');
    expect(fs.existsSync(sqliteFile())).toBe(true);
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0];
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
    await db.insertInto('app_meta').values({ key: 'k', value: 'v' }).execute();
    expect(await db.selectFrom('app_meta').selectAll().execute()).toEqual([{ key: 'k', value: 'v' }]);
    expect(dialectOf(db)).toBe('sqlite');
    await db.transaction().execute(async (trx) => expect(dialectOf(trx)).toBe('sqlite'));
  });

  it('applies nothing the second time', async () => {
    const db = openSqlite();
    await migrateToLatest(db);
    expect(await migrateToLatest(db)).toEqual([]);
  });
});

describe('migrations', () => {
  const write = (file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);

  it('run in file-name order and skip test files and other names', async () => {
    write(
      '0002-second.ts',
      `export async function up(db) { await db.schema.createTable('second').addColumn('id', 'integer').execute() }`,
    );
    write(
      '0001-first.ts',
      `export async function up(db) { await db.schema.createTable('first').addColumn('id', 'integer').execute() }`,
    );
    write('0001-first.test.ts', `throw new Error('a test file must not be imported')`);
    write('notes.md', 'not a migration');
    expect(Object.keys(await new MigrationFolder(dir).getMigrations())).toEqual([
      '0001-first',
      '0002-second',
    ]);
    expect(await migrateToLatest(openSqlite(), dir)).toEqual(['0001-first', '0002-second']);
  });

  it('compiled to .js (the container image) are the same migrations: nothing runs twice', async () => {
    const migration = `export async function up(db) { await db.schema.createTable('first').addColumn('id', 'integer').execute() }`;
    write('0001-first.ts', migration);
    const db = openSqlite();
    expect(await migrateToLatest(db, dir)).toEqual(['0001-first']);
    const compiled = fs.mkdtempSync(path.join(dir, 'compiled-'));
    fs.writeFileSync(path.join(compiled, 'package.json'), '{"type":"module"}');
    fs.writeFileSync(path.join(compiled, '0001-first.js'), migration);
    fs.writeFileSync(
      path.join(compiled, '0002-second.js'),
      `export async function up(db) { await db.schema.createTable('second').addColumn('id', 'integer').execute() }`,
    );
    expect(Object.keys(await new MigrationFolder(compiled).getMigrations())).toEqual([
      '0001-first',
      '0002-second',
    ]);
    expect(await migrateToLatest(db, compiled)).toEqual(['0002-second']);
  });

  it('that have not run are named from the folder and the bookkeeping table (/api/ready)', async () => {
    const migration = `export async function up(db) { await db.schema.createTable('first').addColumn('id', 'integer').execute() }`;
    write('0001-first.ts', migration);
    write('0001-first.test.ts', 'not a migration');
    const db = openSqlite();
    // a database never migrated has no bookkeeping table yet: every migration is pending
    expect(await pendingMigrations(db, dir)).toEqual(['0001-first']);
    await migrateToLatest(db, dir);
    expect(await pendingMigrations(db, dir)).toEqual([]);
    // a new one (and its compiled twin beside it, counted once)
    write('0002-second.ts', migration.replace("'first'", "'second'"));
    write('0002-second.js', migration.replace("'first'", "'second'"));
    expect(await pendingMigrations(db, dir)).toEqual(['0002-second']);
  });

  it('stop with a message naming the migration that failed', async () => {
    write(
      '0001-broken.ts',
      `export async function up(db) { await db.schema.alterTable('missing').addColumn('x', 'text').execute() }`,
    );
    await expect(migrateToLatest(openSqlite(), dir)).rejects.toThrow(/^Migration 0001-broken failed: /);
  });
});

describe('seeders', () => {
  const config = () => loadConfig({ DATA_DIR: dir, SECRET: 'x'.repeat(32) });

  it('handle a folder without seeders', async () => {
    expect(await runSeeders(openSqlite(), config(), dir)).toEqual([]);
  });

  it('run every *.seed.ts in file-name order with the database and settings', async () => {
    const db = openSqlite();
    await migrateToLatest(db);
    const seeder = (value: string) =>
      `export default async (db, config) => { await db.insertInto('app_meta').values({ key: '${value}', value: String(config.PORT) }).onConflict((oc) => oc.doNothing()).execute() }`;
    fs.writeFileSync(path.join(dir, '02-pricing.seed.ts'), seeder('second'));
    fs.writeFileSync(path.join(dir, '01-jobs.seed.ts'), seeder('first'));
    fs.writeFileSync(path.join(dir, 'helpers.ts'), `throw new Error('not a seeder')`);
    expect(await runSeeders(db, config(), dir)).toEqual(['01-jobs.seed.ts', '02-pricing.seed.ts']);
    expect(await db.selectFrom('app_meta').selectAll().orderBy('key').execute()).toEqual([
      { key: 'first', value: '8080' },
      { key: 'second', value: '8080' },
    ]);
  });

  it('name the seeder that failed', async () => {
    fs.writeFileSync(
      path.join(dir, '01-bad.seed.ts'),
      `export default async () => { throw new Error('boom') }`,
    );
    await expect(runSeeders(openSqlite(), config(), dir)).rejects.toThrow(
      'Seeder 01-bad.seed.ts failed: boom',
    );
  });
});
