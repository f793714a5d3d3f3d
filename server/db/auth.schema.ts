import type { Generated } from 'kysely';

/**
 * Tables of the back-office accounts (migrations 0400-0499). `Database` in schema.ts extends
 * this interface. Timestamps are ISO 8601 strings in UTC; flags are 0/1 integers.
 */
export interface AdminRoleTable {
  role_id: Generated<number>;
  name: string;
  /** JSON array of permission names (contract/auth.ts PERMISSIONS). */
  permissions: string;
  /** 1 for owner, editor and recruiter: their name and permissions are fixed. */
  built_in: Generated<number>;
  created_at: string;
  /** One more at each change of its name or permissions (docs/decisions/022). */
  version: Generated<number>;
  /** 1: its members sign in with a second factor, and set one up first (migration 2000). */
  requires_second_factor: Generated<number>;
}

export interface AdminUserTable {
  user_id: Generated<number>;
  /** Trimmed and lower-cased. */
  email: string;
  /** argon2id (server/lib/passwords.ts). */
  password_hash: string;
  role_id: number;
  disabled: Generated<number>;
  /** 1 after an owner set a one-time password, until the user picks their own. */
  must_change_password: Generated<number>;
  /** When a one-time password stops working; null for a password the user chose. */
  password_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** One more at each change of the user's role or access (docs/decisions/022). */
  version: Generated<number>;
  last_login_at: string | null;
  /** Notices of new applications: 'each', 'digest' or 'off'; null: 'each' when they may read applications. */
  notify_applications: string | null;
  /** Notices of new contact messages, the same way (messages.read). */
  notify_messages: string | null;
  /** The language of their notices (the back office's language when they last chose); null: English. */
  notify_lang: string | null;
  /** The name readers see on the posts they write; '' until they choose one (migration 2300). */
  display_name: Generated<string>;
  /** One more at each change of their notice choices (migration 1900, docs/decisions/022). */
  notice_version: Generated<number>;
}

export interface AdminSessionTable {
  /** SHA-256 (hex) of the session id in the cookie. */
  session_hash: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  /** 'full', or 'verify' while the password is checked and the second step is not (migration 2000). */
  stage: Generated<string>;
  /** When its person last gave their full proof (sign-in or a fresh proof); null: never. */
  proved_at: string | null;
  /** The id the "Your sessions" list shows and ends it by (never the cookie's id or its hash). */
  public_id: string | null;
  user_agent: string | null;
  ip: string | null;
}

/** A second factor of a user (migration 2000; services/factors.ts). */
export interface AdminFactorTable {
  factor_id: Generated<number>;
  user_id: number;
  /** 'totp' or 'passkey'. */
  kind: string;
  name: string;
  /** 0 while an authenticator app waits for its first code. */
  confirmed: Generated<number>;
  /** TOTP: the secret, sealed (server/lib/secret-box.ts). */
  secret: string | null;
  /** TOTP: the last 30-second step a code was accepted for. */
  last_step: number | null;
  /** Passkey: the credential id and public key (base64url), signature counter, transports (JSON). */
  credential_id: string | null;
  public_key: string | null;
  sign_count: number | null;
  transports: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** A passkey ceremony's challenge, usable once until it expires (migration 2000). */
export interface WebauthnChallengeTable {
  challenge: string;
  /** 'register' or 'sign-in'. */
  purpose: string;
  user_id: number | null;
  expires_at: string;
}

/** A recovery code, as its keyed hash (migration 2000). */
export interface RecoveryCodeTable {
  code_id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: string;
}

export interface LoginFailureTable {
  failure_id: Generated<number>;
  /** 'ip:<address>' or 'email:<address>'. */
  throttle_key: string;
  at: string;
}

/** A record as one save left it (migration 1600; services/revisions.ts). */
export interface RecordRevisionTable {
  revision_id: Generated<number>;
  /** 'blog_post' or 'job_opening'. */
  entity: string;
  entity_id: number;
  /** The record's version after the save. */
  version: number;
  /** JSON text: the record's editable fields after the save. */
  fields: string;
  /** JSON text: the names of the fields the save changed (every field for the first). */
  changed: string;
  actor_id: number | null;
  actor_email: string | null;
  at: string;
  /** The revision a restore brought back, or null. */
  restored_from: number | null;
}

/** An open editor of a record (migration 1700; services/presence.ts). */
export interface EditPresenceTable {
  entity: string;
  entity_id: number;
  /** A random id the editor chose when it opened (one person may have two tabs open). */
  editor_id: string;
  user_id: number;
  email: string;
  /** When this editor opened the record. */
  since: string;
  /** Its last heartbeat. */
  seen_at: string;
}

export interface AuditLogTable {
  audit_id: Generated<number>;
  at: string;
  /** The acting user; null for the system (first-start account, scripts). Kept when the user is deleted. */
  actor_id: number | null;
  actor_email: string | null;
  /** 'create', 'update', 'delete', 'login', ... */
  action: string;
  /** 'job_opening', 'blog_post', 'admin_user', ... */
  entity: string;
  entity_id: string | null;
  /** JSON text: what changed (never passwords). */
  detail: string | null;
}

/** A first-run setup address's token (migration 0800): its SHA-256, and when it stops working. */
export interface SetupTokenTable {
  token_hash: string;
  expires_at: string;
}

export interface AuthTables {
  setup_token: SetupTokenTable;
  admin_role: AdminRoleTable;
  admin_user: AdminUserTable;
  admin_session: AdminSessionTable;
  admin_factor: AdminFactorTable;
  recovery_code: RecoveryCodeTable;
  webauthn_challenge: WebauthnChallengeTable;
  login_failure: LoginFailureTable;
  audit_log: AuditLogTable;
  record_revision: RecordRevisionTable;
  edit_presence: EditPresenceTable;
}
