import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Job applications. `status` starts as 'New' for the admin's list;
 * `is_duplicate` flags a repeat of the same email for the same job; `consent_at` records when the
 * applicant agreed; `idempotency_key` is unique, so one submission can never make two rows.
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('job_application')
    .addColumn('application_id', postgres ? 'serial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('job_id', 'integer', (col) => col.references('job_opening.job_id').onDelete('set null'))
    .addColumn('full_name', 'varchar(200)', (col) => col.notNull())
    .addColumn('email', 'varchar(254)', (col) => col.notNull())
    .addColumn('contact_number', 'varchar(20)', (col) => col.notNull())
    .addColumn('address', 'varchar(500)', (col) => col.notNull())
    .addColumn('resume', 'varchar(200)', (col) => col.notNull().references('stored_file.file_key'))
    .addColumn('status', 'varchar(30)', (col) => col.notNull().defaultTo('New'))
    .addColumn('is_duplicate', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('consent_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('idempotency_key', 'varchar(100)', (col) => col.unique())
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('job_application_created')
    .on('job_application')
    .columns(['created_at', 'application_id'])
    .execute();
  await db.schema
    .createIndex('job_application_job_email')
    .on('job_application')
    .columns(['job_id', 'email'])
    .execute();
  await db.schema.createIndex('job_application_resume').on('job_application').column('resume').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('job_application').execute();
}
