import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlogPostRows, ManageBlogResponse, type BlogPostRow } from '../../contract/blog';
import { multipart } from '../../tests/fixtures/multipart';
import { signInAs } from '../lib/auth-testing';
import { SHARE_LINKS_REVOKED } from '../../contract/blog-form';
import { signedToken } from '../lib/signed-url';
import { previewedPost, publishDuePosts, redirectedSlug } from '../services/blog';
import { runBlogSchedule } from '../services/blog-schedule';
import { createTestApp } from '../testing';

/**
 * The blog editor on the server (docs/decisions/025-blog-publishing.md): scheduled posts published on time by one process,
 * edited addresses that keep answering, the cover's alt text, search and social fields, and
 * share previews, on SQLite (and PostgreSQL with TEST_DATABASE_URL).
 */

let app: FastifyInstance;
let headers: Record<string, string>;
let recruiter: Record<string, string>;
let editorId: number;

const BASE = {
  company_id: '2',
  blog_id: '0',
  title: 'Reading a parish register',
  excerpt: 'What the entries say, and what they leave out.',
  content: '<p>Registers record baptisms, marriages and burials.</p>',
  publication_date: 'August 6, 2025',
  read_time: '5 min read',
  featured_image_url: 'https://images.example.org/register.png',
  cover_alt: 'A page of a parish register',
};

function send(fields: Record<string, string>, version?: number, as = headers) {
  const { body, contentType } = multipart(Object.entries(fields).map(([name, value]) => ({ name, value })));
  return app.inject({
    method: 'POST',
    url: '/api/manage-company-blog',
    headers: { ...as, 'content-type': contentType, ...(version && { 'if-match': `"${version}"` }) },
    payload: body,
  });
}
const create = async (fields: Record<string, string> = {}) => {
  const res = await send({ ...BASE, mode: '1', ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return ManageBlogResponse.parse(res.json()).row!;
};
const update = (row: BlogPostRow, fields: Record<string, string>) =>
  send({ mode: '2', blog_id: String(row.blog_id), ...fields }, row.version);
const publicList = async () =>
  BlogPostRows.parse((await app.inject('/api/bind-company-blog?page_size=100')).json());
const stored = (id: number) =>
  app.db.selectFrom('blog_post').selectAll().where('blog_id', '=', id).executeTakeFirstOrThrow();
const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600_000);
/** The service context of this app with its clock at `now`. */
const at = (now: Date) => ({ ...app.services(), now: () => now });

beforeAll(async () => {
  app = await createTestApp();
  ({ headers, userId: editorId } = await signInAs(app, { role: 'editor' }));
  ({ headers: recruiter } = await signInAs(app, { role: 'recruiter' }));
});
afterAll(() => app.close());

describe('scheduled posts', () => {
  // first: the runs below with a clock days ahead record their lease in the future
  it('are published by the running server on its own once their time comes, not before', async () => {
    await app.ready();
    const row = await create({
      title: 'On the second',
      status: 'Scheduled',
      publish_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await stored(row.blog_id)).status).toBe('Scheduled');
    // a condition waited on, not a time asserted: the schedule looks every BLOG_SCHEDULE_TICK_MS
    await vi.waitFor(async () => expect((await stored(row.blog_id)).status).toBe('Published'), {
      timeout: 10_000,
      interval: 100,
    });
    const published = await stored(row.blog_id);
    expect(Date.parse(published.updated_at)).toBeGreaterThanOrEqual(Date.parse(row.publish_at!));
  });

  it('stay out of every public read until their time, then are published once, by the system', async () => {
    const when = inDays(2);
    const row = await create({ status: 'Scheduled', publish_at: when.toISOString() });
    expect(row).toMatchObject({ status: 'Scheduled', publish_at: when.toISOString() });
    expect((await publicList()).map((p) => p.blog_id)).not.toContain(row.blog_id);

    // a minute before: nothing; at the time: published
    expect(await publishDuePosts(at(new Date(when.getTime() - 60_000)))).toEqual([]);
    expect(await publishDuePosts(at(when))).toEqual([row.blog_id]);
    expect(await stored(row.blog_id)).toMatchObject({ status: 'Published', publish_at: null, version: 2 });
    expect((await publicList()).map((p) => p.blog_id)).toContain(row.blog_id);
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('entity', '=', 'blog_post')
      .where('entity_id', '=', String(row.blog_id))
      .where('action', '=', 'status')
      .execute();
    expect(audit).toEqual([{ action: 'status', actor_id: null }]);
  });

  it('are published exactly once when two processes look at the same moment', async () => {
    const when = inDays(3);
    const rows = await Promise.all(
      [1, 2, 3].map((n) =>
        create({ title: `Due ${n}`, status: 'Scheduled', publish_at: when.toISOString() }),
      ),
    );
    const later = new Date(when.getTime() + 1000);
    await Promise.all([runBlogSchedule(at(later), 'process-a'), runBlogSchedule(at(later), 'process-b')]);
    const ids = rows.map((r) => r.blog_id);
    const published = await app.db
      .selectFrom('blog_post')
      .select(['blog_id', 'status', 'version'])
      .where('blog_id', 'in', ids)
      .execute();
    expect(published.every((p) => p.status === 'Published' && p.version === 2)).toBe(true);
    const changes = await app.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('entity', '=', 'blog_post')
      .where('entity_id', 'in', ids.map(String))
      .where('action', '=', 'status')
      .execute();
    expect(changes).toHaveLength(3);
    // without the lease too: each change is conditional on the version
    const more = await Promise.all(
      [4, 5].map((n) => create({ title: `Due ${n}`, status: 'Scheduled', publish_at: when.toISOString() })),
    );
    const [x, y] = await Promise.all([publishDuePosts(at(later)), publishDuePosts(at(later))]);
    expect([...x, ...y].sort()).toEqual(more.map((r) => r.blog_id).sort());
  });

  it('answer when the next one is due, and are left alone once someone unscheduled them', async () => {
    const when = inDays(5);
    const row = await create({ title: 'Unscheduled', status: 'Scheduled', publish_at: when.toISOString() });
    expect((await runBlogSchedule(at(new Date(when.getTime() - 10_000))))?.getTime()).toBeLessThanOrEqual(
      when.getTime(),
    );
    // the badge of a Scheduled post makes it a Draft, its time forgotten
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/admin/blog-posts/${row.blog_id}`,
      headers: { ...headers, 'if-match': `"${row.version}"` },
      payload: { status: 'Draft' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await publishDuePosts(at(inDays(6)))).not.toContain(row.blog_id);
    expect(await stored(row.blog_id)).toMatchObject({ status: 'Draft', publish_at: null });
  });

  it('refuses a time that has passed or is missing, and a badge that would schedule', async () => {
    const past = await send({ ...BASE, mode: '1', status: 'Scheduled', publish_at: '2020-01-01T09:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().codes).toEqual({ publish_at: 'schedulePast' });
    const none = await send({ ...BASE, mode: '1', status: 'Scheduled', publish_at: 'soon' });
    expect(none.json().codes).toEqual({ publish_at: 'scheduleRequired' });
    const row = await create();
    const badge = await app.inject({
      method: 'PATCH',
      url: `/api/admin/blog-posts/${row.blog_id}`,
      headers: { ...headers, 'if-match': '"1"' },
      payload: { status: 'Scheduled' },
    });
    expect(badge.statusCode).toBe(400);
  });

  it('keep a time sent with an offset as the same instant in UTC; publishing clears it', async () => {
    const local = '2099-03-01T09:30:00+05:30';
    const row = await create({ status: 'Scheduled', publish_at: local });
    expect(row.publish_at).toBe('2099-03-01T04:00:00.000Z');
    const published = await update(row, { status: 'Published' });
    expect(ManageBlogResponse.parse(published.json()).row).toMatchObject({
      status: 'Published',
      publish_at: null,
    });
  });

  it('are listed by status for the back office', async () => {
    const row = await create({
      title: 'Filter me',
      status: 'Scheduled',
      publish_at: inDays(9).toISOString(),
    });
    const list = BlogPostRows.parse(
      (await app.inject({ url: '/api/admin/blog-posts?status=Scheduled&page_size=100', headers })).json(),
    );
    expect(list.map((p) => p.blog_id)).toContain(row.blog_id);
    expect(list.every((p) => p.status === 'Scheduled')).toBe(true);
    expect((await app.inject({ url: '/api/admin/blog-posts?status=Gone', headers })).statusCode).toBe(400);
  });
});

describe('addresses', () => {
  it('answer 301 from every address a published post had, to the one it has now', async () => {
    const row = await create({ title: 'First address', status: 'Published' });
    expect(row.slug).toBe('first-address');
    const moved = ManageBlogResponse.parse((await update(row, { slug: 'second-address' })).json()).row!;
    expect(moved.slug).toBe('second-address');
    const again = ManageBlogResponse.parse((await update(moved, { slug: 'third-address' })).json()).row!;
    const ctx = app.services();
    for (const old of ['first-address', 'second-address'])
      expect(await redirectedSlug(ctx, old)).toBe('third-address');
    // the post can take an old address back; the address it leaves leads to it
    const back = ManageBlogResponse.parse((await update(again, { slug: 'first-address' })).json()).row!;
    expect(back.slug).toBe('first-address');
    expect(await redirectedSlug(ctx, 'first-address')).toBeUndefined();
    expect(await redirectedSlug(ctx, 'third-address')).toBe('first-address');
    // a new post may take an old address: the redirect ends
    await create({ title: 'Second address' });
    expect(await redirectedSlug(ctx, 'second-address')).toBeUndefined();
    // unpublished, the old addresses lead nowhere
    await app.inject({
      method: 'PATCH',
      url: `/api/admin/blog-posts/${back.blog_id}`,
      headers: { ...headers, 'if-match': `"${back.version}"` },
      payload: { status: 'Draft' },
    });
    expect(await redirectedSlug(ctx, 'third-address')).toBeUndefined();
  });

  it('refuse an address another post has, or one that is not lower-case words and hyphens', async () => {
    const a = await create({ title: 'Taken address' });
    const b = await create({ title: 'Other post' });
    const taken = await update(b, { slug: a.slug! });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().codes).toEqual({ slug: 'slugTaken' });
    for (const slug of ['two--hyphens', 'spaces here', '../up', '-edge', '']) {
      const res = await update(b, { slug });
      expect(res.statusCode, slug).toBe(400);
      expect(['slugInvalid', 'slugRequired']).toContain(res.json().codes.slug);
    }
    const chosen = await create({ title: 'Chosen at creation', slug: ' Chosen-At-Creation-2026 ' });
    expect(chosen.slug).toBe('chosen-at-creation-2026');
  });
});

describe('alt text, search and social fields', () => {
  it("asks for the cover's alt text on a new post, and when the cover or its text changes", async () => {
    const res = await send({ ...BASE, mode: '1', cover_alt: ' ' });
    expect(res.json().codes).toEqual({ cover_alt: 'coverAltRequired' });
    // a post from before alt texts existed can still be saved until its cover changes
    const row = await create();
    await app.db.updateTable('blog_post').set({ cover_alt: '' }).where('blog_id', '=', row.blog_id).execute();
    expect((await update(row, { title: 'Old post, new title' })).statusCode).toBe(200);
    const cover = await update(
      { ...row, version: 2 },
      { featured_image_url: 'https://images.example.org/b.png' },
    );
    expect(cover.json().codes).toEqual({ cover_alt: 'coverAltRequired' });
  });

  it('keeps the meta title, description, social image and canonical address, and refuses non-http addresses', async () => {
    const row = await create({
      meta_title: 'Parish registers, read well',
      meta_description: 'How to read a register.',
      social_image_url: 'https://images.example.org/social.png',
      canonical_url: 'https://journal.example.org/registers',
    });
    expect(row).toMatchObject({
      meta_title: 'Parish registers, read well',
      social_image_url: 'https://images.example.org/social.png',
      canonical_url: 'https://journal.example.org/registers',
    });
    const bad = await update(row, {
      social_image_url: 'javascript:alert(1)',
      canonical_url: 'data:text/html,x',
    });
    expect(bad.json().codes).toEqual({ social_image_url: 'urlInvalid', canonical_url: 'urlInvalid' });
    const long = await update(row, { meta_title: 'x'.repeat(201) });
    expect(long.json().codes).toEqual({ meta_title: 'tooLong' });
  });
});

describe('share previews', () => {
  it('give blog.manage a signed address for 7 days, audited; never to others', async () => {
    const row = await create({ title: 'A draft to share' });
    const made = await app.inject({
      method: 'POST',
      url: `/api/admin/blog-posts/${row.blog_id}/preview-link`,
      headers,
      payload: {},
    });
    expect(made.statusCode, made.body).toBe(200);
    const { url, expires_at } = made.json();
    expect(url).toMatch(
      new RegExp(`^${app.config.PUBLIC_URL}/blog/preview/${row.blog_id}_0\\.\\d+\\.[\\w-]+$`),
    );
    const days = (Date.parse(expires_at) - Date.now()) / (24 * 3600_000);
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/admin/blog-posts/${row.blog_id}/preview-link`,
          headers: recruiter,
          payload: {},
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/admin/blog-posts/999999/preview-link`,
          headers,
          payload: {},
        })
      ).statusCode,
    ).toBe(404);
    const audit = await app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', String(row.blog_id))
      .where('action', '=', 'preview_link')
      .execute();
    expect(audit).toHaveLength(1);
  });
});

describe('revoking share links', () => {
  const makeLink = async (blogId: number) => {
    const made = await app.inject({
      method: 'POST',
      url: `/api/admin/blog-posts/${blogId}/preview-link`,
      headers,
      payload: {},
    });
    expect(made.statusCode).toBe(200);
    return new URL(made.json().url).pathname;
  };
  const revoke = (blogId: number, as = headers) =>
    app.inject({ method: 'DELETE', url: `/api/admin/blog-posts/${blogId}/preview-link`, headers: as });
  /** Whether the link shows the post (the page itself: blog-pages.test.ts). */
  const shows = async (path: string) =>
    (await previewedPost(app.services(), path.slice('/blog/preview/'.length))) !== undefined;

  it('"Revoke share links" ends every link made so far, also one from before links were revocable; a new one works', async () => {
    const row = await create({ title: 'A leaked draft' });
    const first = await makeLink(row.blog_id);
    const second = await makeLink(row.blog_id);
    // a link made before this change named the post alone
    const { token } = signedToken(app.config.SECRET, 'blog-preview', String(row.blog_id), {
      ttlSeconds: 3600,
    });
    const older = `/blog/preview/${token}`;
    for (const path of [first, second, older]) expect(await shows(path)).toBe(true);
    expect((await revoke(row.blog_id, recruiter)).statusCode).toBe(403);
    expect(await shows(first)).toBe(true);
    const revoked = await revoke(row.blog_id);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ message: SHARE_LINKS_REVOKED });
    for (const path of [first, second, older]) expect([path, await shows(path)]).toEqual([path, false]);
    const fresh = await makeLink(row.blog_id);
    expect(await shows(fresh)).toBe(true);
    expect((await revoke(999999)).statusCode).toBe(404);
    const audit = await app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', String(row.blog_id))
      .where('action', '=', 'preview_links_revoked')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('unpublishing ends the links made so far; deleting the post ends them too', async () => {
    const row = await create({ title: 'Out, then back in', status: 'Published' });
    const link = await makeLink(row.blog_id);
    expect(await shows(link)).toBe(true);
    const unpublished = await update(row, { status: 'Draft' });
    expect(unpublished.statusCode).toBe(200);
    expect(await shows(link)).toBe(false);
    const again = await makeLink(row.blog_id);
    expect(await shows(again)).toBe(true);
    // a save that keeps it a draft keeps the new link
    const saved = ManageBlogResponse.parse(unpublished.json()).row!;
    expect((await update(saved, { title: 'Out, then back in, edited' })).statusCode).toBe(200);
    expect(await shows(again)).toBe(true);
    const deleted = await send({ mode: '3', blog_id: String(row.blog_id) });
    expect(deleted.statusCode).toBe(200);
    expect(await shows(again)).toBe(false);
  });
});

describe('tags', () => {
  it('are kept as written, listed for the editor, and filter the public list by their address', async () => {
    const a = await create({
      title: 'Tagged one',
      status: 'Published',
      tags: 'Archives,  Palaeography , archives',
    });
    expect(a.tags).toBe('Archives, Palaeography');
    const b = await create({ title: 'Tagged two', status: 'Published', tags: 'Palaeography' });
    const draft = await create({ title: 'Tagged draft', tags: 'Palaeography, Drafting' });
    const ids = (rows: BlogPostRow[]) => rows.map((r) => r.blog_id);
    const tagged = BlogPostRows.parse((await app.inject('/api/bind-company-blog?tag=palaeography')).json());
    expect(ids(tagged).sort()).toEqual([a.blog_id, b.blog_id].sort());
    expect(tagged[0].total_count).toBe(2);
    const tags = (await app.inject({ url: '/api/admin/blog-tags', headers })).json();
    expect(tags).toEqual(
      expect.arrayContaining([
        { slug: 'palaeography', name: 'Palaeography', posts: 3 },
        { slug: 'archives', name: 'Archives', posts: 1 },
        { slug: 'drafting', name: 'Drafting', posts: 1 },
      ]),
    );
    expect((await app.inject({ url: '/api/admin/blog-tags', headers: recruiter })).statusCode).toBe(403);
    // a change of the tags rewrites the rows; other changes leave them
    const changed = await update(draft, { tags: 'Drafting' });
    expect(ManageBlogResponse.parse(changed.json()).row!.tags).toBe('Drafting');
    const rows = await app.db
      .selectFrom('blog_post_tag')
      .selectAll()
      .where('blog_id', '=', draft.blog_id)
      .execute();
    expect(rows).toEqual([{ blog_id: draft.blog_id, tag_slug: 'drafting', tag_name: 'Drafting' }]);
  });

  it('takes a form with every field the editor sends', async () => {
    const row = await create({
      status: 'Scheduled',
      publish_at: inDays(4).toISOString(),
      slug: 'every-field-at-once',
      meta_title: 'Meta',
      meta_description: 'Description',
      social_image_url: 'https://images.example.org/s.png',
      canonical_url: 'https://example.org/c',
      tags: 'One, Two',
    });
    expect(row).toMatchObject({ slug: 'every-field-at-once', tags: 'One, Two', status: 'Scheduled' });
  });

  it('refuses more than 10 tags or one of more than 40 characters', async () => {
    const many = await send({
      ...BASE,
      mode: '1',
      tags: Array.from({ length: 11 }, (_, i) => `t${i}`).join(','),
    });
    expect(many.json().codes).toEqual({ tags: 'tagsInvalid' });
    const long = await send({ ...BASE, mode: '1', tags: 'x'.repeat(41) });
    expect(long.json().codes).toEqual({ tags: 'tagsInvalid' });
  });
});

describe('authors', () => {
  it("a new post is its writer's; readers see the name they chose, never their address", async () => {
    const row = await create({ title: 'Written by the editor', status: 'Published' });
    expect(row).toMatchObject({ author_id: editorId, author_name: null });
    const named = await app.inject({
      method: 'PATCH',
      url: '/api/auth/profile',
      headers,
      payload: { display_name: '  Asha\u0007  Menon ' },
    });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json()).toEqual({ display_name: 'Asha Menon' });
    const listed = (await publicList()).find((p) => p.blog_id === row.blog_id)!;
    expect(listed).toMatchObject({ author_id: editorId, author_name: 'Asha Menon' });
    expect(JSON.stringify(await publicList())).not.toContain('@example.test');
    const session = (await app.inject({ url: '/api/auth/session', headers })).json();
    expect(session.user.display_name).toBe('Asha Menon');
    const long = await app.inject({
      method: 'PATCH',
      url: '/api/auth/profile',
      headers,
      payload: { display_name: 'x'.repeat(81) },
    });
    expect(long.statusCode).toBe(400);
  });

  it('is chosen from the staff who may write, or none; an unknown one is refused', async () => {
    const authors = (await app.inject({ url: '/api/admin/blog-authors', headers })).json() as {
      user_id: number;
    }[];
    expect(authors.map((a) => a.user_id)).toContain(editorId);
    expect((await app.inject({ url: '/api/admin/blog-authors', headers: recruiter })).statusCode).toBe(403);
    const none = await create({ title: 'Nobody wrote this', author_id: '' });
    expect(none.author_id).toBeNull();
    const bad = await send({ ...BASE, mode: '1', author_id: '999999' });
    expect(bad.json().codes).toEqual({ author_id: 'authorInvalid' });
    const changed = await update(none, { author_id: String(editorId) });
    expect(ManageBlogResponse.parse(changed.json()).row!.author_id).toBe(editorId);
  });
});
