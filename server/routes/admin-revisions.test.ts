import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RevisionDetail, RevisionRows } from '../../contract/revisions';
import { multipart } from '../../tests/fixtures/multipart';
import { ensureJobType } from '../db/jobs.repo';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

/** Revisions of blog posts and job openings: kept at each save, listed, diffed, restored, pruned. */

let app: FastifyInstance;
let editor: Record<string, string>;
let recruiter: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp({ REVISION_KEEP: '4' });
  editor = (await signInAs(app, { permissions: ['blog.manage'] })).headers;
  recruiter = (await signInAs(app, { permissions: ['jobs.manage'] })).headers;
});
afterAll(() => app.close());

const POST = {
  company_id: '2',
  title: 'Reading a parish register',
  excerpt: 'What the entries say.',
  content: '<p>Registers record baptisms, marriages and burials.</p>',
  publication_date: 'August 6, 2025',
  read_time: '5 min read',
  featured_image_url: 'https://images.example.org/register.png',
  cover_alt: 'A page of a parish register',
};

function sendPost(fields: Record<string, string>, version?: number) {
  const { body, contentType } = multipart(Object.entries(fields).map(([name, value]) => ({ name, value })));
  return app.inject({
    method: 'POST',
    url: '/api/manage-company-blog',
    headers: {
      ...editor,
      'content-type': contentType,
      ...(version !== undefined && { 'if-match': `"${version}"` }),
    },
    payload: body,
  });
}
const history = async (entity: string, id: number, headers = editor) =>
  RevisionRows.parse((await app.inject({ url: `/api/admin/revisions/${entity}/${id}`, headers })).json());
const restore = (entity: string, id: number, revisionId: number, version?: number, headers = editor) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/revisions/${entity}/${id}/${revisionId}/restore`,
    headers: { ...headers, ...(version !== undefined && { 'if-match': `"${version}"` }) },
  });

describe('blog post revisions', () => {
  it('keeps one per save with who, when and what changed; restores one as a new revision, leaving the status', async () => {
    const created = (await sendPost({ ...POST, mode: '1', blog_id: '0', status: 'Published' })).json().row;
    const id = String(created.blog_id);
    await sendPost({ mode: '2', blog_id: id, content: '<p>Registers record baptisms and burials.</p>' }, 1);
    await sendPost({ mode: '2', blog_id: id, title: 'Reading registers', read_time: '6 min read' }, 2);
    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/admin/blog-posts/${id}`,
      headers: { ...editor, 'if-match': '"3"' },
      payload: { status: 'Draft' },
    });
    expect(patched.statusCode).toBe(200);

    const list = await history('blog_post', created.blog_id);
    expect(list.map((r) => [r.version, r.changed])).toEqual([
      [4, ['status']],
      [3, ['title', 'read_time']],
      [2, ['content']],
      [
        1,
        [
          // the post's fields in the editor's order (contract/blog-form.ts POST_FIELDS)
          'title',
          'excerpt',
          'content',
          'publication_date',
          'read_time',
          'tags',
          'author_id',
          'featured_image_url',
          'cover_alt',
          'status',
          'publish_at',
          'slug',
          'meta_title',
          'meta_description',
          'social_image_url',
          'canonical_url',
        ],
      ],
    ]);
    expect(list[0].actor_email).toMatch(/@/);
    const detail = RevisionDetail.parse(
      (
        await app.inject({
          url: `/api/admin/revisions/blog_post/${id}/${list[2].revision_id}`,
          headers: editor,
        })
      ).json(),
    );
    expect(detail.fields.content).toBe('<p>Registers record baptisms and burials.</p>');
    expect(detail.previous?.content).toBe(POST.content);

    // restoring the first version: 428 without a version, 409 on a stale one
    const first = list[3].revision_id;
    expect((await restore('blog_post', created.blog_id, first)).statusCode).toBe(428);
    const stale = await restore('blog_post', created.blog_id, first, 2);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ version: 4, status: 'Draft' });
    const restored = await restore('blog_post', created.blog_id, first, 4);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().row).toMatchObject({
      title: POST.title,
      content: POST.content,
      read_time: '5 min read',
      status: 'Draft', // a restore never publishes
      version: 5,
    });
    const after = await history('blog_post', created.blog_id);
    expect(after[0]).toMatchObject({
      version: 5,
      restored_from: first,
      changed: ['title', 'content', 'read_time'],
    });
    const audit = await app.db
      .selectFrom('audit_log')
      .select('detail')
      .where('entity', '=', 'blog_post')
      .where('entity_id', '=', id)
      .where('action', '=', 'restore')
      .execute();
    expect(audit).toHaveLength(1);

    // REVISION_KEEP=4: the oldest went
    expect(after.map((r) => r.version)).toEqual([5, 4, 3, 2]);
    expect(
      (await app.inject({ url: `/api/admin/revisions/blog_post/${id}/${first}`, headers: editor }))
        .statusCode,
    ).toBe(404);

    // deleting the post takes its history with it
    await sendPost({ mode: '3', blog_id: id });
    expect(await history('blog_post', created.blog_id)).toEqual([]);
  });

  it('shows a post history to blog.manage only', async () => {
    const created = (await sendPost({ ...POST, mode: '1', blog_id: '0' })).json().row;
    const url = `/api/admin/revisions/blog_post/${created.blog_id}`;
    expect((await app.inject({ url, headers: recruiter })).statusCode).toBe(403);
    expect((await app.inject({ url })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/admin/revisions/admin_user/1`, headers: editor })).statusCode).toBe(
      404,
    );
  });
});

describe('records written before revisions were kept', () => {
  it('keep their state as it was before their first change, so that change can be compared and undone', async () => {
    const created = (await sendPost({ ...POST, mode: '1', blog_id: '0' })).json().row;
    // as if the post had been written before migration 1600
    await app.db.deleteFrom('record_revision').where('entity_id', '=', created.blog_id).execute();
    await sendPost({ mode: '2', blog_id: String(created.blog_id), excerpt: 'A new excerpt.' }, 1);
    const list = await history('blog_post', created.blog_id);
    expect(list.map((r) => [r.version, r.changed, r.actor_email === null])).toEqual([
      [2, ['excerpt'], false],
      [1, [], true],
    ]);
    const detail = RevisionDetail.parse(
      (
        await app.inject({
          url: `/api/admin/revisions/blog_post/${created.blog_id}/${list[0].revision_id}`,
          headers: editor,
        })
      ).json(),
    );
    expect(detail.previous?.excerpt).toBe(POST.excerpt);
  });
});

describe('job opening revisions', () => {
  it('keeps create, status and update; restore brings back the text and leaves the status', async () => {
    const jobType = (await ensureJobType(app.db, 'Full-time')).job_type_id;
    const send = (payload: object, version?: number) =>
      app.inject({
        method: 'POST',
        url: '/api/manage-job-openings',
        headers: { ...recruiter, ...(version !== undefined && { 'if-match': `"${version}"` }) },
        payload,
      });
    const created = (
      await send({
        mode: 1,
        job_id: 0,
        job_title: 'Copy Editor',
        department: 'Editorial',
        location: 'Kochi, India',
        job_type_id: jobType,
        description: '<p>Edit manuscripts for clarity.</p>',
        requirement: '<p>Three years of editing.</p>',
        about_role: '<p>You work with journal editors.</p>',
        responsibility: '<p>Copy edit accepted papers.</p>',
      })
    ).json().row;
    await app.inject({
      method: 'PATCH',
      url: `/api/admin/job-openings/${created.job_id}`,
      headers: { ...recruiter, 'if-match': '"1"' },
      payload: { status: 'Closed' },
    });
    await send({ mode: 2, job_id: created.job_id, location: 'Remote' }, 2);
    const list = await history('job_opening', created.job_id, recruiter);
    expect(list.map((r) => r.changed)).toEqual([
      ['location'],
      ['status'],
      expect.arrayContaining(['job_title', 'status']),
    ]);
    const restored = await restore('job_opening', created.job_id, list[2].revision_id, 3, recruiter);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().row).toMatchObject({ location: 'Kochi, India', status: 'Closed', version: 4 });
    expect(
      (await app.inject({ url: `/api/admin/revisions/job_opening/${created.job_id}`, headers: editor }))
        .statusCode,
    ).toBe(403);
  });
});
