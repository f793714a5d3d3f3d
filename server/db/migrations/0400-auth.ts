import type { ColumnDefinitionBuilder } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Back-office accounts: roles (a JSON array of permissions), users, sessions (stored
 * by the SHA-256 of the session id, never the id itself), failed sign-ins for throttling, and the
 * audit log. Timestamps are ISO 8601 strings in UTC, so they compare as text on both databases.
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const id = postgres ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();

  await db.schema
    .createTable('admin_role')
    .addColumn('role_id', id, pk)
    .addColumn('name', 'varchar(60)', (col) => col.notNull().unique())
    .addColumn('permissions', 'text', (col) => col.notNull())
    .addColumn('built_in', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('admin_user')
    .addColumn('user_id', id, pk)
    .addColumn('email', 'varchar(254)', (col) => col.notNull().unique())
    .addColumn('password_hash', 'varchar(200)', (col) => col.notNull())
    .addColumn('role_id', 'integer', (col) => col.notNull().references('admin_role.role_id'))
    .addColumn('disabled', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('must_change_password', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('last_login_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('admin_user_role').on('admin_user').column('role_id').execute();

  await db.schema
    .createTable('admin_session')
    .addColumn('session_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) =>
      col.notNull().references('admin_user.user_id').onDelete('cascade'),
    )
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('last_seen_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('admin_session_user').on('admin_session').column('user_id').execute();
  await db.schema.createIndex('admin_session_seen').on('admin_session').column('last_seen_at').execute();

  await db.schema
    .createTable('login_failure')
    .addColumn('failure_id', id, pk)
    .addColumn('throttle_key', 'varchar(300)', (col) => col.notNull())
    .addColumn('at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('login_failure_key_at')
    .on('login_failure')
    .columns(['throttle_key', 'at'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('audit_id', id, pk)
    .addColumn('at', 'varchar(30)', (col) => col.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_email', 'varchar(254)')
    .addColumn('action', 'varchar(60)', (col) => col.notNull())
    .addColumn('entity', 'varchar(60)', (col) => col.notNull())
    .addColumn('entity_id', 'varchar(100)')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'audit_id']).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of ['audit_log', 'login_failure', 'admin_session', 'admin_user', 'admin_role']) {
    await db.schema.dropTable(table).execute();
  }
}
