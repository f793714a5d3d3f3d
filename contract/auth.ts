import { z } from 'zod/mini';
import { MailStatus } from './mail';

/**
 * Sign-in, users, roles and the audit log of the back office. Shared by the
 * server (request validation) and the browser (answer checks).
 */

/** Every permission of the back office. A role is a set of these. */
export const PERMISSIONS = [
  'jobs.manage',
  'blog.manage',
  'applications.read',
  'applications.manage',
  'messages.read',
  'messages.manage',
  'users.manage',
  'audit.read',
  'insights.read',
  'webhooks.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const Permission = z.enum(PERMISSIONS);

export const isPermission = (value: unknown): value is Permission =>
  typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);

/** The built-in roles (their names are fixed; custom roles get any other name). */
export const BUILT_IN_ROLES: Record<'owner' | 'editor' | 'recruiter', readonly Permission[]> = {
  owner: PERMISSIONS,
  editor: ['blog.manage'],
  recruiter: ['jobs.manage', 'applications.read', 'applications.manage', 'messages.read', 'messages.manage'],
};

/** Password rules (server/lib/passwords.ts adds the common-password list). */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

const email = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.maxLength(254), z.email({ error: 'Enter a valid email address' }));

export const LoginBody = z.object({
  email: z
    .string()
    .check(z.trim(), z.toLowerCase(), z.minLength(1, { error: 'Email is required' }), z.maxLength(254)),
  password: z.string().check(z.minLength(1, { error: 'Password is required' }), z.maxLength(1024)),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const SessionUser = z.object({
  user_id: z.number().check(z.int()),
  email: z.string(),
  role_id: z.number().check(z.int()),
  role: z.string(),
  permissions: z.array(Permission),
  /** Set for an account made with a one-time password until its owner picks their own. */
  must_change_password: z.boolean(),
  /** Their role requires a second factor and they have none: they set one up before anything else. */
  factor_setup_required: z.optional(z.boolean()),
  /** The name readers see on the posts they write; '' until they choose one. */
  display_name: z.optional(z.string()),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** The longest display name. */
export const DISPLAY_NAME_MAX = 80;
/** PATCH /api/auth/profile: the signed-in user's display name ('' for none). */
export const ProfileBody = z.object({
  display_name: z.string().check(z.maxLength(DISPLAY_NAME_MAX * 4)),
});
export type ProfileBody = z.infer<typeof ProfileBody>;

/** The ways a second step of sign-in can be given (docs/decisions/024-second-factors.md). */
export const SECOND_STEP_METHODS = ['totp', 'passkey', 'recovery'] as const;
export type SecondStepMethod = (typeof SECOND_STEP_METHODS)[number];

/** The password was right and a second factor is asked for: which ones, and until when. */
export const SecondStep = z.object({
  methods: z.array(z.enum(SECOND_STEP_METHODS)),
  /** The second step has to be done by then (5 minutes after the password), else sign in again. */
  expires_at: z.string(),
});
export type SecondStep = z.infer<typeof SecondStep>;

/** POST /api/auth/login: the signed-in user, or the second step it still needs. */
export const LoginAnswer = z.union([SessionUser, z.object({ second_step: SecondStep })]);
export type LoginAnswer = z.infer<typeof LoginAnswer>;

/** GET /api/auth/session: the signed-in user, or null (always 200); `second_step` while one waits. */
export const SessionAnswer = z.object({
  user: z.nullable(SessionUser),
  second_step: z.optional(SecondStep),
});

/** A code of the second step: six digits from an authenticator app, or a recovery code. */
export const CodeBody = z.object({
  code: z.string().check(z.trim(), z.minLength(1, { error: 'Enter the code' }), z.maxLength(40)),
});
export type CodeBody = z.infer<typeof CodeBody>;

/** POST /api/auth/second-step: the signed-in user; `recovery_left` when a recovery code was used. */
export const SecondStepAnswer = z.object({
  ...SessionUser.shape,
  recovery_left: z.optional(z.number().check(z.int())),
});
export type SecondStepAnswer = z.infer<typeof SecondStepAnswer>;

/** A second factor as its owner sees it (never its secret). */
export const FactorRow = z.object({
  factor_id: z.number().check(z.int()),
  kind: z.enum(['totp', 'passkey']),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
});
export type FactorRow = z.infer<typeof FactorRow>;

/**
 * GET /api/auth/factors: the person's factors, recovery codes left, whether their role requires a
 * factor, and until when their last full proof lets them change factors (null: give one first).
 */
export const FactorsAnswer = z.object({
  factors: z.array(FactorRow),
  recovery_left: z.number().check(z.int()),
  required: z.boolean(),
  proof_until: z.nullable(z.string()),
});
export type FactorsAnswer = z.infer<typeof FactorsAnswer>;

/** POST /api/auth/factors/totp: a new secret to put in an authenticator app, as text and as a QR code. */
export const TotpSetupAnswer = z.object({
  secret: z.string(),
  uri: z.string(),
  /** An SVG image of the QR code of `uri`, made by the server. */
  qr_svg: z.string(),
});
export type TotpSetupAnswer = z.infer<typeof TotpSetupAnswer>;

/** A factor's name as its owner gives it ("Phone", "Work laptop"). */
export const FactorName = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'Give it a name' }),
    z.maxLength(60, { error: 'At most 60 characters' }),
  );

/** POST /api/auth/factors/totp/confirm: the first code from the app, and a name for it. */
export const TotpConfirmBody = z.object({
  code: CodeBody.shape.code,
  name: z.optional(FactorName),
});
export type TotpConfirmBody = z.infer<typeof TotpConfirmBody>;

/** A factor added (or recovery codes renewed): the factors now, and new recovery codes, shown once. */
export const FactorAddedAnswer = z.object({
  factors: FactorsAnswer,
  recovery_codes: z.optional(z.array(z.string())),
});
export type FactorAddedAnswer = z.infer<typeof FactorAddedAnswer>;

/** POST /api/auth/reauth: the fresh proof before factors change: the password, and a code when they have a factor. */
export const ReauthBody = z.object({
  password: z.string().check(z.minLength(1, { error: 'Password is required' }), z.maxLength(1024)),
  code: z.optional(z.string().check(z.trim(), z.maxLength(40))),
});
export type ReauthBody = z.infer<typeof ReauthBody>;

/**
 * A passkey's answer from the browser (@simplewebauthn/browser's JSON), checked by the server
 * (@simplewebauthn/server): bounded here, verified there.
 */
const b64url = (max: number) => z.string().check(z.maxLength(max), z.regex(/^[A-Za-z0-9_-]*={0,2}$/));
export const PasskeyResponse = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.record(z.string().check(z.maxLength(40)), z.unknown()),
  clientExtensionResults: z.optional(z.record(z.string().check(z.maxLength(60)), z.unknown())),
  authenticatorAttachment: z.optional(z.string().check(z.maxLength(40))),
});
export const PasskeyBody = z.object({ response: PasskeyResponse, name: z.optional(FactorName) });
export type PasskeyBody = z.infer<typeof PasskeyBody>;
/**
 * The options a browser's passkey call takes (JSON from @simplewebauthn/server), passed on as they
 * are. (Only zod functions the public pages already load: a new one would grow every page's
 * shared zod chunk.)
 */
export const PasskeyOptions = z
  .record(z.string(), z.unknown())
  .check(z.refine((o) => typeof o.challenge === 'string', 'A passkey challenge is missing'));

/** GET /api/auth/sessions: the person's signed-in devices, this one marked. */
export const SessionRow = z.object({
  id: z.string(),
  current: z.boolean(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** "Chrome on Windows", from the browser's User-Agent; null when it sent none. */
  browser: z.nullable(z.string()),
  ip: z.nullable(z.string()),
});
export type SessionRow = z.infer<typeof SessionRow>;
export const SessionRows = z.array(SessionRow);
export const SessionIdParams = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,32}$/)) });

/** The codes of refusals the screens translate: a fresh proof is needed first. */
export const REAUTH_NEEDED =
  'Confirm it is you first: your password, and a code when you have a second factor.';

export const ChangePasswordBody = z.object({
  current_password: z
    .string()
    .check(z.minLength(1, { error: 'Current password is required' }), z.maxLength(1024)),
  new_password: z.string().check(z.maxLength(1024)),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const MessageAnswer = z.object({ message: z.string() });

/** After this long without a backup, the Activity screen warns. */
export const BACKUP_STALE_HOURS = 48;

/**
 * GET /api/admin/backup-status: whether the server takes daily backups (BACKUP_DIR), and the
 * newest one there (its time, size and file count), `stale` when there is none or it is older
 * than BACKUP_STALE_HOURS.
 */
export const BackupStatus = z.object({
  configured: z.boolean(),
  last: z.nullable(z.object({ at: z.string(), bytes: z.number(), files: z.number() })),
  stale: z.boolean(),
  /** The mail outbox (server/mail): SMTP set up or not, waiting, sent today, given up, the last error. */
  mail: MailStatus,
});
export type BackupStatus = z.infer<typeof BackupStatus>;

/** GET /api/auth/setup: whether the site has no account yet (the sign-in page then says how to make one). */
export const SetupStatus = z.object({
  needed: z.boolean(),
  /** While needed: the shell command that makes the owner on this server (npm, or node in the container). */
  create_admin: z.optional(z.string()),
});
export type SetupStatus = z.infer<typeof SetupStatus>;

/** POST /api/auth/setup: the first owner, with the token of the printed setup address. */
export const SetupBody = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(200)),
  email: LoginBody.shape.email,
  password: z.string().check(z.minLength(1, { error: 'Password is required' }), z.maxLength(1024)),
});
export type SetupBody = z.infer<typeof SetupBody>;

export const UserRow = z.object({
  user_id: z.number().check(z.int()),
  email: z.string(),
  role_id: z.number().check(z.int()),
  role: z.string(),
  disabled: z.boolean(),
  must_change_password: z.boolean(),
  created_at: z.string(),
  last_login_at: z.nullable(z.string()),
  /** They have a second factor (an owner sees who still signs in with a password alone). */
  second_factor: z.optional(z.boolean()),
  /** Invited and never signed in: until when their invitation link works (past: it expired). */
  invited_until: z.optional(z.nullable(z.string())),
  /** One more at each change of the role or access (docs/decisions/022); sent back as If-Match. */
  version: z.optional(z.number().check(z.int())),
});
export type UserRow = z.infer<typeof UserRow>;
export const UserRows = z.array(UserRow);

const roleName = z.string().check(z.trim(), z.minLength(1, { error: 'Choose a role' }), z.maxLength(60));

/** POST /api/admin/users: `role` is the role's name (owner, editor, recruiter or a custom one). */
export const CreateUserBody = z.object({
  email,
  role: roleName,
  /** The back office's language: an invitation mail is written in it. */
  lang: z.optional(z.string().check(z.maxLength(5))),
  /** Omitted: the server makes a one-time password and answers it once. */
  password: z.optional(z.string().check(z.maxLength(1024))),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const CreateUserAnswer = z.object({
  message: z.string(),
  user: UserRow,
  one_time_password: z.optional(z.string()),
  /** Set when the user was emailed a link (an invitation or a reset) instead of a one-time password. */
  mailed_to: z.optional(z.string()),
});
export type CreateUserAnswer = z.infer<typeof CreateUserAnswer>;

/** POST /api/admin/users/:id/reset-password: the language of the reset mail (when mail is set up). */
export const ResetUserBody = z.object({ lang: z.optional(z.string().check(z.maxLength(5))) });

export const UpdateUserBody = z.object({
  role: z.optional(roleName),
  disabled: z.optional(z.boolean()),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const UserAnswer = z.object({ message: z.string(), user: UserRow });

export { IdParams } from './ids';

export const RoleRow = z.object({
  role_id: z.number().check(z.int()),
  name: z.string(),
  permissions: z.array(Permission),
  built_in: z.boolean(),
  user_count: z.number().check(z.int()),
  /** Its members sign in with a second factor (and set one up first). */
  requires_second_factor: z.optional(z.boolean()),
  /** One more at each change (docs/decisions/022); sent back as If-Match. */
  version: z.optional(z.number().check(z.int())),
});
export type RoleRow = z.infer<typeof RoleRow>;
export const RoleRows = z.array(RoleRow);

export const RoleBody = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(2, { error: 'Role name must be at least 2 characters long.' }),
      z.maxLength(60, { error: 'Role name must not exceed 60 characters.' }),
      z.regex(/^[\p{L}\p{N} ._-]+$/u, { error: 'Role name contains invalid characters.' }),
    ),
  permissions: z.array(Permission).check(z.maxLength(PERMISSIONS.length)),
  /** Omitted: as it is (off for a new role). */
  requires_second_factor: z.optional(z.boolean()),
});
export type RoleBody = z.infer<typeof RoleBody>;
export const RoleAnswer = z.object({ message: z.string(), role: RoleRow });

/** The kinds of record the audit log names, as the Activity screen's filter offers them. */
export const AUDIT_ENTITIES = [
  'blog_post',
  'job_opening',
  'job_application',
  'contact_message',
  'admin_user',
  'admin_role',
  'mail',
  'candidate_mail_template',
] as const;
/** The actions the Activity screen's filter offers. */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'status',
  'restore',
  'delete',
  'login',
  'logout',
  'login_failed',
  'factor_added',
  'factor_removed',
  'factor_used',
  'factor_failed',
  'factors_cleared',
  'recovery_code_used',
  'recovery_codes',
  'session_ended',
  'password_change',
  'reset_password',
  'password_link',
  'password_reset_link',
  'invitation_accepted',
  'notices',
  'export',
  'cv_link',
  'cv_read',
  'preview_link',
  'preview_links_revoked',
  'retry',
  'retention_purge',
  'note',
  'mail',
  'reply',
  'assign',
] as const;

/** A real day, YYYY-MM-DD (not 2025-02-30). */
const auditDay = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/),
  z.refine((day) => {
    const t = Date.parse(`${day}T00:00:00.000Z`);
    return Number.isFinite(t) && new Date(t).toISOString().startsWith(day);
  }, 'Expected a day as YYYY-MM-DD'),
);

/**
 * GET /api/admin/audit: newest first, filtered by person (the start of their email, any case), kind
 * of record, action and days (from and to, inclusive, UTC).
 */
export const AuditQuery = z.object({
  pagenum: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 1),
  pagesize: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
  actor: z._default(z.string().check(z.maxLength(254)), ''),
  entity: z._default(z.string().check(z.regex(/^[a-z_]{0,60}$/)), ''),
  action: z._default(z.string().check(z.regex(/^[a-z_.]{0,60}$/)), ''),
  from: z._default(z.union([z.literal(''), auditDay]), ''),
  to: z._default(z.union([z.literal(''), auditDay]), ''),
});
export type AuditQuery = z.output<typeof AuditQuery>;

export const AuditRow = z.object({
  audit_id: z.number().check(z.int()),
  at: z.string(),
  actor_email: z.nullable(z.string()),
  action: z.string(),
  entity: z.string(),
  entity_id: z.nullable(z.string()),
  detail: z.nullable(z.string()),
  total_count: z.optional(z.number().check(z.int())),
});
export type AuditRow = z.infer<typeof AuditRow>;
export const AuditRows = z.array(AuditRow);

// ---------------------------------------------------------------------------------------------
// Who may change whom. One set of rules, enforced by the server (routes/admin-users.ts) and read
// by the Users & Roles screen to hide what the signed-in user may not do. Each function answers
// the refusal message, or null when the change is allowed.
// ---------------------------------------------------------------------------------------------

/** The owner is the built-in role of that name (custom roles cannot take the name). */
export const OWNER_ROLE = 'owner';

export const ACCESS_REFUSED = {
  self: 'You cannot change your own role, permissions or access here.',
  ownerOnly: 'Only an owner can change an owner or a role an owner holds.',
  grant: 'You cannot grant a permission you do not hold.',
  stronger: 'You cannot change a user or role that holds permissions you do not hold.',
} as const;

/** The signed-in user as the rules see them. */
export interface Actor {
  user_id: number;
  role: string;
  permissions: readonly Permission[];
}

const holdsAll = (actor: Actor, permissions: readonly Permission[]) =>
  permissions.every((p) => actor.permissions.includes(p));

export type UserChangeKind = 'role' | 'disable' | 'reset' | 'delete';

/**
 * May `actor` do `kind` to the user `target` (whose role has `targetPermissions`)? For 'role',
 * `newRole` is the role to give. Rules: nobody changes their own account here; only an owner
 * touches an owner; nobody touches a user holding a permission they lack, or gives a role with one.
 */
export function userChangeRefusal(
  actor: Actor,
  target: { user_id: number; role: string; permissions: readonly Permission[] },
  kind: UserChangeKind,
  newRole?: { name: string; permissions: readonly Permission[] },
): string | null {
  if (target.user_id === actor.user_id) return ACCESS_REFUSED.self;
  const ownerActor = actor.role === OWNER_ROLE;
  if (!ownerActor && (target.role === OWNER_ROLE || newRole?.name === OWNER_ROLE)) {
    return ACCESS_REFUSED.ownerOnly;
  }
  if (!holdsAll(actor, target.permissions)) return ACCESS_REFUSED.stronger;
  if (kind === 'role' && newRole && !holdsAll(actor, newRole.permissions)) return ACCESS_REFUSED.grant;
  return null;
}

/** May `actor` create a user with this role? */
export function newUserRefusal(actor: Actor, role: { name: string; permissions: readonly Permission[] }) {
  if (role.name === OWNER_ROLE && actor.role !== OWNER_ROLE) return ACCESS_REFUSED.ownerOnly;
  return holdsAll(actor, role.permissions) ? null : ACCESS_REFUSED.grant;
}

/**
 * May `actor` create (role undefined), edit or delete a role, giving it `permissions`? A role the
 * actor holds is their own permissions; the owner role is the owner's.
 */
export function roleChangeRefusal(
  actor: Actor,
  role: { name: string; permissions: readonly Permission[] } | undefined,
  permissions: readonly Permission[] = [],
): string | null {
  if (role) {
    if (role.name === actor.role) return ACCESS_REFUSED.self;
    // owners hold exactly the owner role, so "a role an owner holds" is that one
    if (role.name === OWNER_ROLE && actor.role !== OWNER_ROLE) {
      return ACCESS_REFUSED.ownerOnly;
    }
    if (!holdsAll(actor, role.permissions)) return ACCESS_REFUSED.stronger;
  }
  return holdsAll(actor, permissions) ? null : ACCESS_REFUSED.grant;
}
