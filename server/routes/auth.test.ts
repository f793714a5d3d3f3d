import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing';
import { readVersionOf, sameOrigin, signInAs } from '../lib/auth-testing';
import { createOwner } from '../services/owner';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, hashSessionId } from '../plugins/auth';
import { prepareAccounts } from '../services/owner';

const PASSWORD = 'a long and unusual passphrase';

describe('sign-in', () => {
  let app: FastifyInstance;
  let origin: string;
  beforeEach(async () => {
    app = await createTestApp({ TRUST_PROXY: 'true' }); // so X-Forwarded-For sets the client address
    origin = sameOrigin(app);
    await createOwner(app.services(), 'Owner@Example.com', PASSWORD, 'test');
  });
  afterEach(() => app.close());

  const login = (email: string, password: string, extra: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin, ...extra },
      payload: { email, password },
    });

  it('signs in with the right password and sets an HttpOnly, SameSite=Strict session cookie', async () => {
    const res = await login('owner@example.com', PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email: 'owner@example.com',
      role: 'owner',
      must_change_password: false,
    });
    expect(res.json().permissions).toContain('users.manage');
    const cookie = res.cookies[0];
    expect(cookie.name).toBe('manna_session');
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    expect(cookie.path).toBe('/');
    expect(cookie.value.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    // the database keeps only the hash of the id
    const stored = await app.db.selectFrom('admin_session').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].session_hash).toBe(hashSessionId(cookie.value));
    expect(stored[0].session_hash).not.toContain(cookie.value);

    const me = await app.inject({
      url: '/api/auth/me',
      headers: { cookie: `manna_session=${cookie.value}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('owner@example.com');
  });

  it('answers unknown emails and wrong passwords the same way', async () => {
    const wrong = await login('owner@example.com', 'not the password at all');
    const unknown = await login('nobody@example.com', PASSWORD);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Invalid email or password.');
    expect(wrong.cookies).toHaveLength(0);
  });

  it('throttles the 6th failure within 15 minutes per account, even from another address', async () => {
    for (let i = 1; i <= 5; i++) {
      expect(
        (await login('owner@example.com', `wrong password ${i}`, { 'x-forwarded-for': `10.0.0.${i}` }))
          .statusCode,
      ).toBe(401);
    }
    const sixth = await login('owner@example.com', 'wrong password 6');
    expect(sixth.statusCode).toBe(429);
    // the right password does not get through the throttle either
    expect((await login('owner@example.com', PASSWORD)).statusCode).toBe(429);
    // fifteen minutes later the failures have aged out
    await app.db
      .updateTable('login_failure')
      .set({ at: new Date(Date.now() - 16 * 60 * 1000).toISOString() })
      .execute();
    expect((await login('owner@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('throttles per address across accounts', async () => {
    for (let i = 1; i <= 5; i++)
      expect((await login(`someone${i}@example.com`, 'whatever it is')).statusCode).toBe(401);
    expect((await login('owner@example.com', PASSWORD)).statusCode).toBe(429);
  });

  it('renews the session id at every sign-in and ends it at sign-out', async () => {
    const first = (await login('owner@example.com', PASSWORD)).cookies[0].value;
    const second = await login('owner@example.com', PASSWORD, { cookie: `manna_session=${first}` });
    const secondId = second.cookies[0].value;
    expect(secondId).not.toBe(first);
    // the old id no longer works
    expect(
      (await app.inject({ url: '/api/auth/me', headers: { cookie: `manna_session=${first}` } })).statusCode,
    ).toBe(401);
    const out = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin, cookie: `manna_session=${secondId}` },
    });
    expect(out.statusCode).toBe(200);
    expect(out.cookies[0]).toMatchObject({ name: 'manna_session', value: '' });
    // a shared device drops its HTTP cache of the site; Cache Storage (the public offline copy) stays
    expect(out.headers['clear-site-data']).toBe('"cache"');
    expect(
      (await app.inject({ url: '/api/auth/me', headers: { cookie: `manna_session=${secondId}` } }))
        .statusCode,
    ).toBe(401);
  });

  it('ends a session after 8 hours idle and 7 days after sign-in', async () => {
    const id = (await login('owner@example.com', PASSWORD)).cookies[0].value;
    const me = () => app.inject({ url: '/api/auth/me', headers: { cookie: `manna_session=${id}` } });
    const hash = hashSessionId(id);
    await app.db
      .updateTable('admin_session')
      .set({ last_seen_at: new Date(Date.now() - SESSION_IDLE_MS + 60_000).toISOString() })
      .where('session_hash', '=', hash)
      .execute();
    expect((await me()).statusCode).toBe(200); // 7 h 59 min idle: still on, and touched again
    await app.db
      .updateTable('admin_session')
      .set({ last_seen_at: new Date(Date.now() - SESSION_IDLE_MS - 1000).toISOString() })
      .where('session_hash', '=', hash)
      .execute();
    expect((await me()).statusCode).toBe(401);

    const id2 = (await login('owner@example.com', PASSWORD)).cookies[0].value;
    await app.db
      .updateTable('admin_session')
      .set({ created_at: new Date(Date.now() - SESSION_ABSOLUTE_MS - 1000).toISOString() })
      .where('session_hash', '=', hashSessionId(id2))
      .execute();
    expect(
      (await app.inject({ url: '/api/auth/me', headers: { cookie: `manna_session=${id2}` } })).statusCode,
    ).toBe(401);
  });

  it('refuses a sign-in and admin changes from another origin (CSRF)', async () => {
    expect((await login('owner@example.com', PASSWORD, { origin: 'https://evil.example' })).statusCode).toBe(
      403,
    );
    const { cookie } = await signInAs(app, { role: 'owner' });
    const payload = { email: 'new@example.com', role: 'editor' };
    const evil = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie, origin: 'https://evil.example' },
      payload,
    });
    expect(evil.statusCode).toBe(403);
    const none = await app.inject({ method: 'POST', url: '/api/admin/users', headers: { cookie }, payload });
    expect(none.statusCode).toBe(403);
    const header = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie, 'x-manna-csrf': '1' },
      payload,
    });
    expect(header.statusCode).toBe(200);
    // reads need no Origin
    expect((await app.inject({ url: '/api/admin/users', headers: { cookie } })).statusCode).toBe(200);
  });

  it('a disabled user cannot sign in and loses their sessions', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const editor = await signInAs(app, { role: 'editor' });
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${editor.userId}`,
      headers: { ...owner.headers, ...(await readVersionOf(app, `/api/admin/users/${editor.userId}`)) },
      payload: { disabled: true },
    });
    expect(res.statusCode).toBe(200);
    expect((await app.inject({ url: '/api/auth/me', headers: { cookie: editor.cookie } })).statusCode).toBe(
      401,
    );
    expect((await login(editor.email, editor.password)).statusCode).toBe(401);
  });

  it('a user changes their own password; the old one stops working', async () => {
    const user = await signInAs(app, { role: 'recruiter' });
    const change = (current_password: string, new_password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: user.headers,
        payload: { current_password, new_password },
      });
    expect((await change('wrong', 'another fine passphrase')).json().errors.current_password).toBe(
      'Current password is incorrect.',
    );
    expect((await change(user.password, 'short')).json().errors.new_password).toBe(
      'Password must be at least 12 characters long.',
    );
    expect((await change(user.password, 'password1234')).json().errors.new_password).toMatch(/too common/);
    const ok = await change(user.password, 'another fine passphrase');
    expect(ok.statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, 'another fine passphrase')).statusCode).toBe(200);
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'password_change')
      .execute();
    expect(audit).toHaveLength(1);
  });
});

describe('first owner account', () => {
  it('ADMIN_EMAIL and ADMIN_PASSWORD create an owner only when there is no user', async () => {
    const app = await createTestApp();
    try {
      const settings = { ADMIN_EMAIL: 'first@example.com', ADMIN_PASSWORD: PASSWORD };
      expect(await prepareAccounts(app.services(), settings)).toEqual({
        created: true,
        email: 'first@example.com',
      });
      expect(
        await prepareAccounts(app.services(), { ...settings, ADMIN_EMAIL: 'second@example.com' }),
      ).toEqual({
        created: false,
        // set while accounts exist: the start warns that it stays in the environment
        passwordLeftSet: true,
      });
      const users = await app.db.selectFrom('admin_user').select('email').execute();
      expect(users).toEqual([{ email: 'first@example.com' }]);
      await expect(prepareAccounts(app.services(), {})).resolves.toEqual({ created: false });
    } finally {
      await app.close();
    }
  });

  it('refuses a weak ADMIN_PASSWORD with the reason', async () => {
    const app = await createTestApp();
    try {
      await expect(
        prepareAccounts(app.services(), { ADMIN_EMAIL: 'a@example.com', ADMIN_PASSWORD: 'password123456' }),
      ).rejects.toThrow(/too common/);
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/auth/session', () => {
  it('answers 200 with the user or null', async () => {
    const app = await createTestApp();
    try {
      expect((await app.inject({ url: '/api/auth/session' })).json()).toEqual({ user: null });
      const { cookie } = await signInAs(app, { role: 'editor' });
      const res = await app.inject({ url: '/api/auth/session', headers: { cookie } });
      expect(res.json().user).toMatchObject({ role: 'editor', permissions: ['blog.manage'] });
    } finally {
      await app.close();
    }
  });
});
