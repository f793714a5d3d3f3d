import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionUser } from '../../contract/auth';
import { PASSWORD_LINK_MESSAGES as LINK, type NoticePrefsBody } from '../../contract/mail';
import * as repo from '../db/auth.repo';
import { deletePasswordTokens, peekPasswordToken, takePasswordToken } from '../db/password-token.repo';
import { lastChangeOf } from '../db/audit.repo';
import { HttpError } from '../http-error';
import { staleVersion } from '../lib/versions';
import { dummyHash, hashPassword, passwordProblem, verifyPassword } from '../lib/passwords';
import { hashToken, queueFactorNotice, queuePasswordLink } from '../mail/mails';
import { mailLang } from '../mail/templates';
import { inTransaction, mailConfigured, type ServiceContext } from './context';
import { FACTOR_MESSAGES, methodsOf, useCode, usePasskey } from './factors';
import { limitKeys, passwordWait, refuse, release, reserve, windowStart } from './sign-in-limits';

/**
 * Signing in and everything a person does with their own password: the checked sign-in with its
 * limits, sign-out, changing the password, asking for a reset link and using one (or an
 * invitation), and one's notices. Sessions themselves (cookies, ids) are plugins/auth.ts's.
 * docs/decisions/009-security-model.md, "Sign-in".
 */

export { LOGIN_WINDOW_MS, TOO_MANY_LOGINS } from './sign-in-limits';
export const INVALID_LOGIN = 'Invalid email or password.';
export const EXPIRED_ONE_TIME = 'This one-time password has expired. Ask an administrator for a new one.';

/**
 * Checks an email and password from `ip`: 429 past the limits, 401 for a wrong password, an unknown
 * or disabled account (each failure audited) or an expired one-time password. Unknown emails cost
 * one argon2 verification too and get the same answer. The account's failures refuse an account
 * without a second factor past the limit, and only slow one with a factor (`passwordWait`): a
 * guessed password does not open it, and its owner is never kept out. `whileChecking` runs the
 * password's verification (the route caps how many run at once). Answers the account's id.
 */
export async function checkSignIn(
  ctx: ServiceContext,
  {
    email,
    password,
    ip,
    whileChecking = (check) => check(),
  }: {
    email: string;
    password: string;
    ip: string;
    whileChecking?: (check: () => Promise<boolean>) => Promise<boolean>;
  },
): Promise<number> {
  const emailKey = email.slice(0, 254);
  const passwordKey = limitKeys.password(email);
  const now = ctx.now();
  const since = windowStart(now);
  const reservation = await reserve(ctx, [limitKeys.address(ip)], now, [passwordKey]);
  const account = await repo.findLogin(ctx.db, email);
  const guarded = account !== undefined && (await methodsOf(ctx, account.user_id)).length > 0;
  const tried = reservation.counts[passwordKey] ?? 0;
  if (!guarded && tried > ctx.config.RATE_LIMIT_LOGIN_FAILURES) await refuse(ctx, reservation);
  const wait = guarded ? passwordWait(tried, ctx.config.RATE_LIMIT_LOGIN_FAILURES) : 0;
  if (wait > 0) await sleep(wait);
  const ok = await whileChecking(async () =>
    verifyPassword(account?.password_hash ?? (await dummyHash()), password),
  ).catch(async (err: unknown) => {
    await release(ctx, reservation, now); // not checked: not a failure
    throw err;
  });
  if (!account || !ok || Number(account.disabled) === 1) {
    await repo.purgeFailures(ctx.db, since); // the table holds at most the last 15 minutes
    await inTransaction({ ...ctx, actor: null }, (c) =>
      c.audit({
        action: 'login_failed',
        entity: 'admin_user',
        entityId: account?.user_id ?? null,
        detail: { email: emailKey, ip, ...(wait > 0 ? { waited_ms: wait } : {}) },
      }),
    );
    throw new HttpError(401, INVALID_LOGIN);
  }
  const expires = account.password_expires_at;
  if (Number(account.must_change_password) === 1 && expires && Date.parse(expires) < now.getTime()) {
    await release(ctx, reservation, now);
    throw new HttpError(401, EXPIRED_ONE_TIME);
  }
  await release(ctx, reservation, now, [passwordKey]);
  return account.user_id;
}

/** The second step has to be done this soon after the password. */
export const SECOND_STEP_MS = 5 * 60 * 1000;
export const SECOND_STEP_EXPIRED = 'The sign-in took too long. Sign in again with your password.';

/** When the second step of a session started at `createdAt` stops working. */
export const secondStepEnds = (createdAt: string) =>
  new Date(Date.parse(createdAt) + SECOND_STEP_MS).toISOString();

/**
 * What a right password leads to: the second step with these methods (while it lasts), or none
 * (empty) when the account has no second factor.
 */
export async function secondStepOf(ctx: ServiceContext, userId: number) {
  const methods = await methodsOf(ctx, userId);
  return methods.length === 0
    ? null
    : { methods, expires_at: new Date(ctx.now().getTime() + SECOND_STEP_MS).toISOString() };
}

/**
 * The second step of sign-in, after the password: a code from an authenticator app or a recovery
 * code, under the sign-in limits (a wrong code counts as a failed sign-in, audited). Answers what
 * was used (a recovery code says how many are left).
 */
export async function checkSecondStep(
  ctx: ServiceContext,
  { user, code, ip }: { user: { user_id: number; email: string }; code: string; ip: string },
) {
  // wrong codes count against the account whatever the address, until a right one (a right
  // password does not clear them)
  const codesKey = limitKeys.codes(user.user_id);
  const now = ctx.now();
  const reservation = await reserve(ctx, [limitKeys.address(ip), codesKey], now);
  const used = await useCode(ctx, user, code);
  const audit = (action: string, detail: object) =>
    inTransaction({ ...ctx, actor: user }, (c) =>
      c.audit({ action, entity: 'admin_user', entityId: user.user_id, detail: { ip, ...detail } }),
    );
  if (!used) {
    await repo.purgeFailures(ctx.db, windowStart(now));
    await audit('factor_failed', {});
    // 400, not 401: the half-done sign-in still holds, only this code was wrong
    throw new HttpError(400, FACTOR_MESSAGES.wrongCode, { code: FACTOR_MESSAGES.wrongCode });
  }
  await release(ctx, reservation, now, [codesKey]);
  if (used.method === 'recovery') {
    await audit('recovery_code_used', { left: used.left });
    // a recovery code is the way in for someone who has the codes but not the phone: the owner
    // of the account is told, as of a change of factors
    await inTransaction({ ...ctx, actor: user }, async (c) => {
      const lang = await repo.noticeLangOf(c.trx, user.user_id);
      await queueFactorNotice(
        c.trx,
        ctx.config,
        { email: user.email, lang: lang ?? undefined, change: 'recovery', kind: 'recovery', left: used.left },
        c.at,
      );
      c.announce({ type: 'mail.queued' });
    });
  } else await audit('factor_used', { kind: 'totp', name: used.name });
  return used;
}

/**
 * A passkey's answer, for the second step (`userId`: only their passkeys) or on its own (null: any
 * discoverable passkey signs its account in). Under the per-address sign-in limit; answers the
 * account's id, 400 when the passkey is not one of ours or its check fails (audited).
 */
export async function checkPasskey(
  ctx: ServiceContext,
  { response, userId, ip }: { response: unknown; userId: number | null; ip: string },
): Promise<number> {
  const now = ctx.now();
  const reservation = await reserve(ctx, [limitKeys.address(ip)], now);
  const used = await usePasskey(ctx, response, userId);
  const account = used ? await repo.getUser(ctx.db, used.userId) : undefined;
  if (!used || !account || account.disabled) {
    await repo.purgeFailures(ctx.db, windowStart(now));
    await inTransaction({ ...ctx, actor: null }, (c) =>
      c.audit({
        action: 'factor_failed',
        entity: 'admin_user',
        entityId: userId ?? account?.user_id ?? null,
        detail: { kind: 'passkey', ip },
      }),
    );
    throw new HttpError(400, FACTOR_MESSAGES.passkeyFailed, { form: FACTOR_MESSAGES.passkeyFailed });
  }
  await release(ctx, reservation, now);
  await inTransaction({ ...ctx, actor: { user_id: account.user_id, email: account.email } }, (c) =>
    c.audit({
      action: 'factor_used',
      entity: 'admin_user',
      entityId: account.user_id,
      detail: { kind: 'passkey', name: used.name, ip, alone: userId === null },
    }),
  );
  return account.user_id;
}

/** The user a session of `userId` shows, or a 401 when the account is gone. */
/**
 * A password sign-in: the account it opens, and its second step when it has a second factor (the
 * password then only opens that step: docs/decisions/024).
 */
export async function passwordSignIn(ctx: ServiceContext, attempt: Parameters<typeof checkSignIn>[1]) {
  const userId = await checkSignIn(ctx, attempt);
  return { userId, secondStep: await secondStepOf(ctx, userId) };
}

/** A sign-in finished (a session was started for it): the user as the session sees them, recorded. */
export async function signedIn(ctx: ServiceContext, userId: number, ip: string): Promise<SessionUser> {
  const user = await sessionUser(ctx, userId);
  await recordSession({ ...ctx, actor: user }, 'login', { ip });
  return user;
}

export async function sessionUser(ctx: ServiceContext, userId: number): Promise<SessionUser> {
  const user = await repo.sessionUserById(ctx.db, userId);
  if (!user) throw new HttpError(401, INVALID_LOGIN);
  return user;
}

/** Records a sign-in (after the session started) or a sign-out, by the context's actor. */
export async function recordSession(ctx: ServiceContext, action: 'login' | 'logout', detail?: object) {
  if (!ctx.actor) return;
  const userId = ctx.actor.user_id;
  await inTransaction(ctx, (c) => c.audit({ action, entity: 'admin_user', entityId: userId, detail }));
}

/**
 * A signed-in user changes their own password (the current one first); an unused reset link stops
 * working, and every other session of the account ends (`keepSession`: the hash of this one).
 */
export async function changeOwnPassword(
  ctx: ServiceContext,
  user: SessionUser,
  { current, next, keepSession }: { current: string; next: string; keepSession?: string },
): Promise<void> {
  const hash = await repo.passwordHashOf(ctx.db, user.user_id);
  if (!hash || !(await verifyPassword(hash, current))) {
    throw new HttpError(400, 'Current password is incorrect.', {
      current_password: 'Current password is incorrect.',
    });
  }
  const problem = passwordProblem(next, user.email);
  if (problem) throw new HttpError(400, problem, { new_password: problem });
  if (next === current) {
    const same = 'Choose a password different from the current one.';
    throw new HttpError(400, same, { new_password: same });
  }
  const passwordHash = await hashPassword(next);
  await inTransaction(ctx, async (c) => {
    await repo.updateUser(c.trx, user.user_id, {
      passwordHash,
      mustChangePassword: false,
      passwordExpiresAt: null,
    });
    await deletePasswordTokens(c.trx, user.user_id);
    await c.audit({ action: 'password_change', entity: 'admin_user', entityId: user.user_id });
  });
  await repo.deleteUserSessions(ctx.db, user.user_id, keepSession);
}

/**
 * "Forgot password?": mails a single-use reset link to an active account, counted against the
 * sign-in limits (per address and per email). Answers at once, the same whether or not the address
 * has an account: the lookup and the link's writes go on after the answer.
 */
export async function requestResetLink(
  ctx: ServiceContext,
  { email, lang, ip }: { email: string; lang?: string; ip: string },
): Promise<{ message: string }> {
  if (!mailConfigured(ctx)) throw new HttpError(409, LINK.unavailable);
  const now = ctx.now();
  await reserve(ctx, [`reset-${limitKeys.address(ip)}`, `reset-email:${email.slice(0, 254)}`], now);
  void (async () => {
    const account = await repo.findLogin(ctx.db, email);
    if (!account || Number(account.disabled) !== 0) return;
    await inTransaction({ ...ctx, actor: null }, async (c) => {
      await queuePasswordLink(
        c.trx,
        ctx.config,
        { userId: account.user_id, email: account.email, purpose: 'reset', lang },
        now,
      );
      await c.audit({
        action: 'password_link',
        entity: 'admin_user',
        entityId: account.user_id,
        detail: { ip },
      });
      c.announce({ type: 'mail.queued' });
    });
  })().catch((err: unknown) => ctx.log.error({ err }, 'A password link could not be queued'));
  return { message: LINK.sent };
}

/**
 * A reset or invitation link sets the password once (the password rules first, without using the
 * link up); the account's other links and every session end.
 */
export async function resetWithLink(
  ctx: ServiceContext,
  { token, password, ip }: { token: string; password: string; ip: string },
): Promise<{ message: string }> {
  const tokenHash = hashToken(token);
  const link = await peekPasswordToken(ctx.db, tokenHash);
  const user = link && (await repo.getUser(ctx.db, link.user_id));
  if (!link || !user || user.disabled) throw new HttpError(400, LINK.invalid, { form: LINK.invalid });
  const problem = passwordProblem(password, user.email);
  if (problem) throw new HttpError(400, problem, { password: problem });
  const passwordHash = await hashPassword(password);
  await inTransaction({ ...ctx, actor: { user_id: user.user_id, email: user.email } }, async (c) => {
    // used once: of two uses at once, one deletes the row and the other finds it gone
    if (!(await takePasswordToken(c.trx, tokenHash)))
      throw new HttpError(400, LINK.invalid, { form: LINK.invalid });
    // the password is set: the user's other links (an invitation, an older reset) end too
    await deletePasswordTokens(c.trx, user.user_id);
    await repo.updateUser(c.trx, user.user_id, {
      passwordHash,
      mustChangePassword: false,
      passwordExpiresAt: null,
    });
    await repo.deleteUserSessions(c.trx, user.user_id);
    await c.audit({
      action: link.purpose === 'invite' ? 'invitation_accepted' : 'password_reset_link',
      entity: 'admin_user',
      entityId: user.user_id,
      detail: { ip },
    });
  });
  return { message: LINK.done };
}

export const noticesOf = (ctx: ServiceContext, user: SessionUser) => repo.noticePrefsOf(ctx.db, user);

/**
 * Sets which notices the user gets, based on the `version` of the choices their screen shows (409
 * with the choices as they are now when another tab of theirs changed them); refused (403) for a
 * kind their role cannot read.
 */
export async function setNotices(
  ctx: ServiceContext,
  user: SessionUser,
  body: NoticePrefsBody,
  version: number,
) {
  const current = await repo.noticePrefsOf(ctx.db, user);
  const { applications, messages, lang } = body;
  if ((applications && current.applications === null) || (messages && current.messages === null)) {
    throw new HttpError(403, 'Your role cannot read these, so it gets no notices of them.');
  }
  // 409: the choices as they are now, and who changed them (the person, in another tab)
  const stale = async (db: ServiceContext['db']) =>
    staleVersion(
      await repo.noticePrefsOf(db, user),
      await lastChangeOf(db, 'admin_user', user.user_id, 'notices'),
    );
  if (current.version !== version) throw await stale(ctx.db);
  await inTransaction(ctx, async (c) => {
    const saved = await repo.setNoticePrefs(
      c.trx,
      user.user_id,
      { applications, messages, ...(lang === undefined ? {} : { lang: mailLang(lang) }) },
      version,
    );
    if (!saved) throw await stale(c.trx);
    await c.audit({
      action: 'notices',
      entity: 'admin_user',
      entityId: user.user_id,
      detail: { applications, messages },
    });
  });
  return repo.noticePrefsOf(ctx.db, user);
}
