import { sql } from 'kysely';
import { pendingMigrations } from '../db/migrate';
import type { ServiceContext } from './context';

/** What the health checks ask: a real query, the migrations not yet run, the file store. */
export async function databaseAnswers(ctx: ServiceContext): Promise<void> {
  await sql`select 1`.execute(ctx.db);
}
export const migrationsPending = (ctx: ServiceContext): Promise<string[]> => pendingMigrations(ctx.db);
export const storageAnswers = (ctx: ServiceContext): Promise<void> => ctx.storage.check();
