import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BlogPostRows, ManageBlogResponse } from '../../contract/blog';
import { multipart } from '../../tests/fixtures/multipart';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';
import type { DomainEvent } from './domain-events';

/**
 * What a change announces reaches the process's stream after it committed, never when it failed,
 * and the listeners of events/listeners.ts do what follows (docs/decisions/034-domain-events.md):
 * on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */

let app: FastifyInstance;
let editor: Record<string, string>;
let owner: Record<string, string>;
let seen: DomainEvent[] = [];

beforeAll(async () => {
  // public reads kept a minute: only the listener can make them stale in time
  app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '1000', PUBLIC_READ_CACHE_MS: '60000' });
  await app.ready();
  app.events.on('*', (event) => void seen.push(event));
  ({ headers: editor } = await signInAs(app, { role: 'editor' }));
  ({ headers: owner } = await signInAs(app, { role: 'owner' }));
});
afterAll(() => app.close());
beforeEach(() => {
  seen = [];
});

const POST = {
  company_id: '2',
  blog_id: '0',
  excerpt: 'What the entries say.',
  content: '<p>Registers record baptisms.</p>',
  publication_date: 'August 6, 2025',
  read_time: '5 min read',
  featured_image_url: 'https://images.example.org/register.png',
  cover_alt: 'A page of a register',
};
const savePost = (fields: Record<string, string>, version?: number) => {
  const { body, contentType } = multipart(Object.entries(fields).map(([name, value]) => ({ name, value })));
  return app.inject({
    method: 'POST',
    url: '/api/manage-company-blog',
    headers: { ...editor, 'content-type': contentType, ...(version && { 'if-match': `"${version}"` }) },
    payload: body,
  });
};
const publicTitles = async () =>
  BlogPostRows.parse((await app.inject('/api/bind-company-blog?page_size=100')).json()).map((p) => p.title);

describe('the events a change announces', () => {
  it('a post published and taken down: added, edited, published, unpublished; the public list follows at once', async () => {
    expect(await publicTitles()).not.toContain('Events: a register'); // the public read is now kept
    const res = await savePost({ ...POST, mode: '1', title: 'Events: a register', status: 'Draft' });
    const row = ManageBlogResponse.parse(res.json()).row!;
    expect(seen.map((e) => e.type)).toEqual(['post.added']);
    seen = [];
    const published = await savePost(
      { mode: '2', blog_id: String(row.blog_id), status: 'Published' },
      row.version,
    );
    expect(published.statusCode, published.body).toBe(200);
    expect(seen).toEqual([
      { type: 'post.edited', blog_id: row.blog_id, status: 'Published', changed: ['status'] },
      { type: 'post.published', blog_id: row.blog_id, slug: row.slug },
    ]);
    // the listener made the kept public read stale before the answer left
    expect(await publicTitles()).toContain('Events: a register');
    seen = [];
    const again = ManageBlogResponse.parse(published.json()).row!;
    await savePost({ mode: '2', blog_id: String(row.blog_id), status: 'Draft' }, again.version);
    expect(seen.map((e) => e.type)).toEqual(['post.edited', 'post.unpublished']);
    expect(await publicTitles()).not.toContain('Events: a register');
  });

  it('a change refused or at an old version announces nothing', async () => {
    const res = await savePost({ ...POST, mode: '1', title: 'Events: twice', status: 'Draft' });
    const row = ManageBlogResponse.parse(res.json()).row!;
    seen = [];
    expect(
      (await savePost({ mode: '2', blog_id: String(row.blog_id), title: 'Later' }, row.version! + 5))
        .statusCode,
    ).toBe(409);
    expect((await savePost({ ...POST, mode: '1', title: '' })).statusCode).toBe(400);
    expect(seen).toEqual([]);
  });

  it('a contact message: received, and one mail.queued for the acknowledgment and the staff notices together', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/contact-messages',
      payload: { name: 'Nguyễn Thị Mai', email: 'mai@journal.example', company: '', message: 'A demo?' },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ message_id: number }>().message_id;
    expect(seen).toEqual([{ type: 'message.received', message_id: id }, { type: 'mail.queued' }]);
    seen = [];
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/admin/contact-messages/${id}`,
      headers: owner,
    });
    expect(deleted.statusCode).toBe(200);
    expect(seen).toEqual([{ type: 'message.deleted', message_id: id }]);
    seen = [];
    // deleting it again: 404, nothing happened
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/admin/contact-messages/${id}`, headers: owner }))
        .statusCode,
    ).toBe(404);
    expect(seen).toEqual([]);
  });
});
