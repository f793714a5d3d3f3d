import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Visit figures (docs/decisions/028-visit-figures.md): the day's secret that visitors are
 * counted with (`analytics_salt`, deleted when its day ends), the page views as they come
 * (`analytics_view`, kept ANALYTICS_RAW_DAYS), their daily figures by page and by visit
 * (`analytics_page_day`, `analytics_visit_day`, kept) and by each dimension alone
 * (`analytics_dim_day`, what the screen reads unfiltered), and where an application or a contact
 * message came from (landing page, referrer's host, campaign).
 */
const DIMENSIONS = [
  'referrer_host',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'device',
  'language',
];
const SOURCE_COLUMNS: [string, number][] = [
  ['landing_page', 300],
  ['referrer_host', 253],
  ['utm_source', 100],
  ['utm_medium', 100],
  ['utm_campaign', 100],
];
const WIDTH: Record<string, number> = {
  referrer_host: 253,
  utm_source: 100,
  utm_medium: 100,
  utm_campaign: 100,
  country: 2,
  device: 10,
  language: 8,
};

const withDimensions = <T extends string>(table: CreateTableBuilder<T>) =>
  DIMENSIONS.reduce(
    (t, name) => t.addColumn(name, `varchar(${WIDTH[name]})`, (col) => col.notNull().defaultTo('')),
    table as CreateTableBuilder<string>,
  );

export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const pk = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();
  await db.schema
    .createTable('analytics_salt')
    .addColumn('day', 'varchar(10)', (col) => col.primaryKey())
    .addColumn('secret', 'varchar(64)', (col) => col.notNull())
    .execute();
  await withDimensions(
    db.schema
      .createTable('analytics_view')
      .addColumn('view_id', postgres ? 'bigserial' : 'integer', pk)
      .addColumn('day', 'varchar(10)', (col) => col.notNull())
      .addColumn('at', 'varchar(30)', (col) => col.notNull())
      .addColumn('visitor', 'varchar(32)', (col) => col.notNull())
      .addColumn('path', 'varchar(300)', (col) => col.notNull())
      .addColumn('landing', 'varchar(300)', (col) => col.notNull()),
  ).execute();
  await db.schema.createIndex('analytics_view_by_day').on('analytics_view').columns(['day']).execute();
  await withDimensions(
    db.schema
      .createTable('analytics_page_day')
      .addColumn('day', 'varchar(10)', (col) => col.notNull())
      .addColumn('path', 'varchar(300)', (col) => col.notNull()),
  )
    .addColumn('views', 'integer', (col) => col.notNull())
    .addColumn('visitors', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('analytics_page_day_by_day')
    .on('analytics_page_day')
    .columns(['day', 'path'])
    .execute();
  await withDimensions(
    db.schema
      .createTable('analytics_visit_day')
      .addColumn('day', 'varchar(10)', (col) => col.notNull())
      .addColumn('landing', 'varchar(300)', (col) => col.notNull()),
  )
    .addColumn('visits', 'integer', (col) => col.notNull())
    .addColumn('visitors', 'integer', (col) => col.notNull())
    .addColumn('views', 'integer', (col) => col.notNull())
    .addColumn('bounces', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('analytics_visit_day_by_day')
    .on('analytics_visit_day')
    .columns(['day', 'landing'])
    .execute();
  // each dimension alone, summed per day: what the screen reads when nothing is filtered
  await db.schema
    .createTable('analytics_dim_day')
    .addColumn('dim', 'varchar(20)', (col) => col.notNull())
    .addColumn('day', 'varchar(10)', (col) => col.notNull())
    .addColumn('key', 'varchar(300)', (col) => col.notNull())
    .addColumn('visits', 'integer', (col) => col.notNull())
    .addColumn('visitors', 'integer', (col) => col.notNull())
    .addColumn('views', 'integer', (col) => col.notNull())
    .addColumn('bounces', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('analytics_dim_day_by_dim')
    .on('analytics_dim_day')
    .columns(['dim', 'day', 'key'])
    .execute();
  for (const table of ['job_application', 'contact_message']) {
    for (const [name, width] of SOURCE_COLUMNS) {
      await db.schema.alterTable(table).addColumn(name, `varchar(${width})`).execute();
    }
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of ['job_application', 'contact_message']) {
    for (const [name] of SOURCE_COLUMNS) await db.schema.alterTable(table).dropColumn(name).execute();
  }
  for (const table of [
    'analytics_dim_day',
    'analytics_visit_day',
    'analytics_page_day',
    'analytics_view',
    'analytics_salt',
  ])
    await db.schema.dropTable(table).execute();
}
