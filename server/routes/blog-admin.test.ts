import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { BlogPostRows, ManageBlogResponse, coverSources } from '../../contract/blog';
import { BLOG_MESSAGES as M } from '../../contract/blog-form';
import type { Permission } from '../../contract/auth';
import { multipart, type Part } from '../../tests/fixtures/multipart';
import {
  htmlPage,
  pngOfSize,
  sampleAvif,
  sampleGif,
  sampleJpeg,
  samplePng,
  sampleWebp,
  svgWithScript,
} from '../../tests/fixtures/images';
import { createRole, createUser, insertSession } from '../db/auth.repo';
import { hashSessionId, sessionCookie } from '../plugins/auth';
import { signedMediaPath } from '../lib/signed-url';
import { createTestApp } from '../testing';

let app: FastifyInstance;
let editor: string;
let recruiter: string;
let origin: string;

async function signIn(permissions: Permission[]): Promise<string> {
  const tag = randomBytes(4).toString('hex');
  const roleId = await createRole(app.db, `role-${tag}`, permissions);
  const userId = await createUser(app.db, {
    email: `user-${tag}@example.org`,
    passwordHash: 'not-used',
    roleId,
    mustChangePassword: false,
  });
  const id = randomBytes(32).toString('base64url');
  await insertSession(app.db, hashSessionId(id), userId);
  return sessionCookie(app, id);
}

const VALID = {
  mode: '1',
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

type Fields = Partial<Record<keyof typeof VALID | 'status', string>>;

/** The blog form; an update (mode 2) says the version it is based on (If-Match). */
function post(
  fields: Fields,
  file?: { data: Buffer; filename?: string; type?: string },
  cookie = editor,
  version?: number,
) {
  return send({ ...VALID, ...fields }, file, cookie, version);
}

/** Sends exactly these fields (an update may send only what it changes). */
function send(
  fields: Fields,
  file?: { data: Buffer; filename?: string; type?: string },
  cookie = editor,
  version?: number,
) {
  const parts: Part[] = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([name, value]) => ({ name, value: value as string }));
  if (file)
    parts.push({
      name: 'featured_image',
      filename: file.filename ?? 'image.png',
      type: file.type ?? 'image/png',
      data: file.data,
    });
  const { body, contentType } = multipart(parts);
  return app.inject({
    method: 'POST',
    url: '/api/manage-company-blog',
    headers: {
      'content-type': contentType,
      cookie,
      origin,
      ...(version !== undefined && { 'if-match': `"${version}"` }),
    },
    payload: body,
  });
}

const saved = (res: { body: string }) => ManageBlogResponse.parse(JSON.parse(res.body)).row!;

beforeAll(async () => {
  app = await createTestApp();
  origin = new URL(app.config.PUBLIC_URL).origin;
  editor = await signIn(['blog.manage']);
  recruiter = await signIn(['jobs.manage', 'applications.read']);
});
afterAll(() => app.close());

describe('access', () => {
  it('answers 401 signed out and 403 without blog.manage', async () => {
    expect((await post({}, undefined, '')).statusCode).toBe(401);
    expect((await post({}, undefined, recruiter)).statusCode).toBe(403);
    expect((await app.inject('/api/admin/blog-posts')).statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/api/admin/blog-posts', headers: { cookie: recruiter } })).statusCode,
    ).toBe(403);
  });

  it('refuses a cross-site write with 403', async () => {
    const { body, contentType } = multipart([
      { name: 'mode', value: '3' },
      { name: 'blog_id', value: '1' },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/manage-company-blog',
      headers: { 'content-type': contentType, cookie: editor, origin: 'https://evil.example' },
      payload: body,
    });
    expect(res.statusCode).toBe(403);
  });

  it('answers 415 for a body that is not multipart', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/manage-company-blog',
      headers: { 'content-type': 'application/json', cookie: editor, origin },
      payload: JSON.stringify(VALID),
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('create, update, delete', () => {
  it('creates a draft by default, with a slug, and records it in the audit log', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.created);
    const row = saved(res);
    expect(row).toMatchObject({
      title: VALID.title,
      status: 'Draft',
      slug: 'reading-a-parish-register',
      publication_date: 'August 6, 2025',
      image_url: VALID.featured_image_url,
    });
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'blog_post')
      .where('entity_id', '=', String(row.blog_id))
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
    expect(audit[0].actor_email).toMatch(/@example\.org$/);
  });

  it('gives the same title a new slug each time', async () => {
    const a = saved(await post({ title: 'Same Title, Twice!', status: 'Published' }));
    const b = saved(await post({ title: 'Same  title twice', status: 'Published' }));
    expect(a.slug).toBe('same-title-twice');
    expect(b.slug).toBe('same-title-twice-2');
    const c = saved(await post({ title: 'Café au lait & <b>ünïcode</b> — മലയാളം' }));
    expect(c.slug).toBe('cafe-au-lait-b-unicode-b-മലയാളം');
  });

  it('lists drafts too in the admin list, never cached', async () => {
    const res = await app.inject({ url: '/api/admin/blog-posts?page_size=100', headers: { cookie: editor } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const list = BlogPostRows.parse(res.json());
    expect(list.some((r) => r.status === 'Draft')).toBe(true);
    const pub = BlogPostRows.parse((await app.inject('/api/bind-company-blog?page_size=100')).json());
    expect(pub.every((r) => r.status === 'Published')).toBe(true);
    expect(pub.length).toBeLessThan(list.length);
  });

  it('updates a post; flipping only the status is audited as a status change', async () => {
    const row = saved(await post({ title: 'Draft to publish' }));
    const res = await post(
      { mode: '2', blog_id: String(row.blog_id), title: 'Draft to publish', status: 'Published' },
      undefined,
      editor,
      row.version,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.updated);
    const updated = saved(res);
    expect(updated.status).toBe('Published');
    expect(updated.updated_at! > row.updated_at!).toBe(true);
    const actions = await app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', String(row.blog_id))
      .orderBy('audit_id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['create', 'status']);
  });

  it('publishes and unpublishes with the status alone, even a post that fails the form rules of today', async () => {
    const row = saved(await post({ title: 'Toggled from the card', status: 'Published' }));
    // an old post whose read time no longer passes the form's rules
    await app.db
      .updateTable('blog_post')
      .set({ read_time: 'a while' })
      .where('blog_id', '=', row.blog_id)
      .execute();
    let version = row.version!;
    const patch = async (id: number | string, payload: unknown, cookie = editor) => {
      const res = await app.inject({
        method: 'PATCH',
        url: `/api/admin/blog-posts/${id}`,
        headers: { cookie, origin, 'if-match': `"${version}"` },
        payload: payload as object,
      });
      if (res.statusCode === 200) version = saved(res).version!;
      return res;
    };

    const res = await patch(row.blog_id, { status: 'Draft' });
    expect(res.statusCode).toBe(200);
    const draft = saved(res);
    expect(draft).toMatchObject({
      status: 'Draft',
      slug: row.slug,
      read_time: 'a while',
      content: row.content,
    });
    expect((await patch(row.blog_id, { status: 'Draft' })).statusCode).toBe(200); // nothing to change
    expect(saved(await patch(row.blog_id, { status: 'Published' })).status).toBe('Published');
    const actions = await app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'blog_post')
      .where('entity_id', '=', String(row.blog_id))
      .orderBy('audit_id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['create', 'status', 'status']);

    expect((await patch(row.blog_id, { status: 'Archived' })).statusCode).toBe(400);
    expect((await patch(row.blog_id, { status: 'Draft', title: 'ignored' })).json().row?.title).toBe(
      row.title,
    );
    expect((await patch(999_999, { status: 'Draft' })).statusCode).toBe(404);
    expect((await patch('99999999999', { status: 'Draft' })).statusCode).toBe(400);
    expect((await patch(row.blog_id, { status: 'Draft' }, recruiter)).statusCode).toBe(403);
    const crossSite = await app.inject({
      method: 'PATCH',
      url: `/api/admin/blog-posts/${row.blog_id}`,
      headers: { cookie: editor, origin: 'https://evil.example' },
      payload: { status: 'Draft' },
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it('keeps the permalink of a published post when its title changes, and follows the title of a draft', async () => {
    const pub = saved(await post({ title: 'Original published title', status: 'Published' }));
    const renamed = saved(
      await send({ mode: '2', blog_id: String(pub.blog_id), title: 'A new title' }, undefined, editor, 1),
    );
    expect(renamed.slug).toBe('original-published-title');
    const draft = saved(await post({ title: 'Working title' }));
    const renamedDraft = saved(
      await send({ mode: '2', blog_id: String(draft.blog_id), title: 'Better title' }, undefined, editor, 1),
    );
    expect(renamedDraft.slug).toBe('better-title');
  });

  it('deletes a post (and its uploaded image); a second delete is 404', async () => {
    const row = saved(await post({ featured_image_url: '' }, { data: samplePng() }));
    const imageUrl = row.image_url!;
    expect((await app.inject(imageUrl)).statusCode).toBe(200);
    const res = await post({ mode: '3', blog_id: String(row.blog_id) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: M.deletedText });
    expect((await app.inject(imageUrl)).statusCode).toBe(404);
    expect(await app.storage.exists(row.featured_image_url!)).toBe(false);
    const again = await post({ mode: '3', blog_id: String(row.blog_id) });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: M.notFound });
    expect((await post({ mode: '2', blog_id: '999999' }, undefined, editor, 1)).statusCode).toBe(404);
  });
});

describe('a cover at the widths its srcset names', () => {
  it('serves an uploaded cover as WebP at 480, 960 and 1600 px (never wider than it is), cached for a year; other widths are 404', async () => {
    const row = saved(await post({ featured_image_url: '' }, { data: samplePng(2000, 1050) }));
    const url = row.image_url!;
    const sources = coverSources(url, 'card')!;
    expect(sources.src).toBe(`${url}?w=960`);
    for (const candidate of sources.srcset.split(', ')) {
      const [address, declared] = candidate.split(' ');
      const res = await app.inject(address);
      expect(res.statusCode, address).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(Number(declared.slice(0, -1)));
      expect(res.rawPayload.length).toBeLessThan(Number((await app.inject(url)).headers['content-length']));
      const again = await app.inject({
        url: address,
        headers: { 'if-none-match': String(res.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
    }
    // a small cover is not enlarged
    const small = saved(await post({ featured_image_url: '' }, { data: samplePng(300, 158) }));
    const smallRes = await app.inject(`${small.image_url}?w=1600`);
    expect((await sharp(smallRes.rawPayload).metadata()).width).toBe(300);
    for (const w of ['100', '961', '-1', 'abc', '1600.0']) {
      expect((await app.inject(`${url}?w=${w}`)).statusCode, w).toBe(404);
    }
    // gone with its post
    await post({ mode: '3', blog_id: String(row.blog_id) });
    expect((await app.inject(`${url}?w=480`)).statusCode).toBe(404);
    // an address elsewhere, or a GIF, has no widths
    expect(coverSources('https://images.example.org/cover.png', 'post')).toBeNull();
    expect(coverSources('/media/blog/a.gif', 'post')).toBeNull();
  });
});

describe('versions (a change is based on the version it read)', () => {
  const patch = (id: number, status: string, version?: number) =>
    app.inject({
      method: 'PATCH',
      url: `/api/admin/blog-posts/${id}`,
      headers: { cookie: editor, origin, ...(version !== undefined && { 'if-match': `"${version}"` }) },
      payload: { status },
    });
  const stored = (id: number) =>
    app.db.selectFrom('blog_post').selectAll().where('blog_id', '=', id).executeTakeFirstOrThrow();

  it('refuses a change or a publication that does not say its version (428), changing nothing', async () => {
    const row = saved(await post({ title: 'Unversioned change' }));
    expect(row.version).toBe(1);
    const res = await send({ mode: '2', blog_id: String(row.blog_id), read_time: '9 min read' });
    expect(res.statusCode).toBe(428);
    expect(res.json().message).toMatch(/If-Match/);
    expect((await patch(row.blog_id, 'Published')).statusCode).toBe(428);
    expect(await stored(row.blog_id)).toMatchObject({ read_time: '5 min read', status: 'Draft', version: 1 });
  });

  it('changes only the fields sent, and counts the version on', async () => {
    const row = saved(await post({ title: 'Partly changed', status: 'Published' }));
    const res = await send(
      { mode: '2', blog_id: String(row.blog_id), read_time: '7 min read' },
      undefined,
      editor,
      1,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(saved(res)).toMatchObject({
      excerpt: VALID.excerpt,
      content: VALID.content,
      featured_image_url: VALID.featured_image_url,
      title: 'Partly changed',
      read_time: '7 min read',
      status: 'Published',
      version: 2,
    });
    const audit = await app.db
      .selectFrom('audit_log')
      .select('detail')
      .where('entity', '=', 'blog_post')
      .where('entity_id', '=', String(row.blog_id))
      .where('action', '=', 'update')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail!).changed).toEqual(['read_time']);
  });

  it('stores a change sent twice from the send queue once, image and all: the repeat gets the first answer', async () => {
    const row = saved(await post({ title: 'Sent twice' }));
    const again = (key: string, version: number, read_time = '8 min read') => {
      const { body, contentType } = multipart([
        { name: 'mode', value: '2' },
        { name: 'company_id', value: '2' },
        { name: 'blog_id', value: String(row.blog_id) },
        { name: 'read_time', value: read_time },
        { name: 'featured_image', filename: 'cover.png', type: 'image/png', data: samplePng() },
      ]);
      return app.inject({
        method: 'POST',
        url: '/api/manage-company-blog',
        headers: {
          'content-type': contentType,
          cookie: editor,
          origin,
          'if-match': `"${version}"`,
          'idempotency-key': key,
        },
        payload: body,
      });
    };
    const first = await again('blog-edit-key-1', 1);
    const repeat = await again('blog-edit-key-1', 1);
    expect(first.statusCode, first.body).toBe(200);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual(first.json());
    expect(await stored(row.blog_id)).toMatchObject({ read_time: '8 min read', version: 2 });
    // the same key with other content is refused, not answered with the first answer
    expect((await again('blog-edit-key-1', 1, '9 min read')).statusCode).toBe(422);
  });

  it('a stale "Publish immediately" cannot put an unpublished post back online', async () => {
    // the owner and a colleague open the published post (version 1)
    const row = saved(await post({ title: 'Taken offline', status: 'Published' }));
    // the owner takes it offline
    expect((await patch(row.blog_id, 'Draft', 1)).statusCode).toBe(200);
    // the colleague's dialog, still open, saves the read time alone on version 1
    const late = await send(
      { mode: '2', blog_id: String(row.blog_id), read_time: '3 min read' },
      undefined,
      editor,
      1,
    );
    expect(late.statusCode).toBe(409);
    const body = late.json();
    expect(body.current).toMatchObject({ status: 'Draft', read_time: '5 min read', version: 2 });
    expect(body.changed_by).toMatch(/@example\.org$/);
    expect(Date.parse(body.changed_at)).toBeGreaterThan(0);
    // the editor then sends its change again on their version: the post stays offline
    const again = await send(
      { mode: '2', blog_id: String(row.blog_id), read_time: '3 min read' },
      undefined,
      editor,
      2,
    );
    expect(saved(again)).toMatchObject({ status: 'Draft', read_time: '3 min read', version: 3 });
    expect((await app.inject(`/api/bind-company-blog?blogid=${row.blog_id}`)).json()).toEqual([]);
  });

  it('a stale badge is refused with the post as it is now', async () => {
    const row = saved(await post({ title: 'Badge race', status: 'Published' }));
    await send(
      { mode: '2', blog_id: String(row.blog_id), title: 'Badge race, renamed' },
      undefined,
      editor,
      1,
    );
    const late = await patch(row.blog_id, 'Draft', 1);
    expect(late.statusCode).toBe(409);
    expect(late.json().current).toMatchObject({
      title: 'Badge race, renamed',
      status: 'Published',
      version: 2,
    });
    expect((await stored(row.blog_id)).status).toBe('Published');
  });

  it('of two saves of the same version at once, one wins and one gets 409; one update is recorded', async () => {
    const row = saved(await post({ title: 'Two at once' }));
    const answers = await Promise.all([
      send({ mode: '2', blog_id: String(row.blog_id), excerpt: 'Mine, first.' }, undefined, editor, 1),
      send({ mode: '2', blog_id: String(row.blog_id), read_time: '2 min read' }, undefined, editor, 1),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const updates = await app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'blog_post')
      .where('entity_id', '=', String(row.blog_id))
      .where('action', '=', 'update')
      .execute();
    expect(updates).toHaveLength(1);
    expect((await stored(row.blog_id)).version).toBe(2);
  });

  it('checks the post a partial change makes against the form rules', async () => {
    const row = saved(await post({ title: 'Checked whole' }));
    const res = await send(
      { mode: '2', blog_id: String(row.blog_id), read_time: 'soon' },
      undefined,
      editor,
      1,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().codes).toMatchObject({ read_time: expect.any(String) });
    expect((await stored(row.blog_id)).version).toBe(1);
  });
});

describe('the rules of the blog form, at their edges', () => {
  const errorsOf = async (fields: Fields, file?: Parameters<typeof post>[1]) => {
    const res = await post(fields, file);
    expect(res.statusCode).toBeLessThan(500);
    return { status: res.statusCode, errors: (res.json().errors ?? {}) as Record<string, string> };
  };

  it('shows every required message for an empty form', async () => {
    const { status, errors } = await errorsOf({
      title: '',
      excerpt: ' ',
      content: '<p><br></p>',
      publication_date: '',
      read_time: '',
      featured_image_url: '',
    });
    expect(status).toBe(400);
    expect(errors).toEqual({
      title: 'Title is required',
      excerpt: 'Excerpt is required',
      content: 'Content is required',
      publication_date: 'Publication date is required',
      read_time: 'Read time is required',
      featured_image: 'Featured image is required',
    });
  });

  it('takes a 99-character title and refuses 100', async () => {
    expect((await post({ title: 'a'.repeat(99) })).statusCode).toBe(200);
    expect((await errorsOf({ title: 'a'.repeat(100) })).errors.title).toBe(
      'Title must be less than 100 characters',
    );
  });

  it('takes a 199-character excerpt and refuses 200', async () => {
    expect((await post({ excerpt: 'e'.repeat(199) })).statusCode).toBe(200);
    expect((await errorsOf({ excerpt: 'e'.repeat(200) })).errors.excerpt).toBe(
      'Excerpt must be less than 200 characters',
    );
  });

  it.each([['5 mins read'], ['five min read'], ['5min read'], ['5 min'], ['-5 min read'], ['5 MIN READ']])(
    'refuses the read time %j',
    async (readTime) => {
      expect((await errorsOf({ read_time: readTime })).errors.read_time).toBe(
        "Format should be 'X min read' (e.g., '5 min read')",
      );
    },
  );

  it('takes "5 min read" and "12 min read"', async () => {
    expect((await post({ read_time: '5 min read' })).statusCode).toBe(200);
    expect((await post({ read_time: '12 min read' })).statusCode).toBe(200);
  });

  it.each([
    ['<p></p>'],
    ['<script>alert(1)</script>'],
    ['<img src=x onerror=alert(1)>'],
    ['<p>&nbsp;</p><br>'],
    ['<iframe src="https://x"></iframe>'],
  ])('refuses content that is only tags: %s', async (content) => {
    expect((await errorsOf({ content })).errors.content).toBe('Content is required');
  });

  it.each([['February 30, 2025'], ['2025-08-06'], ['Augst 6, 2025'], ['6 August 2025'], ['tomorrow']])(
    'refuses the publication date %j',
    async (date) => {
      expect((await errorsOf({ publication_date: date })).errors.publication_date).toBe(
        'Publication date is not a valid date',
      );
    },
  );

  it.each([
    ['javascript:alert(1)'],
    ['data:image/png;base64,iVBORw0KGgo='],
    ['JaVaScRiPt:alert(1)'],
    ['//evil.example/x.png'],
    ['ftp://example.org/x.png'],
    ['blog/00000000-0000-0000-0000-000000000000.png'],
    ['../../etc/passwd'],
  ])('refuses the image address %j', async (url) => {
    expect((await errorsOf({ featured_image_url: url })).errors.featured_image).toBe(M.imageUrlInvalid);
  });

  it('sanitises the content: no script, no handlers, links limited to safe protocols', async () => {
    const row = saved(
      await post({
        content:
          '<p onclick="alert(1)">Hi <a href="javascript:alert(1)">x</a> <a href="https://ok.example">ok</a></p><script>alert(2)</script><img src=x onerror=alert(3)><h2 style="color:red">Head</h2>',
      }),
    );
    expect(row.content).toBe(
      '<p>Hi <a target="_blank" rel="noopener noreferrer">x</a> <a href="https://ok.example" target="_blank" rel="noopener noreferrer">ok</a></p><h2>Head</h2>',
    );
  });

  it('refuses an unknown status and another company', async () => {
    expect((await errorsOf({ status: 'Archived' })).errors.status).toBe(
      'Status must be Published, Draft or Scheduled',
    );
    expect((await errorsOf({ company_id: '3' })).errors.company_id).toMatch(/company 2/);
  });

  it('refuses content over 200,000 characters, and a body over the limit unread (413)', async () => {
    const long = await post({ content: `<p>${'a'.repeat(200_001)}</p>` });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.content).toBe('Content is too long');
    const huge = await app.inject({
      method: 'POST',
      url: '/api/manage-company-blog',
      headers: {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(20 * 1024 * 1024),
        cookie: editor,
        origin,
      },
      payload: 'x',
    });
    expect(huge.statusCode).toBe(413);
  });

  it('answers 400 for a broken multipart body, a field sent twice and a file in the wrong field', async () => {
    const broken = await app.inject({
      method: 'POST',
      url: '/api/manage-company-blog',
      headers: { 'content-type': 'multipart/form-data; boundary=abc', cookie: editor, origin },
      payload: '--abc\r\nContent-Disposition: form-data; name="mode"\r\n\r\n1\r\n--ab',
    });
    expect(broken.statusCode).toBe(400);
    const twice = multipart([
      { name: 'mode', value: '1' },
      { name: 'mode', value: '2' },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/manage-company-blog',
      headers: { 'content-type': twice.contentType, cookie: editor, origin },
      payload: twice.body,
    });
    expect(res.statusCode).toBe(400);
    const wrong = multipart([
      { name: 'mode', value: '1' },
      { name: 'resume', filename: 'a.png', type: 'image/png', data: samplePng() },
    ]);
    const res2 = await app.inject({
      method: 'POST',
      url: '/api/manage-company-blog',
      headers: { 'content-type': wrong.contentType, cookie: editor, origin },
      payload: wrong.body,
    });
    expect(res2.statusCode).toBe(400);
  });

  it('refuses modes other than 1, 2 and 3 with 400', async () => {
    for (const mode of ['0', '4', 'x', '']) expect((await post({ mode })).statusCode).toBe(400);
  });
});

describe('featured image uploads', () => {
  /** A real photo of each type (a cover is decoded: headers alone do not pass). */
  const photoOf = (format: 'jpeg' | 'webp' | 'avif') =>
    sharp({ create: { width: 40, height: 30, channels: 3, background: '#1d4ed8' } })
      .toFormat(format)
      .toBuffer();
  it.each([
    ['PNG', async () => samplePng(), 'png', 'image/png', 'png'],
    ['JPEG', () => photoOf('jpeg'), 'jpg', 'image/jpeg', 'jpeg'],
    ['GIF', async () => sampleGif(), 'gif', 'image/gif', null],
    ['WebP', () => photoOf('webp'), 'webp', 'image/webp', 'webp'],
    ['AVIF', () => photoOf('avif'), 'avif', 'image/avif', 'heif'],
  ])(
    'stores a %s under a generated key and serves it with its checked type',
    async (_name, make, ext, type, format) => {
      const data = await make();
      const res = await post(
        { featured_image_url: '' },
        { data, filename: '../../evil name.exe', type: 'text/html' },
      );
      expect(res.statusCode).toBe(200);
      const row = saved(res);
      expect(row.featured_image_url).toMatch(new RegExp(`^blog/[0-9a-f-]{36}\\.${ext}$`));
      const media = await app.inject(row.image_url!);
      expect(media.statusCode).toBe(200);
      expect(media.headers['content-type']).toBe(type);
      if (format === null) {
        expect(media.rawPayload.equals(data)).toBe(true); // a GIF is stored as sent
        return;
      }
      // a photo is stored decoded and written again: the same picture, of the same type
      const meta = await sharp(media.rawPayload).metadata();
      const size = ext === 'png' ? [120, 63] : [40, 30];
      expect([meta.format, meta.width, meta.height]).toEqual([format, ...size]);
    },
  );

  it.each([
    ['a JPEG', sampleJpeg()],
    ['a WebP', sampleWebp()],
    ['an AVIF', sampleAvif()],
  ])('refuses %s that only has the header of one with 415, storing nothing', async (_name, data) => {
    const before = await app.db.selectFrom('stored_file').select('file_key').execute();
    const res = await post({ featured_image_url: '' }, { data, filename: 'photo.jpg', type: 'image/jpeg' });
    expect(res.statusCode).toBe(415);
    expect(res.json().codes).toEqual({ featured_image: 'imageInvalidFile' });
    expect(await app.db.selectFrom('stored_file').select('file_key').execute()).toHaveLength(before.length);
  });

  it.each([
    ['an SVG', svgWithScript(), 'drawing.svg', 'image/svg+xml'],
    ['an SVG renamed .png', svgWithScript(), 'photo.png', 'image/png'],
    ['an HTML page renamed .png', htmlPage(), 'photo.png', 'image/png'],
    ['a PDF', Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n'), 'a.png', 'image/png'],
  ])('refuses %s with 415 "Please upload a valid image file"', async (_name, data, filename, type) => {
    const res = await post({ featured_image_url: '' }, { data, filename, type });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message: M.imageInvalidFile,
      errors: { featured_image: M.imageInvalidFile },
      codes: { featured_image: 'imageInvalidFile' },
    });
  });

  it('takes an image of exactly 5 MB and refuses 5 MB + 1 byte with 413', async () => {
    const ok = await post({ featured_image_url: '' }, { data: pngOfSize(5 * 1024 * 1024) });
    expect(ok.statusCode).toBe(200);
    const over = await post({ featured_image_url: '' }, { data: pngOfSize(5 * 1024 * 1024 + 1) });
    expect(over.statusCode).toBe(413);
    expect(over.json().errors).toEqual({ featured_image: M.imageTooLarge });
  });

  it('keeps a stored image on edit when the form sends its key back', async () => {
    const row = saved(await post({ featured_image_url: '' }, { data: samplePng() }));
    const res = await post(
      { mode: '2', blog_id: String(row.blog_id), featured_image_url: row.featured_image_url! },
      undefined,
      editor,
      row.version,
    );
    expect(res.statusCode).toBe(200);
    expect(saved(res).featured_image_url).toBe(row.featured_image_url);
  });

  it('leaves nothing in storage when the form is refused', async () => {
    const before = (await app.db.selectFrom('stored_file').select('file_key').execute()).length;
    const res = await post({ title: '' }, { data: samplePng() });
    expect(res.statusCode).toBe(400);
    expect((await app.db.selectFrom('stored_file').select('file_key').execute()).length).toBe(before);
  });
});

describe('GET /api/GetPresignedUrl', () => {
  let cvKey: string;
  beforeAll(async () => {
    cvKey = await app.storage.put(Readable.from([Buffer.from('%PDF-1.4 cv')]), {
      prefix: 'cv',
      ext: 'pdf',
      contentType: 'application/pdf',
    });
    await app.db
      .insertInto('stored_file')
      .values({
        file_key: cvKey,
        kind: 'cv',
        content_type: 'application/pdf',
        byte_size: 11,
        original_name: 'Asha Menon CV.pdf',
        created_at: new Date().toISOString(),
      })
      .execute();
  });

  it('answers the stable /media address of a blog image', async () => {
    const row = saved(await post({ featured_image_url: '' }, { data: samplePng() }));
    const res = await app.inject(
      `/api/GetPresignedUrl?s3_key=${encodeURIComponent(row.featured_image_url!)}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: `/media/${row.featured_image_url}` });
  });

  it('needs applications.read for a CV, and answers a signed address that works once fetched', async () => {
    const url = `/api/GetPresignedUrl?s3_key=${encodeURIComponent(cvKey)}`;
    expect((await app.inject(url)).statusCode).toBe(401);
    expect((await app.inject({ url, headers: { cookie: editor } })).statusCode).toBe(403);
    const res = await app.inject({ url, headers: { cookie: recruiter } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const signed = res.json().url as string;
    expect(signed).toMatch(/^\/media\/private\/cv\/[0-9a-f-]{36}\.pdf\?by=\d+&expires=\d+&sig=[\w-]+$/);
    const expires = Number(new URL(signed, 'http://x').searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(300);
    const file = await app.inject(signed);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `inline; filename="Asha Menon CV.pdf"; filename*=UTF-8''Asha%20Menon%20CV.pdf`,
    );
    expect(file.headers['cache-control']).toBe('no-store');
    expect(file.body).toBe('%PDF-1.4 cv');
  });

  it('refuses a tampered or expired signature, or another reader, with 404', async () => {
    const answer = await app.inject({
      url: `/api/GetPresignedUrl?s3_key=${encodeURIComponent(cvKey)}`,
      headers: { cookie: recruiter },
    });
    const reader = Number(new URL(answer.json().url, 'http://x').searchParams.get('by'));
    const good = signedMediaPath(app.config.SECRET, cvKey, reader);
    // the address names its reader: another one's id in it breaks the signature
    expect((await app.inject(good.replace(`by=${reader}`, `by=${reader + 1}`))).statusCode).toBe(404);
    // the first character of the signature changed to another one (never to itself)
    const tampered = good.replace(/sig=(.)/, (_, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`);
    expect(tampered).not.toBe(good);
    expect((await app.inject(tampered)).statusCode).toBe(404);
    // an address signed correctly, but to expire more than 5 minutes from now, is refused too
    const tooLong = signedMediaPath(app.config.SECRET, cvKey, reader, { now: Date.now() + 10 * 60 * 1000 });
    expect((await app.inject(tooLong)).statusCode).toBe(404);
    expect((await app.inject(good)).statusCode).toBe(200);
    const expired = signedMediaPath(app.config.SECRET, cvKey, reader, { now: Date.now() - 10 * 60 * 1000 });
    expect((await app.inject(expired)).statusCode).toBe(404);
    const other = signedMediaPath('another-secret-that-is-32-characters-long', cvKey, reader);
    expect((await app.inject(other)).statusCode).toBe(404);
  });

  it.each([
    ['blog/00000000-0000-0000-0000-000000000000.png'],
    ['nothing'],
    ['../../etc/passwd'],
    ['https://example.org/a.png'],
  ])('answers 404 { message } for the unknown key %j', async (key) => {
    const res = await app.inject(`/api/GetPresignedUrl?s3_key=${encodeURIComponent(key)}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'File not found' });
  });

  it('answers 400 without a key', async () => {
    expect((await app.inject('/api/GetPresignedUrl')).statusCode).toBe(400);
  });
});
