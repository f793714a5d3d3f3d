import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readVersionOf, sameOrigin, signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

describe('users, roles and the audit log', () => {
  let app: FastifyInstance;
  let owner: Awaited<ReturnType<typeof signInAs>>;
  beforeEach(async () => {
    app = await createTestApp();
    owner = await signInAs(app, { role: 'owner' });
  });
  afterEach(() => app.close());

  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers = owner.headers,
  ) =>
    app.inject({
      method,
      url,
      // a change to a user or role says the version just read
      headers: method === 'PATCH' ? { ...(await readVersionOf(app, url)), ...headers } : headers,
      ...(payload ? { payload } : {}),
    });

  it('lists the built-in roles owner, editor and recruiter with their permissions', async () => {
    const roles = (await call('GET', '/api/admin/roles')).json();
    expect(roles.map((r: { name: string }) => r.name)).toEqual(['owner', 'editor', 'recruiter']);
    expect(roles[1].permissions).toEqual(['blog.manage']);
    expect(roles[2].permissions).toEqual([
      'jobs.manage',
      'applications.read',
      'applications.manage',
      'messages.read',
      'messages.manage',
    ]);
  });

  it('creates a user with a one-time password that signs in and must be changed', async () => {
    const res = await call('POST', '/api/admin/users', { email: ' Asha@Example.com ', role: 'recruiter' });
    expect(res.statusCode).toBe(200);
    const { user, one_time_password } = res.json();
    expect(user).toMatchObject({
      email: 'asha@example.com',
      role: 'recruiter',
      must_change_password: true,
      disabled: false,
    });
    expect(one_time_password).toMatch(/^[A-Za-z0-9]{20}$/);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: sameOrigin(app) },
      payload: { email: 'asha@example.com', password: one_time_password },
    });
    expect(login.json()).toMatchObject({ role: 'recruiter', must_change_password: true });
    expect(
      (await call('POST', '/api/admin/users', { email: 'asha@example.com', role: 'editor' })).statusCode,
    ).toBe(409);
    expect(
      (
        await call('POST', '/api/admin/users', {
          email: 'b@example.com',
          role: 'editor',
          password: 'qwerty123456',
        })
      ).json().errors.password,
    ).toMatch(/too common/);
    expect(
      (await call('POST', '/api/admin/users', { email: 'c@example.com', role: 'nope' })).statusCode,
    ).toBe(400);
  });

  it('builds a custom role from permissions, gives it to a user, and that user gets exactly those', async () => {
    const role = (
      await call('POST', '/api/admin/roles', { name: 'Auditor', permissions: ['audit.read'] })
    ).json().role;
    expect(role).toMatchObject({ name: 'Auditor', permissions: ['audit.read'], built_in: false });
    const created = (
      await call('POST', '/api/admin/users', {
        email: 'aud@example.com',
        role: 'Auditor',
        password: 'an auditor passphrase',
      })
    ).json();
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: sameOrigin(app) },
      payload: { email: 'aud@example.com', password: 'an auditor passphrase' },
    });
    const headers = { cookie: `manna_session=${login.cookies[0].value}`, origin: sameOrigin(app) };
    expect((await call('GET', '/api/admin/audit', undefined, headers)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/users', undefined, headers)).statusCode).toBe(403);
    // in use: cannot be deleted; built-in roles cannot change
    expect((await call('DELETE', `/api/admin/roles/${role.role_id}`)).statusCode).toBe(409);
    expect((await call('PATCH', `/api/admin/roles/1`, { name: 'owner', permissions: [] })).statusCode).toBe(
      409,
    );
    expect((await call('DELETE', `/api/admin/users/${created.user.user_id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/admin/roles/${role.role_id}`)).statusCode).toBe(200);
  });

  it('refuses disabling, demoting or deleting yourself', async () => {
    expect((await call('PATCH', `/api/admin/users/${owner.userId}`, { disabled: true })).statusCode).toBe(
      403,
    );
    expect((await call('PATCH', `/api/admin/users/${owner.userId}`, { role: 'editor' })).json().message).toBe(
      'You cannot change your own role, permissions or access here.',
    );
    expect((await call('DELETE', `/api/admin/users/${owner.userId}`)).statusCode).toBe(403);
  });

  it('records every change in the audit log, newest first, with who did it', async () => {
    await call('POST', '/api/admin/roles', { name: 'Writers', permissions: ['blog.manage'] });
    await call('POST', '/api/admin/users', { email: 'w@example.com', role: 'Writers' });
    const rows = (await call('GET', '/api/admin/audit?pagenum=1&pagesize=10'))
      .json()
      .filter((r: { action: string }) => r.action !== 'login');
    expect(rows.map((r: { action: string; entity: string }) => `${r.action} ${r.entity}`)).toEqual([
      'create admin_user',
      'create admin_role',
    ]);
    expect(rows[0]).toMatchObject({ actor_email: owner.email, total_count: 3 });
    expect(rows[0].detail).not.toMatch(/password/i);
  });

  it('changes access and roles on the version read: 428 without it, 409 with the record as it is now', async () => {
    const created = (
      await call('POST', '/api/admin/users', { email: 'versions@example.com', role: 'editor' })
    ).json();
    const id = created.user.user_id;
    expect(created.user.version).toBe(1);
    const raw = (payload: object, version?: number, url = `/api/admin/users/${id}`) =>
      app.inject({
        method: 'PATCH',
        url,
        headers: version === undefined ? owner.headers : { ...owner.headers, 'if-match': `"${version}"` },
        payload,
      });
    expect((await raw({ role: 'recruiter' })).statusCode).toBe(428);
    expect((await raw({ role: 'recruiter' }, 1)).json().user).toMatchObject({
      role: 'recruiter',
      version: 2,
    });
    // a colleague's screen, read before that change, disables them
    const late = await raw({ disabled: true }, 1);
    expect(late.statusCode).toBe(409);
    expect(late.json().current).toMatchObject({
      user_id: id,
      role: 'recruiter',
      disabled: false,
      version: 2,
    });
    expect(late.json().changed_by).toMatch(/@/);

    const role = (
      await call('POST', '/api/admin/roles', { name: 'Versioned', permissions: ['blog.manage'] })
    ).json().role;
    const roleUrl = `/api/admin/roles/${role.role_id}`;
    expect((await raw({ name: 'Versioned', permissions: [] }, undefined, roleUrl)).statusCode).toBe(428);
    expect((await raw({ name: 'Renamed', permissions: ['blog.manage'] }, 1, roleUrl)).statusCode).toBe(200);
    const stale = await raw({ name: 'Versioned', permissions: ['jobs.manage'] }, 1, roleUrl);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ name: 'Renamed', permissions: ['blog.manage'], version: 2 });
  });
});
