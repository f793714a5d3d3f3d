import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactMessageRow } from '../../contract/admin-messages';
import { insertContactMessage } from '../db/contact.repo';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

/** The contact messages inbox: list, search, paging, handled flag, permissions. */

let app: FastifyInstance;
let reader: Record<string, string>;
let manager: Record<string, string>;
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await createTestApp();
  reader = (await signInAs(app, { permissions: ['messages.read'] })).headers;
  manager = (await signInAs(app, { permissions: ['messages.read', 'messages.manage'] })).headers;
  const seed: [string, string, string, string, string, string][] = [
    [
      'priya',
      'Priya Raman',
      'priya@journal-press.org',
      'Journal Press',
      'We publish four journals and want a demo of peer review.',
      '2025-05-01T08:00:00.000Z',
    ],
    [
      'tom',
      'Tom Baker',
      'tom@example.co.uk',
      '',
      'Do you support JATS XML export?',
      '2025-05-02T08:00:00.000Z',
    ],
    [
      'lena',
      'Lena Vogel',
      'lena.vogel@verlag.de',
      'Verlag Vogel',
      'Preise für Universitätsverlage?',
      '2025-05-03T08:00:00.000Z',
    ],
  ];
  for (const [tag, name, email, company, message, at] of seed) {
    ids[tag] = await insertContactMessage(
      app.db,
      { name, email, company, message, lang: 'en', idempotency_key: null },
      new Date(at),
    );
  }
});
afterAll(() => app.close());

const list = (query = '', headers = reader) =>
  app.inject({ method: 'GET', url: `/api/admin/contact-messages?${query}`, headers });
const names = (res: { json: () => ContactMessageRow[] }) => res.json().map((r) => r.name);

describe('GET /api/admin/contact-messages', () => {
  it('needs messages.read', async () => {
    expect((await list('', {})).statusCode).toBe(401);
    expect(
      (await list('', (await signInAs(app, { permissions: ['applications.read'] })).headers)).statusCode,
    ).toBe(403);
  });

  it('lists name, email, company, message and date, newest first, with total_count', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const rows = res.json<ContactMessageRow[]>();
    expect(rows.map((r) => r.name)).toEqual(['Lena Vogel', 'Tom Baker', 'Priya Raman']);
    expect(rows[2]).toEqual({
      message_id: ids.priya,
      name: 'Priya Raman',
      email: 'priya@journal-press.org',
      company: 'Journal Press',
      message: 'We publish four journals and want a demo of peer review.',
      lang: 'en',
      handled: false,
      created_at: '2025-05-01T08:00:00.000Z',
      version: 1,
      assignee_id: null,
      assignee: null,
      replies: 0,
    });
    expect(rows[0].total_count).toBe(3);
  });

  it('searches name, email, company and message by word prefix (accents ignored on SQLite)', async () => {
    expect(names(await list('search=peer%20review'))).toEqual(['Priya Raman']);
    expect(names(await list('search=journal-press.org'))).toEqual(['Priya Raman']);
    expect(names(await list('search=jats'))).toEqual(['Tom Baker']);
    expect(names(await list('search=verlag'))).toEqual(['Lena Vogel']);
    expect(names(await list('search=universitätsverlage'))).toEqual(['Lena Vogel']);
    // PostgreSQL's 'simple' configuration keeps accents (no unaccent extension is assumed)
    if (app.dialect === 'sqlite')
      expect(names(await list('search=universitatsverlage'))).toEqual(['Lena Vogel']);
    expect(names(await list('search=baker%20jats'))).toEqual(['Tom Baker']);
    for (const s of [`' OR 1=1 --`, '"', 'NEAR(a b)', 'message:jats', '*', '-tom']) {
      expect((await list(`search=${encodeURIComponent(s)}`)).statusCode, s).toBe(200);
    }
  });

  it('pages with pagenum and pagesize and refuses bad pages (400)', async () => {
    expect(names(await list('pagenum=2&pagesize=2'))).toEqual(['Priya Raman']);
    expect((await list('pagenum=2&pagesize=2')).json<ContactMessageRow[]>()[0].total_count).toBe(3);
    expect((await list('pagenum=3&pagesize=2')).json()).toEqual([]);
    for (const q of [
      'pagenum=0',
      'pagenum=-1',
      'pagenum=1e9',
      'pagesize=0',
      'pagesize=500',
      'handled=maybe',
      `search=${'x'.repeat(201)}`,
    ]) {
      expect((await list(q)).statusCode, q).toBe(400);
    }
  });

  it('shows a message sent through the public form', async () => {
    const sent = await app.inject({
      method: 'POST',
      url: '/api/contact-messages',
      payload: {
        name: 'Form Sender',
        email: 'sender@example.com',
        company: 'Acme Journals',
        message: 'Hello from the contact page',
      },
    });
    expect(sent.statusCode).toBe(201);
    const rows = (await list('search=acme')).json<ContactMessageRow[]>();
    expect(rows.map((r) => r.message)).toEqual(['Hello from the contact page']);
    ids.form = rows[0].message_id;
  });
});

describe('PATCH /api/admin/contact-messages/{id}', () => {
  /** The version a person read: the message's current one unless the test names another. */
  const versionOf = async (id: number | string) =>
    (
      await app.db
        .selectFrom('contact_message')
        .select('version')
        .where('message_id', '=', Number(id) || 0)
        .executeTakeFirst()
    )?.version ?? 1;
  const patch = async (id: number | string, body: unknown, headers = manager, version?: number | null) =>
    app.inject({
      method: 'PATCH',
      url: `/api/admin/contact-messages/${id}`,
      headers:
        version === null ? headers : { ...headers, 'if-match': `"${version ?? (await versionOf(id))}"` },
      payload: body as object,
    });

  it('marks a message handled and back, audited; the handled filter follows', async () => {
    const res = await patch(ids.tom, { handled: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Marked as handled',
      row: { message_id: ids.tom, handled: true },
    });
    expect(names(await list('handled=true'))).toEqual(['Tom Baker']);
    expect(names(await list('handled=false'))).not.toContain('Tom Baker');
    expect(names(await list('search=jats'))).toEqual(['Tom Baker']); // still found after the update
    const back = await patch(ids.tom, { handled: false });
    expect(back.json()).toMatchObject({ message: 'Marked as not handled', row: { handled: false } });
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'contact_message')
      .execute();
    expect(audit.map((a) => [a.action, a.entity_id, a.detail])).toEqual([
      ['update', String(ids.tom), '{"handled":true}'],
      ['update', String(ids.tom), '{"handled":false}'],
    ]);
  });

  it('refuses a bad body or id (400) and an unknown id (404)', async () => {
    expect((await patch(ids.tom, { handled: 'yes' })).statusCode).toBe(400);
    expect((await patch(ids.tom, {})).statusCode).toBe(400);
    expect((await patch('x1', { handled: true })).statusCode).toBe(400);
    const missing = await patch(999999, { handled: true });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Message not found' });
  });

  it('is based on the version read: 428 without it; a flag set the other way meanwhile is 409 with the message as it is now', async () => {
    expect((await patch(ids.lena, { handled: true }, manager, null)).statusCode).toBe(428);
    const read = await versionOf(ids.lena);
    expect((await patch(ids.lena, { handled: true }, manager, read)).statusCode).toBe(200);
    // a colleague who read it before marks it handled too: the same choice, no conflict
    expect((await patch(ids.lena, { handled: true }, manager, read)).statusCode).toBe(200);
    // one who read it before asks for the other way: it was changed meanwhile
    const late = await patch(ids.lena, { handled: false }, manager, read);
    expect(late.statusCode).toBe(409);
    expect(late.json().current).toMatchObject({ message_id: ids.lena, handled: true, version: read + 1 });
    expect(late.json().changed_by).toMatch(/@/);
    expect((await patch(ids.lena, { handled: false }, manager, read + 1)).statusCode).toBe(200);
  });

  it('needs messages.manage and a same-origin request', async () => {
    expect((await patch(ids.tom, { handled: true }, { origin: manager.origin })).statusCode).toBe(401);
    expect((await patch(ids.tom, { handled: true }, reader)).statusCode).toBe(403);
    expect(
      (await patch(ids.tom, { handled: true }, { ...manager, origin: 'https://evil.example' })).statusCode,
    ).toBe(403);
  });
});

describe('DELETE /api/admin/contact-messages/{message_id}', () => {
  const remove = (id: number | string, headers = manager) =>
    app.inject({ method: 'DELETE', url: `/api/admin/contact-messages/${id}`, headers });

  it('needs messages.manage and a same-origin request', async () => {
    expect((await remove(ids.lena, { origin: manager.origin })).statusCode).toBe(401);
    expect((await remove(ids.lena, reader)).statusCode).toBe(403);
    expect((await remove(ids.lena, { ...manager, origin: 'https://evil.example' })).statusCode).toBe(403);
    expect(names(await list('search=vogel'))).toEqual(['Lena Vogel']); // nothing happened
  });

  it('deletes the message and its search entry for good; the audit keeps only that a message went', async () => {
    const id = await insertContactMessage(
      app.db,
      {
        name: 'Hana Suzuki',
        email: 'hana@kaisha.example',
        company: 'Kaisha Press',
        message: 'Please delete everything you hold about me.',
        lang: 'en',
        idempotency_key: null,
      },
      new Date('2025-05-04T08:00:00.000Z'),
    );
    expect(names(await list('search=suzuki'))).toEqual(['Hana Suzuki']);
    const res = await remove(id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Message deleted' });
    expect(await list('search=suzuki').then((r) => r.json())).toEqual([]);
    expect(names(await list())).not.toContain('Hana Suzuki');
    expect(
      await app.db.selectFrom('contact_message').select('message_id').where('message_id', '=', id).execute(),
    ).toEqual([]);
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'contact_message')
      .where('action', '=', 'delete')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toMatch(/Hana|Suzuki|kaisha|delete everything/i);
    // a second time, or an id that never was: 404; a malformed id: 400
    expect((await remove(id)).statusCode).toBe(404);
    expect((await remove(999_999)).json()).toEqual({ message: 'Message not found' });
    expect((await remove('x1')).statusCode).toBe(400);
    expect((await remove('2147483648')).statusCode).toBe(400);
  });

  it('two admins deleting the same message at once: one deletes it, the other is told it is gone', async () => {
    const id = await insertContactMessage(
      app.db,
      {
        name: 'Twin Delete',
        email: 'twin@example.com',
        company: '',
        message: 'Twice at once.',
        lang: 'en',
        idempotency_key: null,
      },
      new Date('2025-05-05T08:00:00.000Z'),
    );
    const answers = await Promise.all([remove(id), remove(id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
  });
});
