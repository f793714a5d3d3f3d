import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { multipart } from '../../tests/fixtures/multipart';
import { countActiveUserManagers, deleteUser } from '../db/auth.repo';
import { addApplication, addOpening } from '../db/application-list.testing';
import { readVersionOf, signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

/**
 * The same change sent at the same moment, as two admins (or one impatient one) would: the rules
 * hold, nothing answers 500, and the audit log has one row per change that really happened. Runs
 * on SQLite and, with TEST_DATABASE_URL, on PostgreSQL, where transactions really overlap.
 */
type Who = { headers: Record<string, string> };
const ROUNDS = 12;

describe('changes at the same moment', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    app = await createTestApp();
  });
  afterEach(() => app.close());

  const call = async (
    who: Who,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    version?: number,
  ) =>
    app.inject({
      method,
      url,
      headers:
        version !== undefined
          ? { ...who.headers, 'if-match': `"${version}"` }
          : { ...(await readVersionOf(app, url)), ...who.headers },
      ...(payload ? { payload } : {}),
    });
  const auditRows = (entity: string, action?: string) =>
    app.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id', 'detail'])
      .where('entity', '=', entity)
      .$if(action !== undefined, (q) => q.where('action', '=', action!))
      .orderBy('audit_id')
      .execute();

  it('two owners, the only user managers, disabling or demoting each other at once leave one of them', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const a = await signInAs(app, { role: 'owner' });
      const b = await signInAs(app, { role: 'owner' });
      const change = round % 2 === 0 ? { disabled: true } : { role: 'editor' };
      const answers = await Promise.all([
        call(a, 'PATCH', `/api/admin/users/${b.userId}`, change),
        call(b, 'PATCH', `/api/admin/users/${a.userId}`, change),
      ]);
      const codes = answers.map((r) => r.statusCode).sort();
      // One wins; the other is refused as the last manager (409), or finds itself already signed
      // out (401) or demoted (403) by the winner.
      expect(codes[0], `round ${round}: ${answers.map((r) => r.body).join(' | ')}`).toBe(200);
      expect([401, 403, 409]).toContain(codes[1]);
      expect(await countActiveUserManagers(app.db), `round ${round}`).toBe(1);
      await deleteUser(app.db, a.userId);
      await deleteUser(app.db, b.userId);
    }
  });

  it('a user who loses a permission, or is demoted, is refused on the very next request', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const writer = await signInAs(app, { permissions: ['blog.manage', 'jobs.manage'] });
    const role = (
      (await call(owner, 'GET', '/api/admin/users')).json() as { user_id: number; role: string }[]
    ).find((u) => u.user_id === writer.userId)!.role;
    const roleId = (
      (await call(owner, 'GET', '/api/admin/roles')).json() as { role_id: number; name: string }[]
    ).find((r) => r.name === role)!.role_id;
    const blogList = () => call(writer, 'GET', '/api/admin/blog-posts');
    const jobsForm = () => call(writer, 'POST', '/api/manage-job-openings', { mode: 3, job_id: 999_999 });
    expect((await blogList()).statusCode).toBe(200);
    expect((await jobsForm()).statusCode).toBe(404);

    const narrowed = await call(owner, 'PATCH', `/api/admin/roles/${roleId}`, {
      name: role,
      permissions: ['jobs.manage'],
    });
    expect(narrowed.statusCode).toBe(200);
    expect((await blogList()).statusCode).toBe(403);
    expect((await jobsForm()).statusCode).toBe(404);

    expect(
      (await call(owner, 'PATCH', `/api/admin/users/${writer.userId}`, { role: 'editor' })).statusCode,
    ).toBe(200);
    // an editor writes the blog, and nothing else
    expect((await blogList()).statusCode).toBe(200);
    expect((await jobsForm()).statusCode).toBe(403);
    expect((await call(writer, 'GET', '/api/bind-job-applications')).statusCode).toBe(403);
  });

  it('status changes and deletes racing on one application: no 500, one audit row per real change', async () => {
    const admin = await signInAs(app, { permissions: ['applications.read', 'applications.manage'] });
    const jobId = await addOpening(app, 'Copy Editor');
    for (let round = 0; round < ROUNDS; round++) {
      const { application_id: id } = await addApplication(app, {
        jobId,
        name: `Asha ${round}`,
        email: `asha.${round}@example.com`,
        at: new Date(),
      });
      // every request read the application at version 1
      const status = (s: string) =>
        call(admin, 'POST', `/api/admin/job-applications/${id}/status`, { status: s }, 1);
      const remove = () => call(admin, 'DELETE', `/api/admin/job-applications/${id}`);
      const racing =
        round % 2 === 0
          ? [status('Reviewed'), status('Reviewed'), status('Reviewed'), status('Rejected')]
          : [status('Reviewed'), remove(), status('Interview'), remove()];
      const answers = await Promise.all(racing);
      // one change wins; the same choice is no conflict, another one finds it changed (409) or gone
      for (const r of answers) expect([200, 404, 409], r.body).toContain(r.statusCode);
      const rows = await auditRows('job_application');
      const mine = rows.filter((r) => r.entity_id === String(id));
      const transitions = mine
        .filter((r) => r.action === 'status')
        .map((r) => JSON.parse(r.detail!) as { from: string; to: string });
      // every recorded change starts where the one before ended, and changes something
      let at = 'New';
      for (const t of transitions) {
        expect(t.from).toBe(at);
        expect(t.to).not.toBe(t.from);
        at = t.to;
      }
      const row = await app.db
        .selectFrom('job_application')
        .select('status')
        .where('application_id', '=', id)
        .executeTakeFirst();
      if (round % 2 === 0) {
        expect(row?.status).toBe(at);
        // all based on one version: one change, whichever came first; the others changed nothing
        expect(transitions).toHaveLength(1);
      } else {
        expect(row).toBeUndefined();
        expect(answers.filter((r, i) => (i === 1 || i === 3) && r.statusCode === 200)).toHaveLength(1);
      }
    }
    // one deletion each in the odd rounds, and never a second for the same application
    expect(await auditRows('job_application', 'delete')).toHaveLength(ROUNDS / 2);
  });

  it('a post saved, published and deleted at once: no 500, one delete, one publication', async () => {
    const editor = await signInAs(app, { permissions: ['blog.manage'] });
    const send = (fields: Record<string, string>) => {
      const { body, contentType } = multipart(
        Object.entries(fields).map(([name, value]) => ({ name, value })),
      );
      return app.inject({
        method: 'POST',
        url: '/api/manage-company-blog',
        headers: { ...editor.headers, 'content-type': contentType, 'if-match': '"1"' },
        payload: body,
      });
    };
    const post = {
      company_id: '2',
      title: 'Reading a parish register',
      excerpt: 'What the entries say, and what they leave out.',
      content: '<p>Registers record baptisms, marriages and burials.</p>',
      publication_date: 'August 6, 2025',
      read_time: '5 min read',
      featured_image_url: 'https://images.example.org/register.png',
      cover_alt: 'A page of a parish register',
    };
    for (let round = 0; round < ROUNDS; round++) {
      const created = await send({
        ...post,
        mode: '1',
        blog_id: '0',
        status: 'Draft',
        title: `Register ${round}`,
      });
      expect(created.statusCode, created.body).toBe(200);
      const blogId = String(created.json().row.blog_id);
      const publish = () =>
        send({ ...post, mode: '2', blog_id: blogId, status: 'Published', title: `Register ${round}` });
      const remove = () => send({ ...post, mode: '3', blog_id: blogId });
      const answers = await Promise.all(
        round % 2 === 0 ? [publish(), publish(), publish()] : [publish(), remove(), publish(), remove()],
      );
      // all based on version 1: one change wins, the others find it changed (409) or gone (404)
      for (const r of answers) expect([200, 404, 409], r.body).toContain(r.statusCode);
      const mine = (await auditRows('blog_post')).filter((r) => r.entity_id === blogId);
      if (round % 2 === 0) {
        // one publication; the two that came later were refused
        expect(mine.map((r) => r.action)).toEqual(['create', 'status']);
      } else {
        expect(mine.filter((r) => r.action === 'delete')).toHaveLength(1);
        expect(mine.filter((r) => r.action === 'status').length).toBeLessThanOrEqual(1);
      }
    }
  });

  it('a message marked handled twice at once records one change', async () => {
    const admin = await signInAs(app, { permissions: ['messages.read', 'messages.manage'] });
    const sent = await app.inject({
      method: 'POST',
      url: '/api/contact-messages',
      headers: { origin: admin.headers.origin },
      payload: {
        name: 'Asha Menon',
        email: 'asha@example.com',
        message: 'Please call me back about the review workflow.',
      },
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const id = (sent.json() as { message_id: number }).message_id;
    const mark = (handled: boolean, version = 1) =>
      call(admin, 'PATCH', `/api/admin/contact-messages/${id}`, { handled }, version);
    // three clicks on one version, all asking for the same: one change, no conflict
    const answers = await Promise.all([mark(true), mark(true), mark(true)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await auditRows('contact_message', 'update')).toHaveLength(1);
    await mark(false, 2);
    expect(await auditRows('contact_message', 'update')).toHaveLength(2);
  });

  it('an opening deleted twice at once is deleted and audited once; the other request finds nothing', async () => {
    const recruiter = await signInAs(app, { permissions: ['jobs.manage'] });
    for (let round = 0; round < ROUNDS / 2; round++) {
      const jobId = await addOpening(app, `Proofreader ${round}`);
      const remove = () => call(recruiter, 'POST', '/api/manage-job-openings', { mode: 3, job_id: jobId });
      const codes = (await Promise.all([remove(), remove(), remove()])).map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 404, 404]);
    }
    expect(await auditRows('job_opening', 'delete')).toHaveLength(ROUNDS / 2);
  });
});
