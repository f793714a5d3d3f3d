import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REAUTH_NEEDED } from '../../contract/auth';
import { storePasswordToken } from '../db/password-token.repo';
import { sameOrigin, signInAs } from '../lib/auth-testing';
import { hashToken } from '../mail/mails';
import { FACTOR_SETUP_REQUIRED } from '../plugins/auth';
import { FACTOR_MESSAGES } from '../services/factors';
import { createOwner } from '../services/owner';
import { createTestApp } from '../testing';

/**
 * Second factors over HTTP (docs/decisions/024-second-factors.md), as a person and as an attacker
 * meet them: the clock is faked (only Date), codes are computed from the secret the setup shows.
 * Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
const PASSWORD = 'a long and unusual passphrase';
const EMAIL = 'owner@example.com';
const START = new Date('2026-11-27T10:00:00.000Z');

const codeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at.getTime(),
  });

describe('second factors', () => {
  let app: FastifyInstance;
  let origin: string;
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: START });
    app = await createTestApp();
    origin = sameOrigin(app);
    // a new install: the owner role requires a second factor
    await createOwner(app.services(), EMAIL, PASSWORD, 'test');
  });
  afterEach(async () => {
    await app.close();
    vi.useRealTimers();
  });

  const cookieOf = (res: LightMyRequestResponse, before = '') => {
    const c = res.cookies.find((k) => k.name === app.sessionCookieName);
    return c ? `${c.name}=${c.value}` : before;
  };
  const call = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, cookie: string, payload?: object) =>
    app.inject({ method, url, headers: { origin, cookie }, ...(payload ? { payload } : {}) });
  const login = (email = EMAIL, password = PASSWORD) =>
    app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin }, payload: { email, password } });
  const advance = (ms: number) => vi.setSystemTime(new Date(Date.now() + ms));
  const audit = async (action: string) =>
    (await app.db.selectFrom('audit_log').select(['action', 'detail']).where('action', '=', action).execute())
      .length;

  /** Signs in (the role requires a factor: setup), adds an authenticator app; answers its secret and codes. */
  async function withAuthenticator() {
    const first = await login();
    expect(first.statusCode).toBe(200);
    const cookie = cookieOf(first);
    expect(first.json()).toMatchObject({ email: EMAIL, factor_setup_required: true });
    const begin = await call('POST', '/api/auth/factors/totp', cookie);
    expect(begin.statusCode).toBe(200);
    const { secret, uri, qr_svg } = begin.json();
    expect(uri).toMatch(/^otpauth:\/\/totp\/Manna:owner%40example\.com\?/);
    expect(qr_svg).toMatch(/^<svg/);
    // the secret is stored sealed, never as it is shown
    const row = await app.db.selectFrom('admin_factor').select('secret').executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret);
    const confirm = await call('POST', '/api/auth/factors/totp/confirm', cookie, {
      code: codeAt(secret, new Date()),
      name: 'My phone',
    });
    expect(confirm.statusCode).toBe(200);
    const { recovery_codes, factors } = confirm.json();
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);
    expect(factors).toMatchObject({
      recovery_left: 10,
      required: true,
      factors: [{ kind: 'totp', name: 'My phone' }],
    });
    return { secret, recoveryCodes: recovery_codes as string[], cookie };
  }

  it('a role that requires a factor: every admin call is refused until one is set up, then allowed', async () => {
    const res = await login();
    const cookie = cookieOf(res);
    const reads = app.accessTable.filter(
      (r) => r.method === 'GET' && r.permission && r.permission !== 'signed-in' && !r.url.includes(':'),
    );
    expect(reads.length).toBeGreaterThan(5);
    for (const r of reads) {
      const answer = await call('GET', r.url, cookie);
      expect([r.url, answer.statusCode, answer.json().message]).toEqual([r.url, 403, FACTOR_SETUP_REQUIRED]);
    }
    expect((await call('GET', '/api/auth/me', cookie)).statusCode).toBe(200);
    const { secret } = (await call('POST', '/api/auth/factors/totp', cookie)).json();
    await call('POST', '/api/auth/factors/totp/confirm', cookie, { code: codeAt(secret, new Date()) });
    for (const r of reads)
      expect([r.url, (await call('GET', r.url, cookie)).statusCode]).not.toEqual([r.url, 403]);
  });

  it('the password alone opens only the second step; a right code signs in, once per code', async () => {
    const { secret } = await withAuthenticator();
    advance(60_000);
    const res = await login();
    expect(res.json()).toEqual({
      second_step: { methods: ['totp', 'recovery'], expires_at: expect.any(String) },
    });
    const pending = cookieOf(res);
    // nothing but the second step: the admin API and "who am I" see nobody signed in
    expect((await call('GET', '/api/admin/users', pending)).statusCode).toBe(401);
    expect((await call('GET', '/api/auth/me', pending)).statusCode).toBe(401);
    const session = (await call('GET', '/api/auth/session', pending)).json();
    expect(session).toMatchObject({ user: null, second_step: { methods: ['totp', 'recovery'] } });

    const wrong = await call('POST', '/api/auth/second-step', pending, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(FACTOR_MESSAGES.wrongCode);
    const code = codeAt(secret, new Date());
    const right = await call('POST', '/api/auth/second-step', pending, { code });
    expect(right.statusCode).toBe(200);
    const signedIn = cookieOf(right);
    expect(signedIn).not.toBe(pending); // a new session id once signed in
    expect((await call('GET', '/api/admin/users', signedIn)).statusCode).toBe(200);

    // the same code again, in the same 30 seconds, from another sign-in: refused
    const again = cookieOf(await login());
    expect((await call('POST', '/api/auth/second-step', again, { code })).statusCode).toBe(400);
    expect(await audit('factor_used')).toBeGreaterThanOrEqual(1);
    expect(await audit('factor_failed')).toBe(2);
  });

  it('one code sent from five half-done sign-ins at once signs in once; one recovery code too', async () => {
    const { secret, recoveryCodes } = await withAuthenticator();
    advance(60_000);
    // the half-done sign-ins one after another (a process checks at most 2 passwords of one email at once)
    const pendings: string[] = [];
    for (let i = 0; i < 5; i++) pendings.push(cookieOf(await login()));
    const code = codeAt(secret, new Date());
    const answers = await Promise.all(
      pendings.map((p) => call('POST', '/api/auth/second-step', p, { code })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400, 400]);
    await app.db.deleteFrom('login_failure').execute();
    const again: string[] = [];
    for (let i = 0; i < 4; i++) again.push(cookieOf(await login()));
    const uses = await Promise.all(
      again.map((p) => call('POST', '/api/auth/second-step', p, { code: recoveryCodes[5] })),
    );
    expect(uses.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400]);
    expect(uses.find((a) => a.statusCode === 200)!.json().recovery_left).toBe(9);
  });

  it('accepts one step of clock drift either way, not two', async () => {
    const { secret } = await withAuthenticator();
    advance(90_000);
    for (const [offset, ok] of [
      [-30_000, true],
      [30_000, true],
      [-60_000, false],
      [60_000, false],
    ] as const) {
      advance(120_000); // a new step each round: codes are not replays of the last
      const pending = cookieOf(await login());
      const code = codeAt(secret, new Date(Date.now() + offset));
      const res = await call('POST', '/api/auth/second-step', pending, { code });
      expect([offset, res.statusCode]).toEqual([offset, ok ? 200 : 400]);
      await app.db.deleteFrom('login_failure').execute();
    }
  });

  it('wrong codes count against the sign-in limits: past them, 429 even for the right code', async () => {
    const { secret } = await withAuthenticator();
    advance(60_000);
    const pending = cookieOf(await login());
    const limit = app.config.RATE_LIMIT_LOGIN_FAILURES;
    for (let i = 0; i < limit; i++)
      expect((await call('POST', '/api/auth/second-step', pending, { code: `12345${i}` })).statusCode).toBe(
        400,
      );
    const res = await call('POST', '/api/auth/second-step', pending, { code: codeAt(secret, new Date()) });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('900');
  });

  it('wrong codes count per account whatever the address: twelve addresses get the limit, no more; after the window the right code works', async () => {
    const { secret } = await withAuthenticator();
    advance(60_000);
    const limit = app.config.RATE_LIMIT_LOGIN_FAILURES;
    const from = (i: number) => `127.0.0.${i + 2}`;
    const fromAddress = (remoteAddress: string, url: string, cookie: string, payload: object) =>
      app.inject({ method: 'POST', url, remoteAddress, headers: { origin, cookie }, payload });
    // twelve clients each pass the password (one after another: two checks of one email at once)
    const pendings: string[] = [];
    for (let i = 0; i < 12; i++)
      pendings.push(
        cookieOf(await fromAddress(from(i), '/api/auth/login', '', { email: EMAIL, password: PASSWORD })),
      );
    // then each sends four wrong codes, all at once: 48 guesses
    const guesses = await Promise.all(
      pendings.flatMap((pending, i) =>
        [0, 1, 2, 3].map((n) =>
          fromAddress(from(i), '/api/auth/second-step', pending, { code: String(100000 + i * 10 + n) }),
        ),
      ),
    );
    const statuses = guesses.map((g) => g.statusCode);
    // at most the limit is checked (on PostgreSQL, parallel reservations can refuse even more)
    const checked = statuses.filter((s) => s === 400).length;
    expect(checked).toBeLessThanOrEqual(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(48 - checked);
    expect(await audit('factor_failed')).toBe(checked);
    // a right password does not clear them: the right code waits for the window to pass
    const fresh = cookieOf(
      await fromAddress('127.0.0.99', '/api/auth/login', '', { email: EMAIL, password: PASSWORD }),
    );
    // (parallel reservations on PostgreSQL may have refused all: the limit is reached one by one)
    for (let n = checked; n < limit; n++)
      expect(
        (await fromAddress('127.0.0.98', '/api/auth/second-step', fresh, { code: String(200000 + n) }))
          .statusCode,
      ).toBe(400);
    const early = await fromAddress('127.0.0.99', '/api/auth/second-step', fresh, {
      code: codeAt(secret, new Date()),
    });
    expect(early.statusCode).toBe(429);
    advance(15 * 60_000 + 1000);
    const later = cookieOf(
      await fromAddress('127.0.0.99', '/api/auth/login', '', { email: EMAIL, password: PASSWORD }),
    );
    const right = await fromAddress('127.0.0.99', '/api/auth/second-step', later, {
      code: codeAt(secret, new Date()),
    });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ email: EMAIL });
  });

  it('wrong passwords from elsewhere slow an account with a factor but never keep its owner out', async () => {
    const { secret, cookie } = await withAuthenticator();
    advance(60_000);
    const limit = app.config.RATE_LIMIT_LOGIN_FAILURES;
    const loginFrom = (remoteAddress: string, password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress,
        headers: { origin },
        payload: { email: EMAIL, password },
      });
    // one address guesses until its own limit refuses it
    for (let i = 0; i < limit; i++)
      expect((await loginFrom('198.51.100.7', `guess ${i}`)).statusCode).toBe(401);
    expect((await loginFrom('198.51.100.7', 'one more guess')).statusCode).toBe(429);
    // another goes on: past the account's limit, its check is held back (1 s) and still answered
    expect((await loginFrom('203.0.113.9', 'yet another guess')).statusCode).toBe(401);
    const held = await app.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'login_failed')
      .orderBy('audit_id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(held.detail))).toMatchObject({ waited_ms: 1000 });
    // the owner, from a third address: the right password (held 2 s) and code sign in
    const pending = await loginFrom('192.0.2.44', PASSWORD);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toMatchObject({ second_step: { methods: ['totp', 'recovery'] } });
    const done = await app.inject({
      method: 'POST',
      url: '/api/auth/second-step',
      remoteAddress: '192.0.2.44',
      headers: { origin, cookie: cookieOf(pending) },
      payload: { code: codeAt(secret, new Date()) },
    });
    expect(done.statusCode).toBe(200);
    // and a signed-in session's fresh proof is not stopped by strangers' guesses either
    const proof = await call('POST', '/api/auth/reauth', cookie, {
      password: PASSWORD,
      code: codeAt(secret, new Date(Date.now() + 30_000)),
    });
    expect(proof.statusCode).toBe(200);
  });

  it('an IPv6 client is one client per /64: new addresses in the block do not escape its limit', async () => {
    const limit = app.config.RATE_LIMIT_LOGIN_FAILURES;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: `2001:db8:5:6::${(i + 1).toString(16)}`,
        headers: { origin },
        payload: { email: `nobody${i}@example.com`, password: 'a guessed password' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(limit).fill(401), 429]);
    const elsewhere = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '2001:db8:5:7::1',
      headers: { origin },
      payload: { email: 'nobody@example.com', password: 'a guessed password' },
    });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('the second step ends 5 minutes after the password', async () => {
    const { secret } = await withAuthenticator();
    const pending = cookieOf(await login());
    advance(5 * 60_000 + 1000);
    const res = await call('POST', '/api/auth/second-step', pending, { code: codeAt(secret, new Date()) });
    expect(res.statusCode).toBe(401);
    expect((await call('GET', '/api/auth/session', pending)).json()).toEqual({ user: null });
  });

  it('recovery codes: each works once, says how many are left; a new set replaces the old', async () => {
    const { recoveryCodes, secret } = await withAuthenticator();
    const use = async (code: string) =>
      call('POST', '/api/auth/second-step', cookieOf(await login()), { code });
    const first = await use(recoveryCodes[0].toUpperCase().replace('-', ' '));
    expect(first.statusCode).toBe(200);
    expect(first.json().recovery_left).toBe(9);
    expect((await use(recoveryCodes[0])).statusCode).toBe(400);
    expect(await audit('recovery_code_used')).toBe(1);
    // stored as keyed hashes, never as they were shown
    const stored = await app.db.selectFrom('recovery_code').select('code_hash').execute();
    expect(stored).toHaveLength(9);
    expect(stored.map((r) => r.code_hash)).not.toContain(recoveryCodes[1]);

    const signedIn = cookieOf(first);
    const renewed = await call('POST', '/api/auth/factors/recovery-codes', signedIn);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().recovery_codes).toHaveLength(10);
    expect((await use(recoveryCodes[1])).statusCode).toBe(400);
    advance(60_000);
    expect((await use(renewed.json().recovery_codes[3])).statusCode).toBe(200);
    expect(secret).toBeTruthy();
  });

  it('a sign-in with a recovery code mails its owner, in their language, with the codes left', async () => {
    await app.close();
    // a mail server that is not there: the notice waits in the outbox, where it is read here
    app = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
    origin = sameOrigin(app);
    await createOwner(app.services(), EMAIL, PASSWORD, 'test');
    const { recoveryCodes, secret } = await withAuthenticator();
    await app.db.updateTable('admin_user').set({ notify_lang: 'de' }).where('email', '=', EMAIL).execute();
    const notices = () =>
      app.db
        .selectFrom('mail_outbox')
        .select(['to_address', 'subject', 'text_body'])
        .where('kind', '=', 'factor-notice')
        .execute();
    const before = (await notices()).length; // the authenticator app's own notice
    const pending = cookieOf(await login());
    const used = await call('POST', '/api/auth/second-step', pending, { code: recoveryCodes[2] });
    expect(used.statusCode).toBe(200);
    const after = await notices();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      to_address: EMAIL,
      subject: 'Bei Ihrem Manna-Konto wurde mit einem Wiederherstellungscode angemeldet',
    });
    expect(after.at(-1)!.text_body).toContain('Verbleibende Wiederherstellungscodes: 9.');
    // a code from the app sends none
    advance(60_000);
    expect(
      (
        await call('POST', '/api/auth/second-step', cookieOf(await login()), {
          code: codeAt(secret, new Date()),
        })
      ).statusCode,
    ).toBe(200);
    expect(await notices()).toHaveLength(before + 1);
  });

  it('a password reset link does not get around the second factor', async () => {
    await withAuthenticator();
    const user = await app.db.selectFrom('admin_user').select('user_id').executeTakeFirstOrThrow();
    const token = 'a-reset-token-of-the-test-0123456789';
    await storePasswordToken(app.db, {
      tokenHash: hashToken(token),
      userId: user.user_id,
      purpose: 'reset',
      expiresAt: new Date(Date.now() + 600_000),
    });
    const newPassword = 'another long passphrase of mine';
    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { origin },
      payload: { token, password: newPassword },
    });
    expect(reset.statusCode).toBe(200);
    const res = await login(EMAIL, newPassword);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('second_step');
    expect((await call('GET', '/api/admin/users', cookieOf(res))).statusCode).toBe(401);
  });

  it('changing factors needs a fresh proof: refused 5 minutes after sign-in, allowed after password and code', async () => {
    const { secret, cookie } = await withAuthenticator();
    advance(5 * 60_000 + 1000);
    const factorId = (await app.db.selectFrom('admin_factor').select('factor_id').executeTakeFirstOrThrow())
      .factor_id;
    const refused = await call('POST', '/api/auth/factors/recovery-codes', cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: REAUTH_NEEDED, codes: { form: 'reauth' } });
    expect((await call('DELETE', `/api/auth/factors/${factorId}`, cookie)).statusCode).toBe(403);

    const noCode = await call('POST', '/api/auth/reauth', cookie, { password: PASSWORD });
    expect(noCode.statusCode).toBe(400);
    const wrongPassword = await call('POST', '/api/auth/reauth', cookie, {
      password: 'not it at all',
      code: codeAt(secret, new Date()),
    });
    expect(wrongPassword.statusCode).toBe(400);
    const proof = await call('POST', '/api/auth/reauth', cookie, {
      password: PASSWORD,
      code: codeAt(secret, new Date()),
    });
    expect(proof.statusCode).toBe(200);
    expect(proof.json().proof_until).toBe(new Date(Date.now() + 5 * 60_000).toISOString());
    // the last factor of a role that requires one stays
    const last = await call('DELETE', `/api/auth/factors/${factorId}`, cookie);
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe(FACTOR_MESSAGES.lastRequired);
  });

  it('the fresh proof is under the sign-in limits: a stolen session cannot try passwords at will', async () => {
    const { secret, cookie } = await withAuthenticator();
    for (let i = 0; i < app.config.RATE_LIMIT_LOGIN_FAILURES; i++) {
      const wrong = await call('POST', '/api/auth/reauth', cookie, {
        password: `guess ${i}`,
        code: '000000',
      });
      expect(wrong.statusCode).toBe(400);
    }
    const limited = await call('POST', '/api/auth/reauth', cookie, {
      password: PASSWORD,
      code: codeAt(secret, new Date(Date.now() + 30_000)),
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('900');
    expect(await audit('login_failed')).toBe(app.config.RATE_LIMIT_LOGIN_FAILURES);
  });

  it('every change that grants power or touches how someone signs in needs a fresh proof; after it, each works', async () => {
    const { secret, cookie } = await withAuthenticator();
    // made while the proof of the factor's setup is fresh
    const made = await call('POST', '/api/admin/users', cookie, {
      email: 'colleague@example.com',
      role: 'editor',
      password: 'another long passphrase',
    });
    expect(made.statusCode).toBe(200);
    const colleague = made.json().user.user_id as number;
    const role = await call('POST', '/api/admin/roles', cookie, { name: 'Reviewers', permissions: [] });
    expect(role.statusCode).toBe(200);
    const roleId = role.json().role.role_id as number;
    advance(5 * 60_000 + 1000); // the proof is stale, the session still signed in
    const changes: [string, 'POST' | 'PATCH' | 'DELETE', string, object?][] = [
      [
        'create an owner',
        'POST',
        '/api/admin/users',
        { email: 'thief@example.com', role: 'owner', password: 'the thief picks this one' },
      ],
      ['promote a colleague', 'PATCH', `/api/admin/users/${colleague}`, { role: 'owner' }],
      ['reset a password', 'POST', `/api/admin/users/${colleague}/reset-password`, {}],
      ['clear factors', 'DELETE', `/api/admin/users/${colleague}/factors`],
      ['make a role', 'POST', '/api/admin/roles', { name: 'Admins two', permissions: ['users.manage'] }],
      [
        'edit a role',
        'PATCH',
        `/api/admin/roles/${roleId}`,
        { name: 'Reviewers', permissions: ['users.manage'], requires_second_factor: true },
      ],
      ['end sessions', 'DELETE', '/api/auth/sessions/others'],
    ];
    const before = {
      users: (await call('GET', '/api/admin/users', cookie)).json(),
      roles: (await call('GET', '/api/admin/roles', cookie)).json(),
    };
    for (const [what, method, url, body] of changes) {
      const res = await call(method, url, cookie, body);
      expect([what, res.statusCode, res.json().codes]).toEqual([what, 403, { form: 'reauth' }]);
    }
    expect((await call('GET', '/api/admin/users', cookie)).json()).toEqual(before.users);
    expect((await call('GET', '/api/admin/roles', cookie)).json()).toEqual(before.roles);
    const proof = await call('POST', '/api/auth/reauth', cookie, {
      password: PASSWORD,
      code: codeAt(secret, new Date(Date.now() + 30_000)),
    });
    expect(proof.statusCode).toBe(200);
    // a change of a versioned record names the version it changes
    const versionOf = async (url: string) => {
      const [, kind, id] = /\/api\/admin\/(users|roles)\/(\d+)$/.exec(url) ?? [];
      if (!kind) return {};
      const rows = (await call('GET', `/api/admin/${kind}`, cookie)).json() as Record<string, number>[];
      const row = rows.find((r) => r[kind === 'users' ? 'user_id' : 'role_id'] === Number(id))!;
      return { 'if-match': `"${row.version}"` };
    };
    for (const [what, method, url, body] of changes) {
      const headers = { origin, cookie, ...(method === 'PATCH' ? await versionOf(url) : {}) };
      const res = await app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
      expect([what, res.statusCode]).toEqual([what, 200]);
    }
  });

  it('adding a factor ends the other sessions; the sessions list shows devices and ends them', async () => {
    const { secret, cookie } = await withAuthenticator();
    const other = async (agent: string) => {
      advance(31_000);
      const pending = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin, 'user-agent': agent },
        payload: { email: EMAIL, password: PASSWORD },
      });
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/second-step',
        headers: { origin, cookie: cookieOf(pending), 'user-agent': agent },
        payload: { code: codeAt(secret, new Date()) },
      });
      expect(res.statusCode).toBe(200);
      return cookieOf(res);
    };
    const phone = await other(
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36',
    );
    const laptop = await other('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Gecko/20100101 Firefox/130.0');
    const list = (await call('GET', '/api/auth/sessions', laptop)).json();
    expect(list).toHaveLength(3);
    expect(list.find((s: { current: boolean }) => s.current)).toMatchObject({ browser: 'Firefox on macOS' });
    const phoneRow = list.find((s: { browser: string }) => s.browser === 'Chrome on Android');
    expect(phoneRow.id).toMatch(/^[A-Za-z0-9_-]{16}$/);

    const ended = await call('DELETE', `/api/auth/sessions/${phoneRow.id}`, laptop);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toHaveLength(2);
    expect((await call('GET', '/api/auth/me', phone)).statusCode).toBe(401);
    // another user's session id is not found for me
    const someone = await signInAs(app, { role: 'editor' });
    const theirs = (await call('GET', '/api/auth/sessions', someone.cookie)).json()[0].id;
    expect((await call('DELETE', `/api/auth/sessions/${theirs}`, laptop)).statusCode).toBe(404);
    expect((await call('GET', '/api/auth/me', someone.cookie)).statusCode).toBe(200);

    const others = await call('DELETE', '/api/auth/sessions/others', laptop);
    expect(others.json()).toHaveLength(1);
    expect((await call('GET', '/api/auth/me', cookie)).statusCode).toBe(401);
    expect((await call('GET', '/api/auth/me', laptop)).statusCode).toBe(200);
    expect(await audit('session_ended')).toBe(2);
  });

  it('an owner clears a colleague’s factors (audited); nobody else, and not their own here', async () => {
    await withAuthenticator();
    const owner = await app.db
      .selectFrom('admin_user')
      .select('user_id')
      .where('email', '=', EMAIL)
      .executeTakeFirstOrThrow();
    const manager = await signInAs(app, { permissions: ['users.manage'] });
    const refused = await call('DELETE', `/api/admin/users/${owner.user_id}/factors`, manager.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(FACTOR_MESSAGES.ownerOnly);

    const other = await signInAs(app, { role: 'owner', keepFactorRule: true });
    // the second owner has no factor yet: their own calls wait for setup
    expect((await call('DELETE', `/api/admin/users/${owner.user_id}/factors`, other.cookie)).statusCode).toBe(
      403,
    );
    await app.db
      .updateTable('admin_role')
      .set({ requires_second_factor: 0 })
      .where('name', '=', 'owner')
      .execute();
    const self = await call('DELETE', `/api/admin/users/${other.userId}/factors`, other.cookie);
    expect([self.statusCode, self.json().message]).toEqual([403, FACTOR_MESSAGES.notYourself]);
    const cleared = await call('DELETE', `/api/admin/users/${owner.user_id}/factors`, other.cookie);
    expect(cleared.statusCode).toBe(200);
    expect(await app.db.selectFrom('admin_factor').select('factor_id').execute()).toHaveLength(0);
    expect(await audit('factors_cleared')).toBe(1);
    // the next sign-in has no second step (the rule is off now) and leads nowhere else
    expect((await login()).json()).toMatchObject({ email: EMAIL, factor_setup_required: false });
  });

  it('malformed passkey answers and codes are refused as bad input, never a 500', async () => {
    const { cookie } = await withAuthenticator();
    const pending = cookieOf(await login());
    const bodies: unknown[] = [
      {},
      { response: 'x' },
      { response: { id: 'not base64!', rawId: 'x', type: 'public-key', response: {} } },
      { response: { id: 'AAAA', rawId: 'AAAA', type: 'password', response: {} } },
      { response: { id: 'A'.repeat(5000), rawId: 'AAAA', type: 'public-key', response: {} } },
      // well-formed but not a passkey of ours: checked, refused
      { response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30' } } },
    ];
    for (const body of bodies) {
      for (const [url, who] of [
        ['/api/auth/passkey', pending],
        ['/api/auth/passkey', ''],
        ['/api/auth/factors/passkey', cookie],
        ['/api/auth/reauth/passkey', cookie],
      ] as const) {
        const res = await call('POST', url, who, body as object);
        expect([url, res.statusCode]).toEqual([url, 400]);
      }
      await app.db.deleteFrom('login_failure').execute();
    }
    for (const code of ['', ' ', 'x'.repeat(41), '12345678901234567890', '\u0000\u0000']) {
      const res = await call('POST', '/api/auth/second-step', pending, { code });
      expect([code, res.statusCode]).toEqual([code, 400]);
    }
  });

  it('a secret sealed under another SECRET is not used: its codes are refused', async () => {
    const { secret } = await withAuthenticator();
    // as after SECRET changed: the sealed value no longer opens
    await app.db.updateTable('admin_factor').set({ secret: 'v1.AAAA.AAAA.AAAA' }).execute();
    advance(60_000);
    const pending = cookieOf(await login());
    const res = await call('POST', '/api/auth/second-step', pending, { code: codeAt(secret, new Date()) });
    expect(res.statusCode).toBe(400);
  });

  it('only an owner decides whether a role requires a factor; built-in roles too', async () => {
    const manager = await signInAs(app, { permissions: ['users.manage', 'blog.manage'] });
    const roles = (await call('GET', '/api/admin/roles', manager.cookie)).json();
    const editor = roles.find((r: { name: string }) => r.name === 'editor');
    expect(roles.find((r: { name: string }) => r.name === 'owner').requires_second_factor).toBe(true);
    expect(editor.requires_second_factor).toBe(false);
    const change = (cookie: string) =>
      app.inject({
        method: 'PATCH',
        url: `/api/admin/roles/${editor.role_id}`,
        headers: { origin, cookie, 'if-match': `"${editor.version}"` },
        payload: { name: 'editor', permissions: ['blog.manage'], requires_second_factor: true },
      });
    expect((await change(manager.cookie)).statusCode).toBe(403);
    const owner = await signInAs(app, { role: 'owner' });
    const ok = await change(owner.cookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().role.requires_second_factor).toBe(true);
    // an editor signed in now is taken to set one up
    const editorUser = await signInAs(app, { role: 'editor', keepFactorRule: true });
    expect((await call('GET', '/api/auth/me', editorUser.cookie)).json().factor_setup_required).toBe(true);
    const blocked = await call('GET', '/api/admin/blog-posts', editorUser.cookie);
    expect([blocked.statusCode, blocked.json().message]).toEqual([403, FACTOR_SETUP_REQUIRED]);
  });
});
