import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Pricing plans: the subscription periods, the plans, and a
 * price per plan, country and period. A plan's journal allowance is a number, or null for
 * Unlimited; its features are one comma-separated text, as the plan-details answer carries them.
 * Prices are whole minor units (paise for INR) in the country's currency, so no float ever holds
 * money. A country with no price rows gets India's plans (server/db/pricing.repo.ts).
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('subscription_type')
    .addColumn('subscription_type_id', 'integer', (col) => col.primaryKey())
    .addColumn('subscription_name', 'varchar(50)', (col) => col.notNull())
    .addColumn('months', 'integer', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('plan')
    .addColumn('plan_id', postgres ? 'serial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('module_id', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('plan_name', 'varchar(100)', (col) => col.notNull().unique())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('no_of_journals', 'integer')
    .addColumn('features', 'text', (col) => col.notNull())
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('plan_price')
    .addColumn('plan_id', 'integer', (col) => col.notNull().references('plan.plan_id').onDelete('cascade'))
    .addColumn('country_id', 'integer', (col) => col.notNull().references('country.country_id'))
    .addColumn('subscription_type_id', 'integer', (col) =>
      col.notNull().references('subscription_type.subscription_type_id'),
    )
    .addColumn('amount_minor', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('plan_price_pk', ['plan_id', 'country_id', 'subscription_type_id'])
    .execute();
  // BindPlanDetails reads the prices of one country (and period): this index serves it.
  await db.schema
    .createIndex('plan_price_country')
    .on('plan_price')
    .columns(['country_id', 'subscription_type_id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('plan_price').execute();
  await db.schema.dropTable('plan').execute();
  await db.schema.dropTable('subscription_type').execute();
}
