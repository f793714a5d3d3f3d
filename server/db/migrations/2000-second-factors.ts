import type { ColumnDefinitionBuilder } from 'kysely';
import { sql } from 'kysely';
import { dialectOf } from '../database';
import type { MigrationDb } from '../migrate';

/**
 * Second factors (docs/decisions/024-second-factors.md): authenticator apps (TOTP, the secret
 * encrypted) and passkeys in `admin_factor`, hashed single-use recovery codes, and what a session
 * needs to know about them: whether it still waits for its second step (`stage`), when its person
 * last proved who they are (`proved_at`), and what the "Your sessions" list shows (a public id,
 * the browser, the address). A role can require a second factor: the owner role does when
 * ensureBuiltInRoles makes it (a new install); on an existing site its owners decide.
 */
export async function up(db: MigrationDb): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const id = postgres ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey() : col.primaryKey().autoIncrement();

  await db.schema
    .createTable('admin_factor')
    .addColumn('factor_id', id, pk)
    .addColumn('user_id', 'integer', (col) =>
      col.notNull().references('admin_user.user_id').onDelete('cascade'),
    )
    /** 'totp' or 'passkey'. */
    .addColumn('kind', 'varchar(10)', (col) => col.notNull())
    .addColumn('name', 'varchar(60)', (col) => col.notNull())
    /** 0 while an authenticator app waits for its first code. */
    .addColumn('confirmed', 'integer', (col) => col.notNull().defaultTo(0))
    /** TOTP: the secret, AES-256-GCM with a key derived from SECRET. */
    .addColumn('secret', 'varchar(300)')
    /** TOTP: the last 30-second step a code was accepted for (a code works once). */
    .addColumn('last_step', 'bigint')
    /** Passkey: the credential id (base64url), its public key (base64url), counter, transports (JSON). */
    .addColumn('credential_id', 'varchar(1400)', (col) => col.unique())
    .addColumn('public_key', 'text')
    .addColumn('sign_count', 'bigint')
    .addColumn('transports', 'varchar(200)')
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .addColumn('last_used_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('admin_factor_user').on('admin_factor').column('user_id').execute();

  await db.schema
    .createTable('recovery_code')
    .addColumn('code_id', id, pk)
    .addColumn('user_id', 'integer', (col) =>
      col.notNull().references('admin_user.user_id').onDelete('cascade'),
    )
    /** HMAC-SHA256 (hex) of the code, keyed from SECRET. */
    .addColumn('code_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'varchar(30)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('recovery_code_user').on('recovery_code').column('user_id').execute();

  // a passkey ceremony's challenge: single use, for a few minutes (a sign-in has no session yet)
  await db.schema
    .createTable('webauthn_challenge')
    .addColumn('challenge', 'varchar(200)', (col) => col.primaryKey())
    /** 'register' (a signed-in user adds a passkey) or 'sign-in'. */
    .addColumn('purpose', 'varchar(10)', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.references('admin_user.user_id').onDelete('cascade'))
    .addColumn('expires_at', 'varchar(30)', (col) => col.notNull())
    .execute();

  await db.schema
    .alterTable('admin_session')
    .addColumn('stage', 'varchar(10)', (col) => col.notNull().defaultTo('full'))
    .execute();
  await db.schema.alterTable('admin_session').addColumn('proved_at', 'varchar(30)').execute();
  await db.schema.alterTable('admin_session').addColumn('public_id', 'varchar(32)').execute();
  await db.schema.alterTable('admin_session').addColumn('user_agent', 'varchar(300)').execute();
  await db.schema.alterTable('admin_session').addColumn('ip', 'varchar(64)').execute();
  // sessions from before get one from their hash (a SHA-256 of a 256-bit id: nothing to learn from it)
  await sql`update admin_session set public_id = substr(session_hash, 1, 16) where public_id is null`.execute(
    db,
  );
  await db.schema
    .createIndex('admin_session_public')
    .on('admin_session')
    .column('public_id')
    .unique()
    .execute();

  await db.schema
    .alterTable('admin_role')
    .addColumn('requires_second_factor', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('admin_role').dropColumn('requires_second_factor').execute();
  await db.schema.dropIndex('admin_session_public').execute();
  for (const column of ['ip', 'user_agent', 'public_id', 'proved_at', 'stage'])
    await db.schema.alterTable('admin_session').dropColumn(column).execute();
  await db.schema.dropTable('webauthn_challenge').execute();
  await db.schema.dropTable('recovery_code').execute();
  await db.schema.dropTable('admin_factor').execute();
}
