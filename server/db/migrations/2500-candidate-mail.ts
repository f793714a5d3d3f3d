import type { MigrationDb } from '../migrate';

/**
 * Mails to candidates (docs/decisions/026-application-timeline.md): the language of the page a candidate applied from
 * (`job_application.lang`, 'en' for older rows), the default language of what staff write to
 * them; and the templates staff saved per language (`candidate_mail_template`; a template and
 * language with no row uses the site's default words in mail.json).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('job_application')
    .addColumn('lang', 'varchar(5)', (col) => col.notNull().defaultTo('en'))
    .execute();
  await db.schema
    .createTable('candidate_mail_template')
    .addColumn('template', 'varchar(20)', (col) => col.notNull())
    .addColumn('lang', 'varchar(5)', (col) => col.notNull())
    .addColumn('subject', 'varchar(400)', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(30)', (col) => col.notNull())
    .addPrimaryKeyConstraint('candidate_mail_template_pk', ['template', 'lang'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('candidate_mail_template').execute();
  await db.schema.alterTable('job_application').dropColumn('lang').execute();
}
