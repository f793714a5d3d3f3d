import type { MigrationDb } from '../migrate';

/**
 * Countries. The ids are those of the widely used countries
 * list in which India is 101, so they are given, not generated; the rows come from the pricing
 * seeder (server/db/seed/countries.json). `iso2` is stored upper case.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('country')
    .addColumn('country_id', 'integer', (col) => col.primaryKey())
    .addColumn('country_name', 'varchar(100)', (col) => col.notNull())
    .addColumn('iso2', 'varchar(2)', (col) => col.notNull().unique())
    .addColumn('currency', 'varchar(3)', (col) => col.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('country').execute();
}
