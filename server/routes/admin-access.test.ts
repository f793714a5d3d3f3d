import type { FastifyInstance, InjectOptions } from 'fastify';
import { listRevisions, recordRevision } from '../db/revisions.repo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission } from '../../contract/auth';
import { createRole, createUser, ensureBuiltInRoles } from '../db/auth.repo';
import { addApplication, addOpening } from '../db/application-list.testing';
import { insertContactMessage } from '../db/contact.repo';
import { ensureJobType } from '../db/jobs.repo';
import { insertEndpoint } from '../db/webhooks.repo';
import { seal } from '../lib/secret-box';
import { sameOrigin, signInAs } from '../lib/auth-testing';
import type { RouteAccess } from '../plugins/auth';
import { createTestApp, injectStart } from '../testing';

/**
 * Every admin endpoint of the product, read from the Fastify route table (`app.accessTable`, filled
 * from each route's `config.permission`), is called signed out (401), signed in without its
 * permission (403) and with exactly that permission (2xx). A route of a later issue is picked
 * up by itself: GETs are checked for 2xx with no query; a write gets a 2xx check once it has a
 * sample request in SAMPLES below, and until then must at least get past the permission check
 * without a 5xx. An /api/admin route that declares no permission fails the first test.
 */

type Sample = (app: FastifyInstance) => Promise<Pick<InjectOptions, 'payload' | 'url' | 'headers'>>;

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

/**
 * A user whose role holds no permission: one that a caller holding exactly users.manage may
 * change (nobody touches a user holding more than they do; routes/admin-users-rules.test.ts).
 */
/** A webhook endpoint (a public address by number: no name to resolve). */
const someEndpoint = (app: FastifyInstance) =>
  insertEndpoint(app.db, {
    url: 'https://93.184.216.34/in',
    description: '',
    events: 'post.published',
    enabled: 1,
    secret: seal(app.config.SECRET, 'webhook', 'whsec_c2VjcmV0LW9mLXRoZS10ZXN0LWVuZHBvaW50'),
    created_at: new Date().toISOString(),
  });
const WEBHOOK = { url: 'https://93.184.216.34/in', events: ['post.published'] };

async function someUser(app: FastifyInstance) {
  await ensureBuiltInRoles(app.db);
  return createUser(app.db, {
    email: `${unique('target')}@example.test`,
    passwordHash: 'not-a-real-hash',
    roleId: await createRole(app.db, unique('Plain'), []),
    mustChangePassword: false,
  });
}

const someApplication = async (app: FastifyInstance) =>
  addApplication(app, {
    jobId: await addOpening(app, 'Copy Editor'),
    name: 'Asha Menon',
    email: `${unique('asha')}@example.com`,
    at: new Date(),
  });

/** A revision of record 1 of that kind (the History view reads it); answers its id. */
const someRevision = async (app: FastifyInstance, entity: 'blog_post' | 'job_opening') => {
  await recordRevision(
    app.db,
    { entity, entityId: 1, version: 1, fields: { title: 'A title' }, changed: ['title'] },
    null,
    new Date(),
    50,
  );
  const [row] = await listRevisions(app.db, entity, 1);
  return row.revision_id;
};

const jobFields = async (app: FastifyInstance) => ({
  job_title: 'Copy Editor',
  department: 'Editorial',
  location: 'Kochi, India',
  job_type_id: (await ensureJobType(app.db, 'Full-time')).job_type_id,
  description: '<p>Edit manuscripts for clarity and style.</p>',
  requirement: '<ul><li>Three years of copy editing</li></ul>',
  about_role: '<p>You will work with journal editors.</p>',
  responsibility: '<ul><li>Copy edit accepted papers</li></ul>',
});

let n = 0;
const someMessage = (app: FastifyInstance) =>
  insertContactMessage(app.db, {
    name: 'Sam',
    email: 'sam@example.com',
    company: '',
    message: 'Hi',
    lang: 'en',
    idempotency_key: null,
  });

/** Valid requests for writes (and reads that need an existing record). Key: 'METHOD url'. */
const SAMPLES: Record<string, Sample> = {
  'POST /api/admin/webhooks': async () => ({ payload: WEBHOOK }),
  'PATCH /api/admin/webhooks/:id': async (app) => ({
    url: `/api/admin/webhooks/${await someEndpoint(app)}`,
    payload: WEBHOOK,
    headers: { 'if-match': '"1"' },
  }),
  'DELETE /api/admin/webhooks/:id': async (app) => ({ url: `/api/admin/webhooks/${await someEndpoint(app)}` }),
  'GET /api/admin/webhooks/:id/deliveries': async (app) => ({
    url: `/api/admin/webhooks/${await someEndpoint(app)}/deliveries`,
  }),
  'POST /api/admin/webhooks/:id/test': async (app) => ({
    url: `/api/admin/webhooks/${await someEndpoint(app)}/test`,
    payload: {},
  }),
  'GET /api/admin/insights': async () => ({ url: '/api/admin/insights?from=2026-11-01&to=2026-11-07' }),
  'GET /api/admin/insights.csv': async () => ({
    url: '/api/admin/insights.csv?from=2026-11-01&to=2026-11-07&table=pages',
  }),
  'POST /api/admin/users': async (app) => {
    const role = unique('Plain');
    await createRole(app.db, role, []);
    return { payload: { email: `${unique('new')}@example.test`, role } };
  },
  'PATCH /api/admin/users/:id': async (app) => {
    const role = unique('Plain');
    await createRole(app.db, role, ['users.manage']);
    return {
      url: `/api/admin/users/${await someUser(app)}`,
      payload: { role },
      headers: { 'if-match': '"1"' },
    };
  },
  'DELETE /api/admin/users/:id': async (app) => ({ url: `/api/admin/users/${await someUser(app)}` }),
  'POST /api/admin/users/:id/reset-password': async (app) => ({
    url: `/api/admin/users/${await someUser(app)}/reset-password`,
  }),
  'POST /api/admin/roles': async () => ({ payload: { name: unique('Role'), permissions: ['users.manage'] } }),
  'PATCH /api/admin/roles/:id': async (app) => ({
    url: `/api/admin/roles/${await createRole(app.db, unique('Role'), [])}`,
    payload: { name: unique('Renamed'), permissions: ['users.manage'] },
    headers: { 'if-match': '"1"' },
  }),
  'DELETE /api/admin/roles/:id': async (app) => ({
    url: `/api/admin/roles/${await createRole(app.db, unique('Role'), [])}`,
  }),
  'POST /api/manage-job-openings': async (app) => ({
    payload: { mode: 1, job_id: 0, ...(await jobFields(app)) },
  }),
  'POST /api/admin/job-applications/:application_id/status': async (app) => ({
    url: `/api/admin/job-applications/${(await someApplication(app)).application_id}/status`,
    payload: { status: 'Reviewed' },
    headers: { 'if-match': '"1"' },
  }),
  'GET /api/admin/revisions/blog_post/:id/:revision_id': async (app) => ({
    url: `/api/admin/revisions/blog_post/1/${await someRevision(app, 'blog_post')}`,
  }),
  'GET /api/admin/revisions/job_opening/:id/:revision_id': async (app) => ({
    url: `/api/admin/revisions/job_opening/1/${await someRevision(app, 'job_opening')}`,
  }),
  'PATCH /api/admin/job-openings/:id': async (app) => ({
    url: `/api/admin/job-openings/${await addOpening(app, 'Copy Editor')}`,
    payload: { status: 'Closed' },
    headers: { 'if-match': '"1"' },
  }),
  'DELETE /api/admin/job-applications/:application_id': async (app) => ({
    url: `/api/admin/job-applications/${(await someApplication(app)).application_id}`,
  }),
  'GET /api/admin/job-applications/:application_id/timeline': async (app) => ({
    url: `/api/admin/job-applications/${(await someApplication(app)).application_id}/timeline`,
  }),
  'POST /api/admin/job-applications/:application_id/notes': async (app) => ({
    url: `/api/admin/job-applications/${(await someApplication(app)).application_id}/notes`,
    payload: { text: 'A note' },
  }),
  'POST /api/admin/job-applications/:application_id/mails': async (app) => ({
    url: `/api/admin/job-applications/${(await someApplication(app)).application_id}/mails`,
    payload: { subject: 'Hello {{name}}', body: 'Dear {{name}}', lang: 'en', template: 'blank' },
  }),
  'PUT /api/admin/candidate-mail-templates/:template/:lang': async () => ({
    url: `/api/admin/candidate-mail-templates/next/${['en', 'de', 'fr', 'es', 'ml'][n++ % 5]}`,
    payload: { subject: 'Next: {{job}}', body: 'Dear {{name}}' },
    headers: { 'if-match': '"1"' },
  }),
  'GET /api/admin/contact-messages/:message_id/timeline': async (app) => ({
    url: `/api/admin/contact-messages/${await someMessage(app)}/timeline`,
  }),
  'POST /api/admin/contact-messages/:message_id/replies': async (app) => ({
    url: `/api/admin/contact-messages/${await someMessage(app)}/replies`,
    payload: { text: 'Thank you' },
  }),
  'PUT /api/admin/contact-messages/:message_id/assignee': async (app) => ({
    url: `/api/admin/contact-messages/${await someMessage(app)}/assignee`,
    payload: { user_id: null },
    headers: { 'if-match': '"1"' },
  }),
  'PATCH /api/admin/contact-messages/:message_id': async (app) => ({
    url: `/api/admin/contact-messages/${await insertContactMessage(app.db, { name: 'Sam', email: 'sam@example.com', company: '', message: 'Hi', lang: 'en', idempotency_key: null })}`,
    payload: { handled: true },
    headers: { 'if-match': '"1"' },
  }),
};

describe('every admin endpoint checks its permission', () => {
  let app: FastifyInstance;
  let origin: string;
  let routes: { method: string; url: string; permission: RouteAccess | null }[];
  beforeAll(async () => {
    app = await createTestApp();
    origin = sameOrigin(app);
    routes = app.accessTable.filter((r) => r.permission !== null || r.url.startsWith('/api/admin'));
  });
  afterAll(() => app.close());

  it('finds the admin endpoints in the route table, each with a permission', () => {
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /api/admin/users',
        'POST /api/manage-job-openings',
        'GET /api/admin/audit',
      ]),
    );
    const undeclared = routes.filter((r) => r.permission === null).map((r) => `${r.method} ${r.url}`);
    expect(undeclared, 'admin routes without config.permission').toEqual([]);
    for (const r of routes) expect([...PERMISSIONS, 'signed-in']).toContain(r.permission);
  });

  const request = async (route: { method: string; url: string }, headers: Record<string, string>) => {
    const key = `${route.method} ${route.url}`;
    const sample = SAMPLES[key] ? await SAMPLES[key](app) : {};
    // path parameters without a sample get an id that exists nowhere
    const url = sample.url ?? route.url.replace(/:[A-Za-z_]+/g, '999999');
    return injectStart(app, {
      method: route.method as InjectOptions['method'],
      url,
      headers: { origin, ...(sample.headers as Record<string, string> | undefined), ...headers },
      ...(sample.payload !== undefined ? { payload: sample.payload as InjectOptions['payload'] } : {}),
    });
  };

  it('answers 401 to a signed-out caller on every admin endpoint', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const res = await request(route, {});
      if (res.statusCode !== 401) failures.push(`${route.method} ${route.url}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers 403 to a signed-in caller without the permission', async () => {
    const failures: string[] = [];
    const without = new Map<Permission, Record<string, string>>();
    for (const route of routes) {
      if (route.permission === null || route.permission === 'signed-in') continue;
      const permission = route.permission;
      if (!without.has(permission)) {
        const { cookie } = await signInAs(app, { permissions: PERMISSIONS.filter((p) => p !== permission) });
        without.set(permission, { cookie });
      }
      const res = await request(route, without.get(permission)!);
      if (res.statusCode !== 403) failures.push(`${route.method} ${route.url}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('lets a caller with exactly the permission through (2xx where a valid request is known)', async () => {
    const failures: string[] = [];
    const unsampled: string[] = [];
    const holders = new Map<string, Awaited<ReturnType<typeof signInAs>>>();
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      // one user per permission (the password change gets its own, since it changes the password)
      const holderKey = key === 'POST /api/auth/password' ? key : String(route.permission);
      if (!holders.has(holderKey)) {
        const permission = route.permission;
        holders.set(
          holderKey,
          await signInAs(app, {
            permissions: permission === 'signed-in' || permission === null ? [] : [permission],
          }),
        );
      }
      const user = holders.get(holderKey)!;
      const headers: Record<string, string> = { cookie: user.cookie };
      let res;
      if (key === 'POST /api/auth/password') {
        res = await app.inject({
          method: 'POST',
          url: route.url,
          headers: { origin, ...headers },
          payload: { current_password: user.password, new_password: 'a brand new unusual passphrase' },
        });
      } else {
        res = await request(route, headers);
      }
      const checkable =
        route.method === 'GET' || SAMPLES[key] !== undefined || key === 'POST /api/auth/password';
      if (
        checkable
          ? res.statusCode < 200 || res.statusCode > 299
          : [401, 403].includes(res.statusCode) || res.statusCode >= 500
      ) {
        failures.push(`${key}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      if (!checkable) unsampled.push(key);
    }
    expect(failures).toEqual([]);
    if (unsampled.length)
      console.info(
        `Admin writes without a sample request (checked for no 401/403/5xx only): ${unsampled.join(', ')}`,
      );
  }, 120_000);
});
