import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sameOrigin, signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';
import { createOwner } from '../services/owner';
import { MUST_CHANGE_PASSWORD } from '../plugins/auth';
import { EXPIRED_ONE_TIME, INVALID_LOGIN } from '../services/sign-in';

const PASSWORD = 'a long and unusual passphrase';

/** Sign-in as an attacker tries it: many guesses at once, a one-time password kept, an old one. */
describe('sign-in under attack', () => {
  let app: FastifyInstance;
  let origin: string;
  beforeEach(async () => {
    app = await createTestApp();
    origin = sameOrigin(app);
    await createOwner(app.services(), 'owner@example.com', PASSWORD, 'test');
  });
  afterEach(() => app.close());

  const login = (email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin }, payload: { email, password } });

  it('30 parallel wrong guesses for one email from one address: at most the limit are checked, the rest 429', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login('owner@example.com', `wrong guess number ${i}`)),
    );
    const codes = answers.map((a) => a.statusCode);
    // at most the limit checked (on PostgreSQL the parallel reservations can refuse all of them)
    const unauthorized = codes.filter((c) => c === 401).length;
    expect(unauthorized).toBeLessThanOrEqual(app.config.RATE_LIMIT_LOGIN_FAILURES);
    expect(codes.filter((c) => c === 429).length).toBe(30 - unauthorized);
    // every checked guess is on record as a failure: the limit counts them all
    const failures = await app.db
      .selectFrom('login_failure')
      .select('failure_id')
      .where('throttle_key', '=', 'email:owner@example.com')
      .execute();
    expect(failures.length).toBe(unauthorized);
    // one after another, the guesses left up to the limit are checked, and no more
    for (let n = unauthorized; n < app.config.RATE_LIMIT_LOGIN_FAILURES; n++)
      expect((await login('owner@example.com', `one more guess ${n}`)).statusCode).toBe(401);
    expect((await login('owner@example.com', 'past the limit')).statusCode).toBe(429);
  });

  it('30 parallel wrong guesses for 30 emails from one address: the address limit holds', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(`someone-${i}@example.com`, `wrong guess number ${i}`)),
    );
    const codes = answers.map((a) => a.statusCode);
    const unauthorized = codes.filter((c) => c === 401).length;
    // all 30 may even be refused, when every reservation is made before any is counted
    expect(unauthorized).toBeLessThanOrEqual(app.config.RATE_LIMIT_LOGIN_FAILURES);
    expect(codes.filter((c) => c === 429).length).toBe(30 - unauthorized);
  });

  it('a right password among parallel wrong ones does not open more checks than the limit', async () => {
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          login('owner@example.com', i === 11 ? PASSWORD : `guess ${round}-${i}`),
        ),
      );
      const codes = answers.map((a) => a.statusCode);
      expect(codes.every((c) => c === 200 || c === 401 || c === 429)).toBe(true);
      const checked = codes.filter((c) => c !== 429).length;
      expect(checked).toBeLessThanOrEqual(app.config.RATE_LIMIT_LOGIN_FAILURES);
    }
  });

  it('a one-time password allows only who-am-I, changing the password and signing out', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: owner.headers,
      payload: { email: 'new@example.com', role: 'recruiter' },
    });
    const oneTime = created.json().one_time_password as string;
    const res = await login('new@example.com', oneTime);
    expect(res.statusCode).toBe(200);
    const headers = { cookie: `${res.cookies[0].name}=${res.cookies[0].value}`, origin };
    for (const url of [
      '/api/bind-job-applications',
      '/api/admin/contact-messages',
      '/api/admin/job-applications/export.csv',
    ]) {
      const refused = await app.inject({ method: 'GET', url, headers });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().message).toBe(MUST_CHANGE_PASSWORD);
    }
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/auth/session', headers })).json().user.email).toBe(
      'new@example.com',
    );
    const changed = await app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers,
      payload: { current_password: oneTime, new_password: 'my own quiet harbour lantern' },
    });
    expect(changed.statusCode).toBe(200);
    const after = { cookie: `${changed.cookies[0].name}=${changed.cookies[0].value}`, origin };
    expect(
      (await app.inject({ method: 'GET', url: '/api/bind-job-applications', headers: after })).statusCode,
    ).toBe(200);
  });

  it('a one-time password stops working after ONE_TIME_PASSWORD_HOURS', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const before = Date.now();
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: owner.headers,
      payload: { email: 'late@example.com', role: 'editor' },
    });
    const oneTime = created.json().one_time_password as string;
    const row = await app.db
      .selectFrom('admin_user')
      .select('password_expires_at')
      .where('email', '=', 'late@example.com')
      .executeTakeFirstOrThrow();
    const expiresIn = Date.parse(row.password_expires_at!) - before;
    expect(expiresIn).toBeGreaterThan(72 * 3_600_000 - 60_000);
    expect(expiresIn).toBeLessThan(72 * 3_600_000 + 60_000);
    await app.db
      .updateTable('admin_user')
      .set({ password_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('email', '=', 'late@example.com')
      .execute();
    const res = await login('late@example.com', oneTime);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(EXPIRED_ONE_TIME);
    // a wrong password still gets the usual answer
    expect((await login('late@example.com', 'not the password at all')).json().message).toBe(INVALID_LOGIN);
  });

  it('records sign-in, failed sign-in and sign-out in the audit log', async () => {
    await login('owner@example.com', 'a wrong passphrase here');
    const ok = await login('owner@example.com', PASSWORD);
    const headers = { cookie: `${ok.cookies[0].name}=${ok.cookies[0].value}`, origin };
    await app.inject({ method: 'POST', url: '/api/auth/logout', headers });
    const rows = await app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'detail'])
      .where('action', 'like', 'log%')
      .orderBy('audit_id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['login_failed', 'login', 'logout']);
    expect(rows[0].detail).toContain('owner@example.com');
    expect(rows[0].detail).not.toContain('wrong');
    expect(rows[1].actor_email).toBe('owner@example.com');
  });
});
