import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { multipart } from '../../tests/fixtures/multipart';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

// PostgreSQL refuses U+0000 in text (CI runs this file on both databases).
describe('a NUL character in a form field', () => {
  let app: FastifyInstance;
  afterEach(() => app.close());

  it('is dropped, not a 500: a blog post and a contact message are stored without it', async () => {
    app = await createTestApp();
    const { headers } = await signInAs(app, { role: 'owner' });
    const { body, contentType } = multipart([
      { name: 'mode', value: '1' },
      { name: 'company_id', value: '2' },
      { name: 'blog_id', value: '0' },
      { name: 'title', value: 'Null\u0000 title' },
      { name: 'excerpt', value: 'An excerpt\u0000 here' },
      { name: 'content', value: '<p>\u0000<script>alert(1)</script>Body</p>' },
      { name: 'publication_date', value: 'December 31, 2099' },
      { name: 'read_time', value: '3 min read' },
      { name: 'featured_image_url', value: 'https://example.org/a.png' },
      { name: 'cover_alt', value: 'A cover' },
      { name: 'status', value: 'Published' },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/manage-company-blog',
      headers: { ...headers, 'content-type': contentType },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await app.db
      .selectFrom('blog_post')
      .select(['title', 'excerpt', 'content'])
      .executeTakeFirstOrThrow();
    expect(row.title).toMatch(/^Null\s+title$/);
    expect(`${row.title}${row.excerpt}${row.content}`).not.toContain('\u0000');

    const contact = await app.inject({
      method: 'POST',
      url: '/api/contact-messages',
      payload: {
        name: 'Asha\u0000 Menon',
        email: 'asha@example.com',
        message: 'Hello\u0000 there, a real message.',
      },
    });
    expect(contact.statusCode).toBeLessThan(500);
  });
});
