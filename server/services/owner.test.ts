import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countUsers } from '../db/auth.repo';
import { sameOrigin, signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';
import { createAdminCommand, issueSetupToken, prepareAccounts, SETUP_DONE, SETUP_REFUSED } from './owner';

const STRONG = 'Copper kettle on a winter morning';

describe('the first-run setup address', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    app = await createTestApp();
  });
  afterEach(() => app.close());

  const setup = (body: object, origin = sameOrigin(app)) =>
    app.inject({ method: 'POST', url: '/api/auth/setup', headers: { origin }, payload: body });

  it('creates the owner once, signs them in, and tells the sign-in page no account exists before', async () => {
    expect((await app.inject('/api/auth/setup')).json()).toEqual({
      needed: true,
      create_admin: 'npm run create-admin -- --email you@example.com',
    });
    const token = (await issueSetupToken(app.services()))!;
    expect(token).toMatch(/^[\w-]{43}$/);
    const res = await setup({ token, email: ' Owner@Example.com ', password: STRONG });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: 'owner@example.com', role: 'owner' });
    const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await app.inject({ url: '/api/auth/me', headers: { cookie } })).json().email).toBe(
      'owner@example.com',
    );
    expect((await app.inject('/api/auth/setup')).json()).toEqual({ needed: false });
    // used: neither it nor a new one works now that an account exists
    expect((await setup({ token, email: 'second@example.com', password: STRONG })).statusCode).toBe(409);
    expect(await issueSetupToken(app.services())).toBeNull();
    expect(await countUsers(app.db)).toBe(1);
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('entity', '=', 'admin_user')
      .execute();
    expect(audit).toEqual([{ action: 'create', detail: expect.stringContaining('setup address') }]);
  });

  it('a new setup address (a restart) ends the ones printed before', async () => {
    const first = (await issueSetupToken(app.services()))!;
    const second = (await issueSetupToken(app.services()))!;
    const old = await setup({ token: first, email: 'o@example.com', password: STRONG });
    expect(old.statusCode).toBe(404);
    expect(old.json().message).toBe(SETUP_REFUSED);
    expect((await setup({ token: second, email: 'o@example.com', password: STRONG })).statusCode).toBe(200);
  });

  it('refuses a wrong or expired token, a weak password and another site’s page, creating nothing', async () => {
    // a day later it has stopped working
    const old = await issueSetupToken(app.services(), new Date(Date.now() - 25 * 3_600_000));
    const expired = await setup({ token: old, email: 'o@example.com', password: STRONG });
    expect(expired.statusCode).toBe(404);
    const token = (await issueSetupToken(app.services()))!;
    const wrong = await setup({
      token: token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      email: 'o@example.com',
      password: STRONG,
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe(SETUP_REFUSED);
    const weak = await setup({ token, email: 'o@example.com', password: 'password1' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors.password).toBeTruthy();
    expect(
      (await setup({ token, email: 'not-an-email', password: STRONG })).json().errors.email,
    ).toBeTruthy();
    expect(
      (await setup({ token, email: 'o@example.com', password: STRONG }, 'https://evil.example')).statusCode,
    ).toBe(403);
    expect(await countUsers(app.db)).toBe(0);
    // the first token still works (a weak password did not use it up)
    expect((await setup({ token, email: 'o@example.com', password: STRONG })).statusCode).toBe(200);
  });

  it('two setups at the same moment make one owner', async () => {
    const token = (await issueSetupToken(app.services()))!;
    const tokens = [token, token];
    const answers = await Promise.all(
      tokens.map((token, i) => setup({ token, email: `owner${i}@example.com`, password: STRONG })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await countUsers(app.db)).toBe(1);
  });

  it('is never reachable once a user exists', async () => {
    await signInAs(app, { role: 'editor' });
    expect(await issueSetupToken(app.services())).toBeNull();
    expect((await app.inject('/api/auth/setup')).json()).toEqual({ needed: false });
    expect(
      (await setup({ token: 'x'.repeat(43), email: 'o@example.com', password: STRONG })).json().message,
    ).toBe(SETUP_DONE);
  });
});

describe('the command the sign-in page names while no account exists', () => {
  it('is npm from a checkout, and the compiled script in the container image', async () => {
    expect(createAdminCommand('file:///srv/manna/server/routes/auth.ts')).toBe(
      'npm run create-admin -- --email you@example.com',
    );
    expect(createAdminCommand('file:///app/server/routes/auth.js')).toBe(
      'node server/scripts/create-admin.js --email you@example.com',
    );
    const app = await createTestApp();
    try {
      const status = (await app.inject({ method: 'GET', url: '/api/auth/setup' })).json();
      expect(status).toEqual({
        needed: true,
        create_admin: 'npm run create-admin -- --email you@example.com',
      });
    } finally {
      await app.close();
    }
  });
});

describe('REQUIRE_SECOND_FACTOR', () => {
  const rules = async (app: FastifyInstance) =>
    Object.fromEntries(
      (await app.db.selectFrom('admin_role').select(['name', 'requires_second_factor']).execute()).map(
        (r) => [r.name, Number(r.requires_second_factor) === 1],
      ),
    );

  // one install per case: each makes a database and its roles (on PostgreSQL a schema, migrated)
  it.each([
    [undefined, { owner: true, editor: false, recruiter: false }],
    ['', { owner: false, editor: false, recruiter: false }],
    ['Owner, recruiter', { owner: true, editor: false, recruiter: true }],
  ] as const)(
    'names the built-in roles that require a second factor on a new install (%j): owner by default, none when empty',
    async (setting, expected) => {
      const app = await createTestApp(setting === undefined ? {} : { REQUIRE_SECOND_FACTOR: setting });
      try {
        await prepareAccounts(app.services(), {
          ADMIN_EMAIL: 'owner@example.com',
          ADMIN_PASSWORD: 'a long owner passphrase',
        });
        expect([setting, await rules(app)]).toEqual([setting, expected]);
        // without the rule, the owner's password alone signs in
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { origin: new URL(app.config.PUBLIC_URL).origin },
          payload: { email: 'owner@example.com', password: 'a long owner passphrase' },
        });
        expect(login.json().factor_setup_required ?? false).toBe(expected.owner);
      } finally {
        await app.close();
      }
    },
  );

  it('is read once, when the roles are made: a later start with another setting changes nothing', async () => {
    const app = await createTestApp({ REQUIRE_SECOND_FACTOR: '' });
    try {
      await prepareAccounts(app.services(), {});
      const later = {
        ...app.services(),
        config: { ...app.config, REQUIRE_SECOND_FACTOR: ['owner', 'editor'] as const },
      };
      await prepareAccounts(later as never, {});
      expect(await rules(app)).toEqual({ owner: false, editor: false, recruiter: false });
    } finally {
      await app.close();
    }
  });

  it('refuses a role that is not built in', async () => {
    await expect(createTestApp({ REQUIRE_SECOND_FACTOR: 'owner, admins' })).rejects.toThrow(
      /REQUIRE_SECOND_FACTOR.*not admins/,
    );
  });
});
