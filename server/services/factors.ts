import { createHmac, randomInt } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import {
  OWNER_ROLE,
  REAUTH_NEEDED,
  type FactorAddedAnswer,
  type FactorsAnswer,
  type SessionRow,
  type SessionUser,
} from '../../contract/auth';
import { deleteUserSessions, getUser, noticeLangOf, passwordHashOf } from '../db/auth.repo';
import * as repo from '../db/factors.repo';
import { HttpError } from '../http-error';
import { verifyPassword } from '../lib/passwords';
import { keyedHash, open, seal } from '../lib/secret-box';
import { queueFactorNotice } from '../mail/mails';
import { inTransaction, type Change, type ServiceContext } from './context';
import { limitKeys, release, reserve } from './sign-in-limits';

/**
 * Second factors (docs/decisions/024-second-factors.md): authenticator apps (RFC 6238, 30-second
 * steps, one step of drift, each code once), passkeys (WebAuthn, user verification required) and
 * ten single-use recovery codes; the fresh proof that changing them needs; the sessions a person
 * sees and ends; an owner clearing a colleague's factors. The second step of sign-in itself is
 * services/sign-in.ts's; it checks codes here.
 */

/** A change of factors needs a full proof (password and factor) at most this old. */
export const FRESH_PROOF_MS = 5 * 60 * 1000;
export const RECOVERY_CODE_COUNT = 10;
/** How long a passkey ceremony's challenge works. */
const CHALLENGE_MS = 5 * 60 * 1000;
const TOTP_PERIOD = 30;

export const FACTOR_MESSAGES = {
  wrongCode: 'That code is not right. Check the time on your device and try the newest code.',
  noPending: 'Start adding the authenticator app again: this setup has ended.',
  haveTotp: 'You already have an authenticator app. Remove it first to add another.',
  lastRequired: 'Your role requires a second factor: add another one before removing this one.',
  notFound: 'Second factor not found.',
  noFactor: 'Add a second factor first: recovery codes come with it.',
  passkeyFailed: 'The passkey could not be checked. Try again.',
  sessionNotFound: 'That session has already ended.',
  ownerOnly: 'Only an owner can clear a colleague’s second factors.',
  notYourself: 'Remove your own second factors under Your account (it asks you to confirm it is you).',
  wrongPassword: 'That password is not right.',
} as const;

/** The session a request comes with, as these services need it. */
export interface SessionRef {
  hash: string;
  provedAt: string | null;
}

const secretOf = (ctx: ServiceContext) => ctx.config.SECRET;

// Codes ---------------------------------------------------------------------------------------

const totpOf = (base32: string, email: string) =>
  new TOTP({
    issuer: 'Manna',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(base32),
  });

/** The 30-second step `code` is right for at `now` (one step of drift either way), or null. */
function totpStep(base32: string, email: string, code: string, now: Date): number | null {
  const totp = totpOf(base32, email);
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

/** "ABCDE-12345", "abcde 12345" and "abcde12345" are one code. */
const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}
const recoveryHash = (ctx: ServiceContext, code: string) =>
  keyedHash(secretOf(ctx), 'recovery code', normaliseRecovery(code));

/** Replaces the user's recovery codes, in the change; answers the new codes (shown once). */
async function renewRecoveryCodes(ctx: ServiceContext, c: Change, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(
    c.trx,
    userId,
    codes.map((code) => recoveryHash(ctx, code)),
    c.at,
  );
  return codes;
}

export type CodeUse =
  { method: 'totp'; factorId: number; name: string } | { method: 'recovery'; left: number };

/**
 * Checks and uses up a code of the user: six digits from one of their authenticator apps (each
 * step once), or one of their recovery codes. Answers what it was, or null.
 */
export async function useCode(ctx: ServiceContext, user: { user_id: number; email: string }, code: string) {
  const now = ctx.now();
  const digits = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) {
    for (const f of await repo.factorsOf(ctx.db, user.user_id)) {
      if (f.kind !== 'totp' || Number(f.confirmed) !== 1 || !f.secret) continue;
      const base32 = open(secretOf(ctx), 'totp', f.secret);
      const step = base32 && totpStep(base32, user.email, digits, now);
      if (typeof step === 'number' && (await repo.useTotpStep(ctx.db, f.factor_id, step, now)))
        return { method: 'totp', factorId: f.factor_id, name: f.name } satisfies CodeUse;
    }
    return null;
  }
  if (normaliseRecovery(code).length !== 10) return null;
  if (!(await repo.takeRecoveryCode(ctx.db, user.user_id, recoveryHash(ctx, code)))) return null;
  return { method: 'recovery', left: await repo.recoveryCodesLeft(ctx.db, user.user_id) } satisfies CodeUse;
}

// What a person has ----------------------------------------------------------------------------

export const hasFactor = (ctx: ServiceContext, userId: number) => repo.hasConfirmedFactor(ctx.db, userId);

/** The second-step methods a user can use (empty: none is asked). */
export async function methodsOf(ctx: ServiceContext, userId: number) {
  const factors = (await repo.factorsOf(ctx.db, userId)).filter((f) => Number(f.confirmed) === 1);
  const methods: ('totp' | 'passkey' | 'recovery')[] = [];
  if (factors.some((f) => f.kind === 'totp')) methods.push('totp');
  if (factors.some((f) => f.kind === 'passkey')) methods.push('passkey');
  if (methods.length > 0 && (await repo.recoveryCodesLeft(ctx.db, userId)) > 0) methods.push('recovery');
  return methods;
}

export async function factorsAnswer(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef,
): Promise<FactorsAnswer> {
  const rows = await repo.factorsOf(ctx.db, user.user_id);
  const provedUntil = session.provedAt ? Date.parse(session.provedAt) + FRESH_PROOF_MS : 0;
  return {
    factors: rows
      .filter((f) => Number(f.confirmed) === 1)
      .map((f) => ({
        factor_id: f.factor_id,
        kind: f.kind === 'passkey' ? 'passkey' : 'totp',
        name: f.name,
        created_at: f.created_at,
        last_used_at: f.last_used_at,
      })),
    recovery_left: await repo.recoveryCodesLeft(ctx.db, user.user_id),
    required: await repo.roleRequiresFactor(ctx.db, user.role_id),
    proof_until: provedUntil > ctx.now().getTime() ? new Date(provedUntil).toISOString() : null,
  };
}

// The fresh proof ------------------------------------------------------------------------------

/**
 * Refuses (403, code `reauth`) unless the session's full proof is at most FRESH_PROOF_MS old. A
 * person setting up their first factor right after the password has just given their full proof.
 */
export function requireFreshProof(ctx: ServiceContext, session: SessionRef): void {
  const at = session.provedAt ? Date.parse(session.provedAt) : 0;
  if (ctx.now().getTime() - at > FRESH_PROOF_MS)
    throw new HttpError(403, REAUTH_NEEDED, { form: REAUTH_NEEDED }, { form: 'reauth' });
}

/**
 * The fresh proof: the password, and a code when the user has an authenticator app or recovery
 * codes (a passkey proves itself: `reauthWithPasskey`). Under the sign-in limits (a stolen session
 * cannot try passwords at will); wrong ones are 400, audited as failures.
 */
export async function reauth(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef & { ip: string },
  { password, code }: { password: string; code?: string },
): Promise<FactorsAnswer> {
  // counted for this account's proofs and codes, not for its password: failures of strangers on
  // the sign-in form do not stop its owner's proof
  const keys = [limitKeys.address(session.ip), limitKeys.proof(user.user_id), limitKeys.codes(user.user_id)];
  const reservation = await reserve(ctx, keys, ctx.now());
  const hash = await passwordHashOf(ctx.db, user.user_id);
  const audit = (action: string, detail: object) =>
    inTransaction(ctx, (c) => c.audit({ action, entity: 'admin_user', entityId: user.user_id, detail }));
  if (!hash || !(await verifyPassword(hash, password))) {
    await audit('login_failed', { reauth: true });
    throw new HttpError(400, FACTOR_MESSAGES.wrongPassword, { password: FACTOR_MESSAGES.wrongPassword });
  }
  const methods = await methodsOf(ctx, user.user_id);
  if (methods.includes('totp') || methods.includes('recovery')) {
    const used = code ? await useCode(ctx, user, code) : null;
    if (!used) {
      await audit('factor_failed', { reauth: true });
      throw new HttpError(400, FACTOR_MESSAGES.wrongCode, { code: FACTOR_MESSAGES.wrongCode });
    }
    await audit(used.method === 'recovery' ? 'recovery_code_used' : 'factor_used', {
      reauth: true,
      ...(used.method === 'recovery' ? { left: used.left } : { name: used.name }),
    });
  } else if (methods.includes('passkey')) {
    // passkeys only: the password is not enough, the passkey gives the proof
    throw new HttpError(400, FACTOR_MESSAGES.passkeyFailed, { code: FACTOR_MESSAGES.passkeyFailed });
  }
  await release(ctx, reservation, ctx.now(), keys.slice(1));
  await repo.markProved(ctx.db, session.hash, ctx.now());
  return factorsAnswer(ctx, user, { ...session, provedAt: ctx.now().toISOString() });
}

// Changes of factors ---------------------------------------------------------------------------

/**
 * After a factor was added or removed: the user's other sessions end (a thief's session does not
 * outlive the owner's new lock) and, when mail is set up, they are told.
 */
async function afterFactorChange(
  ctx: ServiceContext,
  c: Change,
  user: { user_id: number; email: string },
  keepSession: string | undefined,
  change: 'added' | 'removed' | 'cleared',
  kind: string,
) {
  await deleteUserSessions(c.trx, user.user_id, keepSession);
  const lang = await noticeLangOf(c.trx, user.user_id);
  await queueFactorNotice(
    c.trx,
    ctx.config,
    { email: user.email, lang: lang ?? undefined, change, kind },
    c.at,
  );
  c.announce({ type: 'mail.queued' });
}

/** Starts adding an authenticator app: a new secret (sealed in the database until confirmed). */
export async function beginTotp(ctx: ServiceContext, user: SessionUser, session: SessionRef) {
  requireFreshProof(ctx, session);
  const rows = await repo.factorsOf(ctx.db, user.user_id);
  if (rows.some((f) => f.kind === 'totp' && Number(f.confirmed) === 1))
    throw new HttpError(409, FACTOR_MESSAGES.haveTotp);
  const secret = new Secret({ size: 20 });
  await inTransaction(ctx, async (c) => {
    await repo.deleteUnconfirmedTotp(c.trx, user.user_id);
    await repo.insertFactor(
      c.trx,
      {
        userId: user.user_id,
        kind: 'totp',
        name: 'Authenticator app',
        confirmed: false,
        secret: seal(secretOf(ctx), 'totp', secret.base32),
      },
      c.at,
    );
  });
  const uri = totpOf(secret.base32, user.email).toString();
  const qr = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret: secret.base32, uri, qr_svg: qr };
}

/**
 * Confirms the authenticator app being added with its first code: it counts from now on. The
 * first factor of a person comes with their recovery codes.
 */
export async function confirmTotp(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef,
  { code, name }: { code: string; name?: string },
): Promise<FactorAddedAnswer> {
  requireFreshProof(ctx, session);
  const pending = (await repo.factorsOf(ctx.db, user.user_id)).find(
    (f) => f.kind === 'totp' && Number(f.confirmed) === 0,
  );
  const base32 = pending?.secret ? open(secretOf(ctx), 'totp', pending.secret) : null;
  if (!pending || !base32) throw new HttpError(409, FACTOR_MESSAGES.noPending);
  const step = totpStep(base32, user.email, code.replace(/\s/g, ''), ctx.now());
  if (step === null) throw new HttpError(400, FACTOR_MESSAGES.wrongCode, { code: FACTOR_MESSAGES.wrongCode });
  const first = !(await repo.hasConfirmedFactor(ctx.db, user.user_id));
  const factorName = name ?? 'Authenticator app';
  const codes = await inTransaction(ctx, async (c) => {
    if (!(await repo.useTotpStep(c.trx, pending.factor_id, step, c.at, { name: factorName })))
      throw new HttpError(400, FACTOR_MESSAGES.wrongCode, { code: FACTOR_MESSAGES.wrongCode });
    return factorAdded(ctx, c, user, session, { kind: 'totp', name: factorName, first });
  });
  return addedAnswer(ctx, user, session, codes);
}

/**
 * What follows any factor added, in its change: the audit row, the other sessions ended and the
 * notice mailed; a first factor's recovery codes (answered, to be shown once).
 */
async function factorAdded(
  ctx: ServiceContext,
  c: Change,
  user: SessionUser,
  session: SessionRef,
  { kind, name, first }: { kind: 'totp' | 'passkey'; name: string; first: boolean },
): Promise<string[] | undefined> {
  await c.audit({
    action: 'factor_added',
    entity: 'admin_user',
    entityId: user.user_id,
    detail: { kind, name },
  });
  await afterFactorChange(ctx, c, user, session.hash, 'added', kind);
  return first ? renewRecoveryCodes(ctx, c, user.user_id) : undefined;
}

const addedAnswer = async (
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef,
  codes: string[] | undefined,
): Promise<FactorAddedAnswer> => ({
  factors: await factorsAnswer(ctx, user, session),
  ...(codes ? { recovery_codes: codes } : {}),
});

/** Removes one of the user's factors (not the last one when their role requires one). */
export async function removeFactor(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef,
  factorId: number,
): Promise<FactorsAnswer> {
  requireFreshProof(ctx, session);
  const confirmed = (await repo.factorsOf(ctx.db, user.user_id)).filter((f) => Number(f.confirmed) === 1);
  const factor = confirmed.find((f) => f.factor_id === factorId);
  if (!factor) throw new HttpError(404, FACTOR_MESSAGES.notFound);
  if (confirmed.length === 1 && (await repo.roleRequiresFactor(ctx.db, user.role_id)))
    throw new HttpError(409, FACTOR_MESSAGES.lastRequired);
  await inTransaction(ctx, async (c) => {
    if (!(await repo.deleteFactor(c.trx, user.user_id, factorId)))
      throw new HttpError(404, FACTOR_MESSAGES.notFound);
    // no factor left: the recovery codes of none go too
    if (confirmed.length === 1) await repo.clearFactors(c.trx, user.user_id);
    await c.audit({
      action: 'factor_removed',
      entity: 'admin_user',
      entityId: user.user_id,
      detail: { kind: factor.kind, name: factor.name },
    });
    await afterFactorChange(ctx, c, user, session.hash, 'removed', factor.kind);
  });
  return factorsAnswer(ctx, user, session);
}

/** A new set of recovery codes replaces the old (shown once). */
export async function regenerateRecoveryCodes(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef,
): Promise<FactorAddedAnswer> {
  requireFreshProof(ctx, session);
  if (!(await repo.hasConfirmedFactor(ctx.db, user.user_id)))
    throw new HttpError(409, FACTOR_MESSAGES.noFactor);
  const codes = await inTransaction(ctx, async (c) => {
    const fresh = await renewRecoveryCodes(ctx, c, user.user_id);
    await c.audit({ action: 'recovery_codes', entity: 'admin_user', entityId: user.user_id });
    return fresh;
  });
  return { factors: await factorsAnswer(ctx, user, session), recovery_codes: codes };
}

/**
 * An owner clears a colleague's second factors (a lost phone): every factor, recovery code and
 * session of theirs goes, and their next sign-in sets one up when their role requires it. Only an
 * owner, and not for themselves (their own go through the fresh proof); audited.
 */
export async function clearUserFactors(ctx: ServiceContext, by: SessionUser, targetId: number) {
  // the route needs users.manage, who see every user: 404 first, as for the other changes of a user
  const target = await getUser(ctx.db, targetId);
  if (!target) throw new HttpError(404, 'User not found');
  if (by.role !== OWNER_ROLE) throw new HttpError(403, FACTOR_MESSAGES.ownerOnly);
  if (targetId === by.user_id) throw new HttpError(403, FACTOR_MESSAGES.notYourself);
  await inTransaction(ctx, async (c) => {
    const count = await repo.clearFactors(c.trx, targetId);
    await c.audit({ action: 'factors_cleared', entity: 'admin_user', entityId: targetId, detail: { count } });
    await afterFactorChange(ctx, c, { user_id: targetId, email: target.email }, undefined, 'cleared', 'all');
  });
  return {
    message: 'Second factors cleared. They set one up at their next sign-in when their role requires it.',
  };
}

// Passkeys ------------------------------------------------------------------------------------

const relyingParty = (ctx: ServiceContext) => {
  const url = new URL(ctx.config.PUBLIC_URL);
  return { rpID: url.hostname, origin: url.origin, rpName: 'Manna back office' };
};
/** A stable WebAuthn user handle per account that does not reveal its id or email. */
const userHandle = (ctx: ServiceContext, userId: number) =>
  new Uint8Array(
    createHmac('sha256', secretOf(ctx)).update(`webauthn user ${userId}`).digest().subarray(0, 16),
  );

const transportsOf = (json: string | null): AuthenticatorTransportFuture[] | undefined => {
  try {
    const list = json ? (JSON.parse(json) as unknown) : undefined;
    return Array.isArray(list) ? (list as AuthenticatorTransportFuture[]) : undefined;
  } catch {
    return undefined;
  }
};

/** Starts adding a passkey: the browser's creation options (a discoverable credential, verified user). */
/** A passkey call's options as the browser takes them (JSON). */
type PasskeyOptionsJson = { challenge: string } & Record<string, unknown>;

export async function beginPasskey(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef,
): Promise<PasskeyOptionsJson> {
  requireFreshProof(ctx, session);
  const rp = relyingParty(ctx);
  const existing = (await repo.factorsOf(ctx.db, user.user_id)).filter((f) => f.kind === 'passkey');
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: user.email,
    userID: userHandle(ctx, user.user_id),
    attestationType: 'none',
    excludeCredentials: existing.map((f) => ({
      id: f.credential_id!,
      transports: transportsOf(f.transports),
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const now = ctx.now();
  await repo.storeChallenge(
    ctx.db,
    {
      challenge: options.challenge,
      purpose: 'register',
      userId: user.user_id,
      expiresAt: new Date(now.getTime() + CHALLENGE_MS),
    },
    now,
  );
  return { ...options };
}

/** Finishes adding a passkey with the browser's answer; the first factor comes with recovery codes. */
export async function finishPasskey(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef,
  { response, name }: { response: unknown; name?: string },
): Promise<FactorAddedAnswer> {
  requireFreshProof(ctx, session);
  const rp = relyingParty(ctx);
  const now = ctx.now();
  const verification = await verifyRegistrationResponse({
    response: response as RegistrationResponseJSON,
    expectedChallenge: (challenge) => repo.takeChallenge(ctx.db, challenge, 'register', user.user_id, now),
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: true,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified)
    throw new HttpError(400, FACTOR_MESSAGES.passkeyFailed, { form: FACTOR_MESSAGES.passkeyFailed });
  const { credential } = verification.registrationInfo;
  const first = !(await repo.hasConfirmedFactor(ctx.db, user.user_id));
  const factorName = name ?? 'Passkey';
  const codes = await inTransaction(ctx, async (c) => {
    await repo.insertFactor(
      c.trx,
      {
        userId: user.user_id,
        kind: 'passkey',
        name: factorName,
        confirmed: true,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        signCount: credential.counter,
        transports: credential.transports ? JSON.stringify(credential.transports) : undefined,
      },
      c.at,
    );
    return factorAdded(ctx, c, user, session, { kind: 'passkey', name: factorName, first });
  });
  return addedAnswer(ctx, user, session, codes);
}

/**
 * The browser's options to sign in with a passkey: for `userId`'s own passkeys (the second step,
 * or a fresh proof), or any discoverable one (signing in with a passkey alone: userId null).
 */
export async function passkeyOptions(
  ctx: ServiceContext,
  userId: number | null,
): Promise<PasskeyOptionsJson> {
  const rp = relyingParty(ctx);
  const own =
    userId === null ? [] : (await repo.factorsOf(ctx.db, userId)).filter((f) => f.kind === 'passkey');
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    userVerification: 'required',
    allowCredentials: own.map((f) => ({ id: f.credential_id!, transports: transportsOf(f.transports) })),
  });
  const now = ctx.now();
  await repo.storeChallenge(
    ctx.db,
    {
      challenge: options.challenge,
      purpose: 'sign-in',
      userId,
      expiresAt: new Date(now.getTime() + CHALLENGE_MS),
    },
    now,
  );
  return { ...options };
}

/**
 * Checks a passkey's answer to `passkeyOptions(userId)`: answers the account it belongs to (and
 * records its use), or null. With `userId`, only that account's passkeys count.
 */
export async function usePasskey(
  ctx: ServiceContext,
  response: unknown,
  userId: number | null,
): Promise<{ userId: number; factorId: number; name: string } | null> {
  const r = response as AuthenticationResponseJSON;
  const factor = typeof r?.id === 'string' ? await repo.factorByCredential(ctx.db, r.id) : undefined;
  if (!factor || Number(factor.confirmed) !== 1 || !factor.public_key) return null;
  if (userId !== null && factor.user_id !== userId) return null;
  const rp = relyingParty(ctx);
  const now = ctx.now();
  const verification = await verifyAuthenticationResponse({
    response: r,
    expectedChallenge: (challenge) => repo.takeChallenge(ctx.db, challenge, 'sign-in', userId, now),
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: true,
    credential: {
      id: factor.credential_id!,
      publicKey: new Uint8Array(Buffer.from(factor.public_key, 'base64url')),
      counter: Number(factor.sign_count ?? 0),
      transports: transportsOf(factor.transports),
    },
  }).catch(() => null);
  if (!verification?.verified) return null;
  await repo.usePasskey(ctx.db, factor.factor_id, verification.authenticationInfo.newCounter, now);
  return { userId: factor.user_id, factorId: factor.factor_id, name: factor.name };
}

/** The fresh proof with a passkey (for a person whose factors are passkeys). */
export async function reauthWithPasskey(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef & { ip: string },
  response: unknown,
): Promise<FactorsAnswer> {
  const keys = [limitKeys.address(session.ip), limitKeys.proof(user.user_id)];
  const reservation = await reserve(ctx, keys, ctx.now());
  const used = await usePasskey(ctx, response, user.user_id);
  await inTransaction(ctx, (c) =>
    c.audit({
      action: used ? 'factor_used' : 'factor_failed',
      entity: 'admin_user',
      entityId: user.user_id,
      detail: { reauth: true, kind: 'passkey', ...(used ? { name: used.name } : {}) },
    }),
  );
  if (!used) throw new HttpError(400, FACTOR_MESSAGES.passkeyFailed, { form: FACTOR_MESSAGES.passkeyFailed });
  await release(ctx, reservation, ctx.now(), keys.slice(1));
  await repo.markProved(ctx.db, session.hash, ctx.now());
  return factorsAnswer(ctx, user, { ...session, provedAt: ctx.now().toISOString() });
}

// Sessions ------------------------------------------------------------------------------------

/** "Chrome on Windows" from a User-Agent (the common browsers and systems; else the first word). */
export function browserOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : userAgent.split(/[\s/]/)[0] || null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /CrOS/.test(userAgent)
            ? 'ChromeOS'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : null;
  return browser && system ? `${browser} on ${system}` : browser;
}

export async function listSessions(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef,
): Promise<SessionRow[]> {
  const rows = await repo.sessionsOf(ctx.db, user.user_id);
  return rows.map((r) => ({
    id: r.public_id ?? r.session_hash.slice(0, 16),
    current: r.session_hash === session.hash,
    created_at: r.created_at,
    last_seen_at: r.last_seen_at,
    browser: browserOf(r.user_agent),
    ip: r.ip,
  }));
}

/** Ends one of the user's sessions (by its public id), or every other one (`'others'`). */
export async function endSessions(
  ctx: ServiceContext,
  user: SessionUser,
  session: SessionRef,
  which: string,
): Promise<SessionRow[]> {
  await inTransaction(ctx, async (c) => {
    if (which === 'others') {
      const others = await deleteUserSessions(c.trx, user.user_id, session.hash);
      await c.audit({
        action: 'session_ended',
        entity: 'admin_user',
        entityId: user.user_id,
        detail: { others },
      });
    } else {
      if (!(await repo.deleteSessionByPublicId(c.trx, user.user_id, which)))
        throw new HttpError(404, FACTOR_MESSAGES.sessionNotFound);
      await c.audit({
        action: 'session_ended',
        entity: 'admin_user',
        entityId: user.user_id,
        detail: { id: which },
      });
    }
  });
  return listSessions(ctx, user, session);
}
