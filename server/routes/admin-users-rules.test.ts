import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_REFUSED, PERMISSIONS } from '../../contract/auth';
import { readVersionOf, signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

/**
 * Who may change whom, through the API, as an attacker would try it: a custom role holding only
 * users.manage, an editor, a custom role holding every permission, and an owner.
 */
describe('users and roles: nobody takes over the owner', () => {
  let app: FastifyInstance;
  let owner: Awaited<ReturnType<typeof signInAs>>;
  let manager: Awaited<ReturnType<typeof signInAs>>;
  let editor: Awaited<ReturnType<typeof signInAs>>;
  beforeEach(async () => {
    app = await createTestApp();
    owner = await signInAs(app, { role: 'owner' });
    manager = await signInAs(app, { permissions: ['users.manage'] });
    editor = await signInAs(app, { role: 'editor' });
  });
  afterEach(() => app.close());

  type Who = { headers: Record<string, string> };
  const call = async (who: Who, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      // a change to a user or role says the version just read
      headers: method === 'PATCH' ? { ...(await readVersionOf(app, url)), ...who.headers } : who.headers,
      ...(payload ? { payload } : {}),
    });
  const roleId = async (name: string) =>
    ((await call(owner, 'GET', '/api/admin/roles')).json() as { role_id: number; name: string }[]).find(
      (r) => r.name === name,
    )!.role_id;
  const userRole = async (userId: number) =>
    ((await call(owner, 'GET', '/api/admin/users')).json() as { user_id: number; role: string }[]).find(
      (u) => u.user_id === userId,
    )?.role;

  it('a users.manage-only role cannot give itself the owner role or any other', async () => {
    const res = await call(manager, 'PATCH', `/api/admin/users/${manager.userId}`, { role: 'owner' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(ACCESS_REFUSED.self);
    expect(
      (await call(manager, 'PATCH', `/api/admin/users/${manager.userId}`, { role: 'editor' })).statusCode,
    ).toBe(403);
    expect(await userRole(manager.userId)).toMatch(/^test-role-/);
  });

  it('a users.manage-only role cannot make an owner, nor a role or user with permissions it lacks', async () => {
    const asOwner = await call(manager, 'POST', '/api/admin/users', {
      email: 'mine@example.com',
      role: 'owner',
    });
    expect(asOwner.statusCode).toBe(403);
    expect(asOwner.json().message).toBe(ACCESS_REFUSED.ownerOnly);
    const allRole = await call(manager, 'POST', '/api/admin/roles', {
      name: 'Everything',
      permissions: [...PERMISSIONS],
    });
    expect(allRole.statusCode).toBe(403);
    expect(allRole.json().message).toBe(ACCESS_REFUSED.grant);
    expect(
      (await call(manager, 'POST', '/api/admin/users', { email: 'ed@example.com', role: 'editor' }))
        .statusCode,
    ).toBe(403);
    // promoting the editor to the owner role, or to any role with more than it holds
    expect(
      (await call(manager, 'PATCH', `/api/admin/users/${editor.userId}`, { role: 'owner' })).statusCode,
    ).toBe(403);
    expect(
      (await call(manager, 'PATCH', `/api/admin/users/${editor.userId}`, { role: 'recruiter' })).statusCode,
    ).toBe(403);
    // what it holds, it may give
    const ok = await call(manager, 'POST', '/api/admin/roles', {
      name: 'Managers',
      permissions: ['users.manage'],
    });
    expect(ok.statusCode).toBe(200);
    expect(
      (await call(manager, 'POST', '/api/admin/users', { email: 'peer@example.com', role: 'Managers' }))
        .statusCode,
    ).toBe(200);
  });

  it('only an owner resets, disables, demotes or deletes an owner', async () => {
    const everything = (
      await call(owner, 'POST', '/api/admin/roles', { name: 'Everything', permissions: [...PERMISSIONS] })
    ).json().role;
    const strong = await signInAs(app, { permissions: [...PERMISSIONS] });
    expect(everything.permissions).toEqual([...PERMISSIONS]);
    for (const who of [manager, strong]) {
      const reset = await call(who, 'POST', `/api/admin/users/${owner.userId}/reset-password`);
      expect(reset.statusCode).toBe(403);
      expect(reset.json()).not.toHaveProperty('one_time_password');
      expect(reset.json().message).toBe(ACCESS_REFUSED.ownerOnly);
      expect(
        (await call(who, 'PATCH', `/api/admin/users/${owner.userId}`, { disabled: true })).statusCode,
      ).toBe(403);
      expect(
        (await call(who, 'PATCH', `/api/admin/users/${owner.userId}`, { role: 'editor' })).statusCode,
      ).toBe(403);
      expect((await call(who, 'DELETE', `/api/admin/users/${owner.userId}`)).statusCode).toBe(403);
    }
    expect(await userRole(owner.userId)).toBe('owner');
    // the owner still signs in with their own password
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: owner.headers.origin },
      payload: { email: owner.email, password: owner.password },
    });
    expect(login.statusCode).toBe(200);
    // another owner may
    const second = await signInAs(app, { role: 'owner' });
    const reset = await call(second, 'POST', `/api/admin/users/${owner.userId}/reset-password`);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().one_time_password).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('nobody edits the role they hold, nor a role holding permissions they lack', async () => {
    const mine = (await call(owner, 'GET', '/api/admin/roles'))
      .json()
      .find((r: { name: string }) => r.name.startsWith('test-role-'));
    const selfEdit = await call(manager, 'PATCH', `/api/admin/roles/${mine.role_id}`, {
      name: mine.name,
      permissions: [...PERMISSIONS],
    });
    expect(selfEdit.statusCode).toBe(403);
    expect(selfEdit.json().message).toBe(ACCESS_REFUSED.self);
    const writers = (
      await call(owner, 'POST', '/api/admin/roles', {
        name: 'Writers',
        permissions: ['blog.manage', 'audit.read'],
      })
    ).json().role;
    const strip = await call(manager, 'PATCH', `/api/admin/roles/${writers.role_id}`, {
      name: 'Writers',
      permissions: [],
    });
    expect(strip.statusCode).toBe(403);
    expect(strip.json().message).toBe(ACCESS_REFUSED.stronger);
    expect((await call(manager, 'DELETE', `/api/admin/roles/${writers.role_id}`)).statusCode).toBe(403);
    expect(
      (
        await call(owner, 'PATCH', `/api/admin/roles/${writers.role_id}`, {
          name: 'Writers',
          permissions: ['blog.manage'],
        })
      ).statusCode,
    ).toBe(200);
    // the owner role itself is built in: nobody changes it
    expect(
      (
        await call(manager, 'PATCH', `/api/admin/roles/${await roleId('owner')}`, {
          name: 'owner',
          permissions: [],
        })
      ).statusCode,
    ).toBe(409);
  });

  it('nobody disables, resets or deletes their own account through the users screen; an owner neither', async () => {
    for (const who of [owner, manager]) {
      expect(
        (await call(who, 'PATCH', `/api/admin/users/${who.userId}`, { disabled: true })).statusCode,
      ).toBe(403);
      expect(
        (await call(who, 'PATCH', `/api/admin/users/${who.userId}`, { role: 'editor' })).statusCode,
      ).toBe(403);
      expect((await call(who, 'POST', `/api/admin/users/${who.userId}/reset-password`)).statusCode).toBe(403);
      expect((await call(who, 'DELETE', `/api/admin/users/${who.userId}`)).statusCode).toBe(403);
    }
    // the same user answered with their own role unchanged: a no-op is not refused
    expect(
      (await call(owner, 'PATCH', `/api/admin/users/${owner.userId}`, { role: 'owner' })).statusCode,
    ).toBe(200);
  });

  it('an editor is refused every users and roles call', async () => {
    const calls: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, object?][] = [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/roles'],
      ['POST', '/api/admin/users', { email: 'x@example.com', role: 'editor' }],
      ['PATCH', `/api/admin/users/${editor.userId}`, { role: 'owner' }],
      ['POST', `/api/admin/users/${owner.userId}/reset-password`],
      ['POST', '/api/admin/roles', { name: 'Mine', permissions: [...PERMISSIONS] }],
    ];
    for (const [method, url, payload] of calls) {
      expect((await call(editor, method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('an owner manages other users and roles and answers them uncached', async () => {
    const users = await call(owner, 'GET', '/api/admin/users');
    expect(users.headers['cache-control']).toBe('no-store');
    expect((await call(owner, 'GET', '/api/admin/roles')).headers['cache-control']).toBe('no-store');
    expect(
      (await call(owner, 'PATCH', `/api/admin/users/${editor.userId}`, { role: 'recruiter' })).statusCode,
    ).toBe(200);
    expect(
      (await call(owner, 'PATCH', `/api/admin/users/${manager.userId}`, { disabled: true })).statusCode,
    ).toBe(200);
    expect(
      (await call(owner, 'POST', '/api/admin/users', { email: 'o2@example.com', role: 'owner' })).statusCode,
    ).toBe(200);
  });
});
