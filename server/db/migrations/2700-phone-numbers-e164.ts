import { sql } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Phone numbers of every country (docs/decisions/027-job-pages-and-phone-numbers.md): applications keep their number in E.164 from now on
 * (`+919876543210`). Those sent before were ten Indian digits (the spec's rule); they get India's
 * +91 in front, so every stored number reads the same way and formats with its country.
 */
export async function up(db: MigrationDb): Promise<void> {
  const tenDigits =
    dialectOf(db) === 'postgres'
      ? sql`contact_number ~ '^[0-9]{10}$'`
      : sql`length(contact_number) = 10 and contact_number not glob '*[^0-9]*'`;
  await sql`update job_application set contact_number = '+91' || contact_number where ${tenDigits}`.execute(
    db,
  );
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`update job_application set contact_number = substr(contact_number, 4)
    where contact_number like '+91%' and length(contact_number) = 13`.execute(db);
}
