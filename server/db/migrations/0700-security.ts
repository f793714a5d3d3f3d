import type { MigrationDb } from '../migrate';

/**
 * Security, second pass: a one-time password expires (`admin_user.password_expires_at`, null for
 * a password the user chose), and an Idempotency-Key remembers the SHA-256 of the request it
 * answered (`idempotency_key.body_hash`), so the same key with another body is refused.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('admin_user').addColumn('password_expires_at', 'varchar(30)').execute();
  await db.schema.alterTable('idempotency_key').addColumn('body_hash', 'varchar(64)').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('admin_user').dropColumn('password_expires_at').execute();
  await db.schema.alterTable('idempotency_key').dropColumn('body_hash').execute();
}
