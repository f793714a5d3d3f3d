import type { ExpressionBuilder, Kysely } from 'kysely';
import {
  BUILT_IN_ROLES,
  PERMISSIONS,
  isPermission,
  type Permission,
  type RoleRow,
  type SessionUser,
  type UserRow,
} from '../../contract/auth';
import type { NoticeChoice } from '../../contract/mail';
import type { Database } from './schema';

/**
 * Roles, users and sessions of the back office. Plain functions taking `db` first (a transaction
 * works too). Passwords are hashed by the caller (server/lib/passwords.ts); this file never sees
 * a plain password.
 */
type Db = Kysely<Database>;

/** Reads a role's stored permissions, dropping names this version does not know. */
export function parsePermissions(json: string): Permission[] {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? PERMISSIONS.filter((p) => list.includes(p) && isPermission(p)) : [];
  } catch {
    return [];
  }
}

const serialisePermissions = (list: readonly Permission[]) =>
  JSON.stringify(PERMISSIONS.filter((p) => list.includes(p)));

/**
 * Creates the built-in roles when missing and keeps their permissions as the code says. A role
 * made here requires a second factor when `requireFactor` names it (REQUIRE_SECOND_FACTOR, read
 * when the roles are made: docs/decisions/024); an existing role keeps what its owners chose.
 */
export async function ensureBuiltInRoles(
  db: Db,
  requireFactor: readonly string[] = ['owner'],
  now = new Date(),
): Promise<void> {
  for (const [name, permissions] of Object.entries(BUILT_IN_ROLES)) {
    const existing = await db
      .selectFrom('admin_role')
      .select('role_id')
      .where('name', '=', name)
      .executeTakeFirst();
    if (existing) {
      await db
        .updateTable('admin_role')
        .set({ permissions: serialisePermissions(permissions), built_in: 1 })
        .where('role_id', '=', existing.role_id)
        .execute();
    } else {
      await db
        .insertInto('admin_role')
        .values({
          name,
          permissions: serialisePermissions(permissions),
          built_in: 1,
          requires_second_factor: requireFactor.includes(name) ? 1 : 0,
          created_at: now.toISOString(),
        })
        .execute();
    }
  }
}

export async function listRoles(db: Db): Promise<RoleRow[]> {
  await ensureBuiltInRoles(db);
  const rows = await db
    .selectFrom('admin_role')
    .leftJoin('admin_user', 'admin_user.role_id', 'admin_role.role_id')
    .select((eb) => [
      'admin_role.role_id',
      'admin_role.name',
      'admin_role.permissions',
      'admin_role.built_in',
      'admin_role.version',
      'admin_role.requires_second_factor',
      eb.fn.count<number>('admin_user.user_id').as('user_count'),
    ])
    .groupBy([
      'admin_role.role_id',
      'admin_role.name',
      'admin_role.permissions',
      'admin_role.built_in',
      'admin_role.version',
      'admin_role.requires_second_factor',
    ])
    .orderBy('admin_role.built_in', 'desc')
    .orderBy('admin_role.role_id')
    .execute();
  return rows.map((r) => ({
    role_id: r.role_id,
    name: r.name,
    permissions: parsePermissions(r.permissions),
    built_in: Number(r.built_in) === 1,
    user_count: Number(r.user_count),
    version: Number(r.version),
    requires_second_factor: Number(r.requires_second_factor) === 1,
  }));
}

export async function getRole(db: Db, roleId: number): Promise<RoleRow | undefined> {
  return (await listRoles(db)).find((r) => r.role_id === roleId);
}

export async function roleIdByName(db: Db, name: string): Promise<number | undefined> {
  await ensureBuiltInRoles(db);
  const row = await db.selectFrom('admin_role').select('role_id').where('name', '=', name).executeTakeFirst();
  return row?.role_id;
}

export async function roleNameTaken(db: Db, name: string, exceptId = 0): Promise<boolean> {
  const rows = await db.selectFrom('admin_role').select(['role_id', 'name']).execute();
  return rows.some((r) => r.role_id !== exceptId && r.name.toLowerCase() === name.toLowerCase());
}

export async function createRole(
  db: Db,
  name: string,
  permissions: Permission[],
  now = new Date(),
  requiresSecondFactor = false,
): Promise<number> {
  const { role_id } = await db
    .insertInto('admin_role')
    .values({
      name,
      permissions: serialisePermissions(permissions),
      built_in: 0,
      requires_second_factor: requiresSecondFactor ? 1 : 0,
      created_at: now.toISOString(),
    })
    .returning('role_id')
    .executeTakeFirstOrThrow();
  return role_id;
}

/** Renames a role and sets its permissions if it is still at `version`; answers whether it did. */
export async function updateRole(
  db: Db,
  roleId: number,
  name: string,
  permissions: Permission[],
  version: number,
  requiresSecondFactor?: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('admin_role')
    .set((eb) => ({
      name,
      permissions: serialisePermissions(permissions),
      version: eb('version', '+', 1),
      ...(requiresSecondFactor === undefined ? {} : { requires_second_factor: requiresSecondFactor ? 1 : 0 }),
    }))
    .where('role_id', '=', roleId)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteRole(db: Db, roleId: number): Promise<void> {
  await db.deleteFrom('admin_role').where('role_id', '=', roleId).execute();
}

/** Whether the user has a confirmed second factor (an SQL expression over admin_user). */
const hasFactor = (eb: ExpressionBuilder<Database, 'admin_user'>) =>
  eb
    .exists(
      eb
        .selectFrom('admin_factor')
        .select('admin_factor.factor_id')
        .whereRef('admin_factor.user_id', '=', 'admin_user.user_id')
        .where('admin_factor.confirmed', '=', 1),
    )
    .as('has_factor');

/** Until when the user's newest invitation link works (null when none is waiting). */
const invitedUntil = (eb: ExpressionBuilder<Database, 'admin_user'>) =>
  eb
    .selectFrom('password_token')
    .select((t) => t.fn.max('password_token.expires_at').as('until'))
    .whereRef('password_token.user_id', '=', 'admin_user.user_id')
    .where('password_token.purpose', '=', 'invite')
    .as('invited_until');

function userColumns(db: Db) {
  return db
    .selectFrom('admin_user')
    .innerJoin('admin_role', 'admin_role.role_id', 'admin_user.role_id')
    .select((eb) => [
      'admin_user.user_id',
      'admin_user.email',
      'admin_user.role_id',
      'admin_role.name as role',
      'admin_user.disabled',
      'admin_user.must_change_password',
      'admin_user.created_at',
      'admin_user.last_login_at',
      'admin_user.version',
      hasFactor(eb),
      invitedUntil(eb),
    ]);
}

type UserSelect = Awaited<ReturnType<ReturnType<typeof userColumns>['executeTakeFirstOrThrow']>>;
const toUserRow = ({ has_factor, invited_until, ...r }: UserSelect): UserRow => ({
  ...r,
  // an invitation is waiting while they have never signed in (docs/decisions/033-small-slips.md)
  invited_until: r.last_login_at === null && invited_until ? String(invited_until) : null,
  version: Number(r.version),
  disabled: Number(r.disabled) === 1,
  must_change_password: Number(r.must_change_password) === 1,
  second_factor: Boolean(Number(has_factor)),
});

export async function listUsers(db: Db): Promise<UserRow[]> {
  return (await userColumns(db).orderBy('admin_user.email').execute()).map(toUserRow);
}

export async function getUser(db: Db, userId: number): Promise<UserRow | undefined> {
  const row = await userColumns(db).where('admin_user.user_id', '=', userId).executeTakeFirst();
  return row && toUserRow(row);
}

export async function countUsers(db: Db): Promise<number> {
  const { n } = await db
    .selectFrom('admin_user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The user and password hash for a sign-in (email already trimmed and lower-cased). */
export async function findLogin(db: Db, email: string) {
  return db
    .selectFrom('admin_user')
    .select(['user_id', 'email', 'password_hash', 'disabled', 'must_change_password', 'password_expires_at'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function passwordHashOf(db: Db, userId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('admin_user')
    .select('password_hash')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash;
}

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  return (
    (await db.selectFrom('admin_user').select('user_id').where('email', '=', email).executeTakeFirst()) !==
    undefined
  );
}

export async function createUser(
  db: Db,
  input: {
    email: string;
    passwordHash: string;
    roleId: number;
    mustChangePassword: boolean;
    /** For a one-time password: when it stops working. */
    passwordExpiresAt?: Date;
  },
  now = new Date(),
): Promise<number> {
  const at = now.toISOString();
  const { user_id } = await db
    .insertInto('admin_user')
    .values({
      email: input.email,
      password_hash: input.passwordHash,
      role_id: input.roleId,
      must_change_password: input.mustChangePassword ? 1 : 0,
      password_expires_at: input.passwordExpiresAt?.toISOString() ?? null,
      created_at: at,
      updated_at: at,
      last_login_at: null,
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  return user_id;
}

export async function updateUser(
  db: Db,
  userId: number,
  changes: {
    roleId?: number;
    disabled?: boolean;
    passwordHash?: string;
    mustChangePassword?: boolean;
    /** Set with a one-time password; null when the user chose their own. */
    passwordExpiresAt?: Date | null;
  },
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('admin_user')
    .set({
      ...(changes.roleId !== undefined ? { role_id: changes.roleId } : {}),
      ...(changes.disabled !== undefined ? { disabled: changes.disabled ? 1 : 0 } : {}),
      ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
      ...(changes.mustChangePassword !== undefined
        ? { must_change_password: changes.mustChangePassword ? 1 : 0 }
        : {}),
      ...(changes.passwordExpiresAt !== undefined
        ? { password_expires_at: changes.passwordExpiresAt?.toISOString() ?? null }
        : {}),
      updated_at: now.toISOString(),
    })
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Gives a user another role or disables or enables them, if their access is still at `version`
 * (one version on); answers whether it did.
 */
export async function changeAccess(
  db: Db,
  userId: number,
  changes: { roleId?: number; disabled?: boolean },
  version: number,
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('admin_user')
    .set((eb) => ({
      ...(changes.roleId !== undefined ? { role_id: changes.roleId } : {}),
      ...(changes.disabled !== undefined ? { disabled: changes.disabled ? 1 : 0 } : {}),
      updated_at: now.toISOString(),
      version: eb('version', '+', 1),
    }))
    .where('user_id', '=', userId)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteUser(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('admin_session').where('user_id', '=', userId).execute();
  await db.deleteFrom('admin_user').where('user_id', '=', userId).execute();
}

/** Active (not disabled) users holding users.manage: the last one cannot be removed or demoted. */
export async function countActiveUserManagers(db: Db): Promise<number> {
  const rows = await db
    .selectFrom('admin_user')
    .innerJoin('admin_role', 'admin_role.role_id', 'admin_user.role_id')
    .select(['admin_user.user_id', 'admin_role.permissions'])
    .where('admin_user.disabled', '=', 0)
    .execute();
  return rows.filter((r) => parsePermissions(r.permissions).includes('users.manage')).length;
}

// Sessions -----------------------------------------------------------------------------------

export async function insertSession(
  db: Db,
  sessionHash: string,
  userId: number,
  now = new Date(),
  o: { stage?: 'full' | 'verify'; publicId?: string; userAgent?: string; ip?: string } = {},
): Promise<void> {
  const at = now.toISOString();
  const stage = o.stage ?? 'full';
  await db
    .insertInto('admin_session')
    .values({
      session_hash: sessionHash,
      user_id: userId,
      created_at: at,
      last_seen_at: at,
      stage,
      // a finished sign-in is a full proof: the password, and the second factor when there is one
      proved_at: stage === 'full' ? at : null,
      public_id: o.publicId ?? sessionHash.slice(0, 16),
      user_agent: o.userAgent?.slice(0, 300) ?? null,
      ip: o.ip?.slice(0, 64) ?? null,
    })
    .execute();
  if (stage === 'full')
    await db.updateTable('admin_user').set({ last_login_at: at }).where('user_id', '=', userId).execute();
}

/** The session with its user, role and permissions; the caller checks the time limits. */
export async function findSession(db: Db, sessionHash: string) {
  const row = await db
    .selectFrom('admin_session')
    .innerJoin('admin_user', 'admin_user.user_id', 'admin_session.user_id')
    .innerJoin('admin_role', 'admin_role.role_id', 'admin_user.role_id')
    .select((eb) => [
      'admin_session.created_at',
      'admin_session.last_seen_at',
      'admin_session.stage',
      'admin_session.proved_at',
      'admin_session.public_id',
      'admin_user.user_id',
      'admin_user.email',
      'admin_user.disabled',
      'admin_user.must_change_password',
      'admin_user.role_id',
      'admin_user.display_name',
      'admin_role.name as role',
      'admin_role.permissions',
      'admin_role.requires_second_factor',
      hasFactor(eb),
    ])
    .where('admin_session.session_hash', '=', sessionHash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    /** 'verify': the password was right and the second step is not done yet. */
    stage: row.stage === 'verify' ? ('verify' as const) : ('full' as const),
    provedAt: row.proved_at,
    publicId: row.public_id,
    disabled: Number(row.disabled) === 1,
    hasFactor: Boolean(Number(row.has_factor)),
    user: toSessionUser(row),
  };
}

function toSessionUser(row: {
  user_id: number;
  email: string;
  role_id: number;
  role: string;
  permissions: string;
  must_change_password: number;
  requires_second_factor: number;
  has_factor: unknown;
  display_name: string;
}): SessionUser {
  return {
    user_id: row.user_id,
    email: row.email,
    role_id: row.role_id,
    role: row.role,
    permissions: parsePermissions(row.permissions),
    must_change_password: Number(row.must_change_password) === 1,
    factor_setup_required: Number(row.requires_second_factor) === 1 && !Number(row.has_factor),
    display_name: row.display_name,
  };
}

/** Sets a user's display name (already checked); answers whether the user exists. */
export async function setDisplayName(db: Db, userId: number, name: string): Promise<boolean> {
  const result = await db
    .updateTable('admin_user')
    .set({ display_name: name })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Active users whose role grants `permission`, by id: their address, the display name they chose
 * ('' for none) and the language of their notices.
 */
export async function usersWithPermission(
  db: Db,
  permission: Permission,
): Promise<{ user_id: number; email: string; display_name: string; lang: string | null }[]> {
  const rows = await db
    .selectFrom('admin_user')
    .innerJoin('admin_role', 'admin_role.role_id', 'admin_user.role_id')
    .select([
      'admin_user.user_id',
      'admin_user.email',
      'admin_user.display_name',
      'admin_user.notify_lang as lang',
      'admin_role.permissions',
    ])
    .where('admin_user.disabled', '=', 0)
    .orderBy('admin_user.user_id')
    .execute();
  return rows
    .filter((r) => parsePermissions(r.permissions).includes(permission))
    .map(({ permissions: _, ...user }) => user);
}

/** Staff who may write posts (blog.manage), for the editor's author choice: id, and name or address. */
export async function blogAuthors(db: Db): Promise<{ user_id: number; name: string }[]> {
  return (await usersWithPermission(db, 'blog.manage')).map((r) => ({
    user_id: r.user_id,
    name: r.display_name || r.email,
  }));
}

/** Whether this user exists (a post's author). */
export async function userExists(db: Db, userId: number): Promise<boolean> {
  return (
    (await db.selectFrom('admin_user').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !==
    undefined
  );
}

/** The signed-in view of a user (role and permissions), or undefined when missing or disabled. */
export async function sessionUserById(db: Db, userId: number): Promise<SessionUser | undefined> {
  const row = await db
    .selectFrom('admin_user')
    .innerJoin('admin_role', 'admin_role.role_id', 'admin_user.role_id')
    .select((eb) => [
      'admin_user.user_id',
      'admin_user.email',
      'admin_user.disabled',
      'admin_user.must_change_password',
      'admin_user.role_id',
      'admin_user.display_name',
      'admin_role.name as role',
      'admin_role.permissions',
      'admin_role.requires_second_factor',
      hasFactor(eb),
    ])
    .where('admin_user.user_id', '=', userId)
    .executeTakeFirst();
  if (!row || Number(row.disabled) === 1) return undefined;
  return toSessionUser(row);
}

export async function touchSession(db: Db, sessionHash: string, now = new Date()): Promise<void> {
  await db
    .updateTable('admin_session')
    .set({ last_seen_at: now.toISOString() })
    .where('session_hash', '=', sessionHash)
    .execute();
}

export async function deleteSession(db: Db, sessionHash: string): Promise<void> {
  await db.deleteFrom('admin_session').where('session_hash', '=', sessionHash).execute();
}

/** Ends every session of a user (password change, disabling), optionally keeping one. */
export async function deleteUserSessions(db: Db, userId: number, exceptHash?: string): Promise<number> {
  let q = db.deleteFrom('admin_session').where('user_id', '=', userId);
  if (exceptHash) q = q.where('session_hash', '!=', exceptHash);
  return Number((await q.executeTakeFirst()).numDeletedRows);
}

/** Removes sessions past their idle or absolute limit. */
export async function purgeSessions(db: Db, idleBefore: string, createdBefore: string): Promise<void> {
  await db
    .deleteFrom('admin_session')
    .where((eb) => eb.or([eb('last_seen_at', '<', idleBefore), eb('created_at', '<', createdBefore)]))
    .execute();
}

// Failed sign-ins ----------------------------------------------------------------------------

/**
 * Reserves one sign-in attempt for every key before the password is checked, and answers the
 * reservation ids and, per key, how many attempts the window holds with this one included. An
 * insert followed by a count: of parallel attempts, the one inserted last sees every other, so at
 * most `limit` of them ever see a count within the limit. A failed attempt keeps its rows (they are
 * the failure record); a successful or refused one releases them (`releaseAttempt`).
 */
export async function reserveAttempt(
  db: Db,
  keys: string[],
  since: string,
  now = new Date(),
): Promise<{ ids: number[]; counts: Record<string, number> }> {
  const at = now.toISOString();
  const rows = await db
    .insertInto('login_failure')
    .values(keys.map((throttle_key) => ({ throttle_key, at })))
    .returning('failure_id')
    .execute();
  const counted = await db
    .selectFrom('login_failure')
    .select((eb) => ['throttle_key', eb.fn.countAll<number>().as('n')])
    .where('throttle_key', 'in', keys)
    .where('at', '>=', since)
    .groupBy('throttle_key')
    .execute();
  return {
    ids: rows.map((r) => r.failure_id),
    counts: Object.fromEntries(counted.map((r) => [r.throttle_key, Number(r.n)])),
  };
}

export async function releaseAttempt(db: Db, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('login_failure').where('failure_id', 'in', ids).execute();
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('login_failure').where('throttle_key', '=', key).execute();
}

export async function purgeFailures(db: Db, before: string): Promise<void> {
  await db.deleteFrom('login_failure').where('at', '<', before).execute();
}

// ---------------------------------------------------------------------------------------------
// Email notices (migration 0900): each user's choice per kind; null is the default, a mail each
// for a user who may read that kind.
// ---------------------------------------------------------------------------------------------

export type NoticeKind = 'applications' | 'messages';
const NOTICE_COLUMN = { applications: 'notify_applications', messages: 'notify_messages' } as const;
export const NOTICE_PERMISSION = { applications: 'applications.read', messages: 'messages.read' } as const;
const asChoice = (value: string | null): NoticeChoice =>
  value === 'digest' || value === 'off' ? value : 'each';

/** Active users who may read `kind` and chose `choice` for it (a mail each, or the digest). */
export async function noticeRecipients(
  db: Db,
  kind: NoticeKind,
  choice: 'each' | 'digest',
): Promise<{ user_id: number; email: string; lang: string | null }[]> {
  const rows = await db
    .selectFrom('admin_user')
    .innerJoin('admin_role', 'admin_role.role_id', 'admin_user.role_id')
    .select([
      'admin_user.user_id',
      'admin_user.email',
      'admin_user.notify_lang as lang',
      `admin_user.${NOTICE_COLUMN[kind]} as choice`,
      'admin_role.permissions',
    ])
    .where('admin_user.disabled', '=', 0)
    .orderBy('admin_user.user_id')
    .execute();
  return rows
    .filter(
      (r) =>
        parsePermissions(r.permissions).includes(NOTICE_PERMISSION[kind]) && asChoice(r.choice) === choice,
    )
    .map(({ user_id, email, lang }) => ({ user_id, email, lang }));
}

/** A user's choices (null for a kind their role may not read) and their version. */
/** The language of a user's notices (null: English). */
export async function noticeLangOf(db: Db, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('admin_user')
    .select('notify_lang')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.notify_lang ?? null;
}

export async function noticePrefsOf(db: Db, user: { user_id: number; permissions: Permission[] }) {
  const row = await db
    .selectFrom('admin_user')
    .select(['notify_applications', 'notify_messages', 'notice_version'])
    .where('user_id', '=', user.user_id)
    .executeTakeFirstOrThrow();
  const can = (kind: NoticeKind) => user.permissions.includes(NOTICE_PERMISSION[kind]);
  return {
    applications: can('applications') ? asChoice(row.notify_applications) : null,
    messages: can('messages') ? asChoice(row.notify_messages) : null,
    version: row.notice_version,
  };
}

/**
 * Sets a user's choices if they are still at `version` (counted on by one); false when they
 * changed meanwhile. Only the language (no choice) changes no version.
 */
export async function setNoticePrefs(
  db: Db,
  userId: number,
  prefs: { applications?: NoticeChoice; messages?: NoticeChoice; lang?: string },
  version: number,
): Promise<boolean> {
  const choosing = !!(prefs.applications || prefs.messages);
  if (!choosing && !prefs.lang) {
    // nothing to set: only whether the version is still the one named
    const row = await db
      .selectFrom('admin_user')
      .select('notice_version')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.notice_version === version;
  }
  const result = await db
    .updateTable('admin_user')
    .set((eb) => ({
      ...(prefs.applications ? { notify_applications: prefs.applications } : {}),
      ...(prefs.messages ? { notify_messages: prefs.messages } : {}),
      ...(prefs.lang ? { notify_lang: prefs.lang } : {}),
      ...(choosing && { notice_version: eb('notice_version', '+', 1) }),
    }))
    .where('user_id', '=', userId)
    .where('notice_version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---------------------------------------------------------------------------------------------
// The first-run setup address (migration 0800; services/owner.ts): only the SHA-256 of its token.
// ---------------------------------------------------------------------------------------------

/** Keeps a new setup token's hash until `expiresAt`; expired ones go. */
export async function storeSetupToken(
  db: Db,
  tokenHash: string,
  expiresAt: Date,
  now = new Date(),
): Promise<void> {
  await db.deleteFrom('setup_token').where('expires_at', '<', now.toISOString()).execute();
  await db
    .insertInto('setup_token')
    .values({ token_hash: tokenHash, expires_at: expiresAt.toISOString() })
    .execute();
}

/** Uses a setup token: true when it existed and had not expired (then it is gone). */
export async function useSetupToken(db: Db, tokenHash: string, now = new Date()): Promise<boolean> {
  const used = await db
    .deleteFrom('setup_token')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(used.numDeletedRows) === 1;
}

/** No setup address works any more (the first account exists). */
export async function clearSetupTokens(db: Db): Promise<void> {
  await db.deleteFrom('setup_token').execute();
}
