import type { MigrationDb } from '../migrate';

/**
 * The acknowledgments' daily cap counts per mailbox, not per spelling of an address:
 * `mail_outbox.mailbox` holds the normalised mailbox of an acknowledgment (mail/mails.ts
 * mailboxOf: lower case, no `+tag`, Gmail's dots ignored); null for every other mail.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('mailbox', 'varchar(254)').execute();
  await db.schema
    .createIndex('mail_outbox_mailbox')
    .on('mail_outbox')
    .columns(['mailbox', 'created_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('mail_outbox_mailbox').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('mailbox').execute();
}
