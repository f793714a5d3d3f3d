import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

/** A person's notice choices (GET/PATCH /api/auth/notices) carry a version (docs/decisions/022). */
describe('notice choices', () => {
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signInAs>>;
  beforeEach(async () => {
    app = await createTestApp();
    me = await signInAs(app, { role: 'owner' });
  });
  afterEach(() => app.close());
  const versionOfUser = async () =>
    (
      await app.db
        .selectFrom('admin_user')
        .select('version')
        .where('user_id', '=', me.userId)
        .executeTakeFirstOrThrow()
    ).version;

  const read = async () => (await app.inject({ url: '/api/auth/notices', headers: me.headers })).json();
  const change = (payload: object, version?: number) =>
    app.inject({
      method: 'PATCH',
      url: '/api/auth/notices',
      headers: version === undefined ? me.headers : { ...me.headers, 'if-match': `"${version}"` },
      payload,
    });

  it('says its version (a field and an ETag); a change must name it (428 without) and counts it on', async () => {
    expect(await read()).toEqual({ applications: 'each', messages: 'each', version: 1 });
    expect((await app.inject({ url: '/api/auth/notices', headers: me.headers })).headers.etag).toBe('"1"');
    expect((await change({ applications: 'digest' })).statusCode).toBe(428);
    const saved = await change({ applications: 'digest' }, 1);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ applications: 'digest', messages: 'each', version: 2 });
    expect(saved.headers.etag).toBe('"2"');
  });

  it('refuses a choice made on a stale screen (another tab) with 409 and the choices as they are now', async () => {
    await change({ messages: 'off' }, 1);
    const late = await change({ applications: 'off' }, 1);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      current: { applications: 'each', messages: 'off', version: 2 },
      changed_by: me.email,
    });
    expect(await read()).toMatchObject({ applications: 'each', messages: 'off' });
  });

  it('of two changes of the same version at once, one is saved and one gets 409', async () => {
    const answers = await Promise.all([change({ messages: 'digest' }, 1), change({ messages: 'off' }, 1)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await read()).version).toBe(2);
  });

  it('names who changed the choices, not who last changed the account (an owner giving another role)', async () => {
    await change({ messages: 'off' }, 1);
    const owner = await signInAs(app, { role: 'owner' });
    const role = await app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${me.userId}`,
      headers: { ...owner.headers, 'if-match': `"${await versionOfUser()}"` },
      payload: { role: 'recruiter' },
    });
    expect(role.statusCode, role.body).toBe(200);
    const late = await change({ applications: 'off' }, 1);
    expect(late.statusCode).toBe(409);
    expect(late.json().changed_by).toBe(me.email);
  });

  it('an empty change is no error: it answers the choices as they are', async () => {
    const empty = await change({}, 1);
    expect(empty.statusCode).toBe(200);
    expect(empty.json().version).toBe(1);
    expect((await change({}, 7)).statusCode).toBe(409);
  });

  it('a change of the language alone counts no version', async () => {
    expect((await change({ lang: 'de' }, 1)).statusCode).toBe(200);
    expect((await read()).version).toBe(1);
  });
});
