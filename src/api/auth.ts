import { adminDelete, adminWrite, ApiError, fetchJson, toQuery, versioned, withFreshProof } from './client';
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { ZodMiniType } from 'zod/mini';
import {
  AuditRows,
  FactorAddedAnswer,
  FactorsAnswer,
  LoginAnswer,
  PasskeyOptions,
  SecondStepAnswer,
  SessionRows,
  TotpSetupAnswer,
  type FactorAddedAnswer as FactorAddedAnswerT,
  type FactorsAnswer as FactorsAnswerT,
  type LoginAnswer as LoginAnswerT,
  type ReauthBody,
  type SecondStepAnswer as SecondStepAnswerT,
  type SessionRow,
  type TotpSetupAnswer as TotpSetupAnswerT,
  BackupStatus,
  CreateUserAnswer,
  MessageAnswer,
  ProfileBody,
  RoleAnswer,
  RoleRows,
  SessionAnswer,
  SessionUser,
  SetupStatus,
  UserAnswer,
  UserRows,
  type AuditRow,
  type BackupStatus as BackupStatusT,
  type ChangePasswordBody,
  type CreateUserAnswer as CreateUserAnswerT,
  type LoginBody,
  type Permission,
  RoleRow,
  type SessionUser as SessionUserT,
  type SetupBody,
  type SetupStatus as SetupStatusT,
  UserRow,
} from '../../contract/auth';
import {
  ForgotPasswordStatus,
  MailRows,
  MailSettings,
  type MailSettings as MailSettingsT,
  NoticePrefs,
  type ForgotPasswordBody,
  type ForgotPasswordStatus as ForgotPasswordStatusT,
  type MailQuery,
  type MailRow,
  type NoticePrefs as NoticePrefsT,
  type NoticePrefsBody,
  type ResetPasswordBody,
} from '../../contract/mail';

/**
 * Sign-in and the back office's own API. It lives on the same origin as the
 * admin (`/api/auth`, `/api/admin`), never behind a configurable base. Writes carry the CSRF
 * header besides the browser's Origin.
 */
const write = adminWrite;
const del = adminDelete;

/**
 * The signed-in user, or the second step a half-done sign-in waits for; rejects with status 401
 * when signed out (the session call itself answers 200).
 */
export async function fetchMe(): Promise<LoginAnswerT> {
  const { user, second_step } = await fetchJson(SessionAnswer, '/api/auth/session', { cache: 'no-store' });
  if (user) return user;
  if (second_step) return { second_step };
  throw new ApiError(401, 'Please sign in.');
}
/** The password: the signed-in user, or the second step it still needs. */
export const login = (body: LoginBody): Promise<LoginAnswerT> =>
  fetchJson(LoginAnswer, '/api/auth/login', write(body));
/** The second step with a code (authenticator app or recovery code). */
export const verifySecondStep = (code: string): Promise<SecondStepAnswerT> =>
  fetchJson(SecondStepAnswer, '/api/auth/second-step', write({ code }));

/** Options from the server, through the browser's passkey dialog, back to the server. */
async function passkeyCeremony<T>(
  kind: 'get' | 'create',
  optionsUrl: string,
  url: string,
  answer: ZodMiniType<T>,
  extra: object = {},
): Promise<T> {
  // the server's options are @simplewebauthn/server's JSON, checked there; here only their challenge
  const options = await fetchJson(PasskeyOptions, optionsUrl, write({}));
  const response =
    kind === 'get'
      ? await startAuthentication({
          optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
        })
      : await startRegistration({
          optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
        });
  return fetchJson(answer, url, write({ response, ...extra }));
}
/** Signs in with a passkey: the second step of a half-done sign-in, or on its own. */
export const signInWithPasskey = (): Promise<SessionUserT> =>
  passkeyCeremony('get', '/api/auth/passkey/options', '/api/auth/passkey', SessionUser);
/** Whether this browser can use passkeys at all. */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** The signed-in person's second factors (the account screen's "Sign-in security"). */
export const fetchFactors = (): Promise<FactorsAnswerT> =>
  fetchJson(FactorsAnswer, '/api/auth/factors', { cache: 'no-store' });
/** A new authenticator-app secret (text and QR code) to confirm with its first code. */
export const beginTotp = (): Promise<TotpSetupAnswerT> =>
  fetchJson(TotpSetupAnswer, '/api/auth/factors/totp', write({}));
export const confirmTotp = (code: string, name?: string): Promise<FactorAddedAnswerT> =>
  fetchJson(FactorAddedAnswer, '/api/auth/factors/totp/confirm', write(name ? { code, name } : { code }));
/** Adds a passkey of this device (or a security key). */
export const addPasskey = (name?: string): Promise<FactorAddedAnswerT> =>
  passkeyCeremony(
    'create',
    '/api/auth/factors/passkey/options',
    '/api/auth/factors/passkey',
    FactorAddedAnswer,
    name ? { name } : {},
  );
export const removeFactor = (id: number): Promise<FactorsAnswerT> =>
  fetchJson(FactorsAnswer, `/api/auth/factors/${id}`, del());
export const newRecoveryCodes = (): Promise<FactorAddedAnswerT> =>
  fetchJson(FactorAddedAnswer, '/api/auth/factors/recovery-codes', write({}));
/** The fresh proof before factors change: the password and a code. */
export const reauthenticate = (body: ReauthBody): Promise<FactorsAnswerT> =>
  fetchJson(FactorsAnswer, '/api/auth/reauth', write(body));
/** The fresh proof with a passkey. */
export const reauthenticateWithPasskey = (): Promise<FactorsAnswerT> =>
  passkeyCeremony('get', '/api/auth/reauth/passkey/options', '/api/auth/reauth/passkey', FactorsAnswer);
/** The person's signed-in devices. */
export const listSessions = (): Promise<SessionRow[]> =>
  fetchJson(SessionRows, '/api/auth/sessions', { cache: 'no-store' });
/** Ends one session, or every other one ('others'). */
export const endSessions = (id: string): Promise<SessionRow[]> =>
  withFreshProof(() => fetchJson(SessionRows, `/api/auth/sessions/${encodeURIComponent(id)}`, del()));
/** An owner clears a colleague's second factors (a lost phone). */
export const clearUserFactors = (id: number) =>
  withFreshProof(() => fetchJson(MessageAnswer, `/api/admin/users/${id}/factors`, del()));
/** The server's daily backups: set up or not, and the newest one (the Activity screen). */
export const fetchBackupStatus = (): Promise<BackupStatusT> =>
  fetchJson(BackupStatus, '/api/admin/backup-status', { cache: 'no-store' });
/** Whether the site has no account yet (first run). */
export const fetchSetupStatus = (): Promise<SetupStatusT> =>
  fetchJson(SetupStatus, '/api/auth/setup', { cache: 'no-store' });
/** The first owner, with the printed setup address's token; answers the signed-in user. */
export const createOwnerWithToken = (body: SetupBody): Promise<SessionUserT> =>
  fetchJson(SessionUser, '/api/auth/setup', write(body));
export const logout = (): Promise<{ message: string }> =>
  fetchJson(MessageAnswer, '/api/auth/logout', write({}));
export const changePassword = (body: ChangePasswordBody): Promise<SessionUserT> =>
  fetchJson(SessionUser, '/api/auth/password', write(body));

/** PATCH /api/auth/profile: the name readers see on the posts this person writes. */
export const saveDisplayName = (displayName: string): Promise<{ display_name: string }> =>
  fetchJson(ProfileBody, '/api/auth/profile', write({ display_name: displayName }, 'PATCH'));

export const listUsers = (): Promise<UserRow[]> => fetchJson(UserRows, '/api/admin/users');
export const createUser = (body: {
  email: string;
  role: string;
  password?: string;
  /** The language of an invitation mail. */
  lang?: string;
}): Promise<CreateUserAnswerT> =>
  withFreshProof(() => fetchJson(CreateUserAnswer, '/api/admin/users', write(body)));
/** Changes a user's role or access on the version the screen shows (a `VersionConflict` when stale). */
export const updateUser = (id: number, body: { role?: string; disabled?: boolean }, version: number) =>
  versioned(
    UserRow,
    withFreshProof(() => fetchJson(UserAnswer, `/api/admin/users/${id}`, adminWrite(body, 'PATCH', version))),
  );
export const resetUserPassword = (id: number, lang?: string): Promise<CreateUserAnswerT> =>
  withFreshProof(() =>
    fetchJson(CreateUserAnswer, `/api/admin/users/${id}/reset-password`, write(lang ? { lang } : {})),
  );
export const deleteUser = (id: number) => fetchJson(MessageAnswer, `/api/admin/users/${id}`, del());

export const listRoles = (): Promise<RoleRow[]> => fetchJson(RoleRows, '/api/admin/roles');
export const createRole = (body: { name: string; permissions: Permission[] }) =>
  withFreshProof(() => fetchJson(RoleAnswer, '/api/admin/roles', write(body)));
/** Renames a role and sets its permissions on the version the screen shows (a `VersionConflict` when stale). */
export const updateRole = (
  id: number,
  body: { name: string; permissions: Permission[]; requires_second_factor?: boolean },
  version: number,
) =>
  versioned(
    RoleRow,
    withFreshProof(() => fetchJson(RoleAnswer, `/api/admin/roles/${id}`, adminWrite(body, 'PATCH', version))),
  );
export const deleteRole = (id: number) => fetchJson(MessageAnswer, `/api/admin/roles/${id}`, del());

/** The Activity screen's filters (empty: all). */
export interface AuditFilters {
  actor: string;
  entity: string;
  action: string;
  from: string;
  to: string;
}
export const NO_AUDIT_FILTERS: AuditFilters = { actor: '', entity: '', action: '', from: '', to: '' };

export const listAudit = (
  pagenum: number,
  pagesize = 50,
  filters: AuditFilters = NO_AUDIT_FILTERS,
): Promise<AuditRow[]> =>
  fetchJson(AuditRows, `/api/admin/audit?${toQuery({ pagenum, pagesize, ...filters })}`, {
    cache: 'no-store',
  });

/** Whether the site can mail a reset link (the forgot-password page). */
export const fetchForgotPasswordStatus = (): Promise<ForgotPasswordStatusT> =>
  fetchJson(ForgotPasswordStatus, '/api/auth/forgot-password', { cache: 'no-store' });
/** Asks for a reset link; the same answer whether or not the address has an account. */
export const requestPasswordLink = (body: ForgotPasswordBody): Promise<{ message: string }> =>
  fetchJson(MessageAnswer, '/api/auth/forgot-password', write(body));
/** Sets a password with a reset or invitation link's token. */
export const resetPasswordWithLink = (body: ResetPasswordBody): Promise<{ message: string }> =>
  fetchJson(MessageAnswer, '/api/auth/reset-password', write(body));

/** The signed-in user's email notices. */
export const fetchNoticePrefs = (): Promise<NoticePrefsT> =>
  fetchJson(NoticePrefs, '/api/auth/notices', { cache: 'no-store' });
/** Saves them, based on the `version` the screen shows (a `VersionConflict` when it changed meanwhile). */
export const saveNoticePrefs = (body: NoticePrefsBody, version: number): Promise<NoticePrefsT> =>
  versioned(NoticePrefs, fetchJson(NoticePrefs, '/api/auth/notices', write(body, 'PATCH', version)));

/** The mail outbox (the Mail screen). */
export const listMail = (q: Partial<MailQuery>): Promise<MailRow[]> =>
  fetchJson(MailRows, `/api/admin/mail?${toQuery(q)}`, { cache: 'no-store' });
/** Whether mail is sent, its From, and where replies go (the Mail screen). */
export const fetchMailSettings = (): Promise<MailSettingsT> =>
  fetchJson(MailSettings, '/api/admin/mail/settings', { cache: 'no-store' });
export const retryMail = (id: number) => fetchJson(MessageAnswer, `/api/admin/mail/${id}/retry`, write({}));
