import { sql } from 'kysely';
import type { MigrationDb } from '../migrate';

/**
 * An application keeps the title of the job it was made for: `job_application.job_title` is
 * written when it is received and stays when the opening is deleted (the list showed "N/A"). Rows
 * whose opening still exists get its title now; rows whose opening is already gone have nothing
 * left to name it by (the audit log of a deleted opening does not say which applications it had),
 * and keep null.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('job_application').addColumn('job_title', 'varchar(200)').execute();
  await sql`update job_application set job_title =
    (select job_title from job_opening where job_opening.job_id = job_application.job_id)
    where job_id is not null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('job_application').dropColumn('job_title').execute();
}
