import type { MigrationDb } from '../migrate';

/**
 * A page view keeps its day, never its instant (docs/decisions/028-visit-figures.md): the figures
 * are daily, and an instant beside the request log's time would let a reader join a visitor's
 * hash, and so all of that person's views that day, to the address that sent the beacon.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('analytics_view').dropColumn('at').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('analytics_view')
    .addColumn('at', 'varchar(30)', (col) => col.notNull().defaultTo(''))
    .execute();
}
