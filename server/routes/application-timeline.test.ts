import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Timeline, TimelineEvent } from '../../contract/application-timeline';
import { samplePdf } from '../../tests/fixtures/files';
import { multipart } from '../../tests/fixtures/multipart';
import { addOpening } from '../db/application-list.testing';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

/**
 * An application's timeline and notes (docs/decisions/026-application-timeline.md), on SQLite and on PostgreSQL when
 * TEST_DATABASE_URL is set: each role against each rule, the order of what happened, notes cleaned
 * and limited, mentions that mail only colleagues who may read the application, notes written in
 * parallel, and everything deleted with the application.
 */

let app: FastifyInstance;
let jobId: number;
type Who = Awaited<ReturnType<typeof signInAs>>;
let reader: Who;
let manager: Who;
let colleague: Who;
let outsider: Who;

beforeAll(async () => {
  app = await createTestApp();
  jobId = await addOpening(app, 'Copy Editor');
  reader = await signInAs(app, { permissions: ['applications.read'] });
  manager = await signInAs(app, { permissions: ['applications.read', 'applications.manage'] });
  colleague = await signInAs(app, { permissions: ['applications.read'] });
  outsider = await signInAs(app, { permissions: ['messages.read', 'blog.manage'] });
});
afterAll(() => app.close());

/** Applies as a candidate would, through the public form (its acknowledgment is queued). */
async function apply(name = 'Asha Menon', email = `cand-${Math.random().toString(36).slice(2)}@example.com`) {
  const { body, contentType } = multipart([
    { name: 'job_id', value: String(jobId) },
    { name: 'full_name', value: name },
    { name: 'email', value: email },
    { name: 'contact_number', value: '9876543210' },
    { name: 'address', value: '12 MG Road, Kochi' },
    { name: 'consent', value: 'true' },
    { name: 'lang', value: 'fr' },
    { name: 'resume', filename: 'cv.pdf', type: 'application/pdf', data: samplePdf(name) },
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/manage-job-applications',
    payload: body,
    headers: { 'content-type': contentType },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ application_id: number }>().application_id;
}

const timeline = (id: number, who: { headers: Record<string, string> } = reader) =>
  app.inject({ method: 'GET', url: `/api/admin/job-applications/${id}/timeline`, headers: who.headers });
const note = (id: number, text: unknown, who: { headers: Record<string, string> } = reader) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/job-applications/${id}/notes`,
    headers: who.headers,
    payload: { text },
  });
const kinds = (events: TimelineEvent[]) => events.map((e) => e.kind);
const mailsTo = (address: string, kind?: string) => {
  let query = app.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', address);
  if (kind) query = query.where('kind', '=', kind);
  return query.execute();
};

describe('an application timeline', () => {
  it('is for staff who may read applications: 401 signed out, 403 without, 404 for no such application', async () => {
    const id = await apply();
    expect((await timeline(id, { headers: {} })).statusCode).toBe(401);
    expect((await timeline(id, outsider)).statusCode).toBe(403);
    expect((await note(id, 'A note', outsider)).statusCode).toBe(403);
    expect((await timeline(2_147_483_647)).statusCode).toBe(404);
    expect((await note(2_147_483_647, 'A note')).statusCode).toBe(404);
    expect((await timeline(id)).headers['cache-control']).toBe('private, no-store');
  });

  it('tells what happened in time order: received, the acknowledgment, status changes with who, notes, CV views', async () => {
    const id = await apply('Ravi Kumar');
    const version = async () =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/bind-job-applications?applicationid=${id}`,
          headers: reader.headers,
        })
      ).json<{ version: number }[]>()[0]!.version;
    for (const status of ['Reviewed', 'Interview']) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/admin/job-applications/${id}/status`,
        headers: { ...manager.headers, 'if-match': `"${await version()}"` },
        payload: { status },
      });
      expect(res.statusCode).toBe(200);
    }
    expect((await note(id, 'Strong portfolio.\nCall on Monday.')).statusCode).toBe(201);
    const { key } = await app.db
      .selectFrom('job_application')
      .select('resume as key')
      .where('application_id', '=', id)
      .executeTakeFirstOrThrow();
    // the detail asks for the CV's address as it opens: nothing is logged until the file is read
    const addressOf = async () => {
      const answer = await app.inject({
        method: 'GET',
        url: `/api/GetPresignedUrl?s3_key=${encodeURIComponent(key)}`,
        headers: reader.headers,
      });
      expect(answer.statusCode).toBe(200);
      return answer.json<{ url: string }>().url;
    };
    for (let i = 0; i < 3; i++) await addressOf();
    expect(kinds((await timeline(id)).json<Timeline>().events)).not.toContain('cv');
    // read three times in one sitting: one view, counted three times
    for (let i = 0; i < 3; i++) expect((await app.inject(await addressOf())).statusCode).toBe(200);

    const res = await timeline(id);
    expect(res.statusCode).toBe(200);
    const { events } = res.json<Timeline>();
    expect(kinds(events)).toEqual(['received', 'mail', 'status', 'status', 'note', 'cv']);
    expect(events[1]).toMatchObject({
      kind: 'mail',
      mail: 'application-ack',
      status: 'pending',
      sent_at: null,
    });
    expect(events[2]).toMatchObject({ kind: 'status', by: manager.email, from: 'New', to: 'Reviewed' });
    expect(events[3]).toMatchObject({ kind: 'status', from: 'Reviewed', to: 'Interview' });
    expect(events[4]).toMatchObject({
      kind: 'note',
      by: reader.email,
      text: 'Strong portfolio.\nCall on Monday.',
    });
    expect(events[5]).toMatchObject({ kind: 'cv', by: reader.email, count: 3 });
    const times = events.map((e) => e.at);
    expect([...times].sort()).toEqual(times);
  });

  it('says where a candidate reply goes: nowhere while HIRING_REPLY_TO is unset, else there; the Mail screen says both', async () => {
    const id = await apply();
    expect((await timeline(id)).json<Timeline>().replies_to).toBeNull();
    const owner = await signInAs(app, { role: 'owner' });
    const settings = await app.inject({ url: '/api/admin/mail/settings', headers: owner.headers });
    expect(settings.json()).toEqual({
      sends: false,
      from: app.config.MAIL_FROM,
      contact_reply_to: null,
      hiring_reply_to: null,
    });
    expect((await app.inject({ url: '/api/admin/mail/settings', headers: reader.headers })).statusCode).toBe(
      403,
    );
    const configured = await createTestApp({
      HIRING_REPLY_TO: 'hiring@manna.example',
      CONTACT_REPLY_TO: 'hello@manna.example',
    });
    try {
      const who = await signInAs(configured, { role: 'owner' });
      expect(
        (await configured.inject({ url: '/api/admin/mail/settings', headers: who.headers })).json(),
      ).toMatchObject({
        contact_reply_to: 'hello@manna.example',
        hiring_reply_to: 'hiring@manna.example',
      });
    } finally {
      await configured.close();
    }
  });

  it('names people by the display name they chose', async () => {
    const id = await apply();
    await app.db
      .updateTable('admin_user')
      .set({ display_name: 'Asha M.' })
      .where('user_id', '=', reader.userId)
      .execute();
    await note(id, 'Named');
    const { events } = (await timeline(id)).json<Timeline>();
    expect(events.at(-1)).toMatchObject({ kind: 'note', by: 'Asha M.' });
    await app.db
      .updateTable('admin_user')
      .set({ display_name: '' })
      .where('user_id', '=', reader.userId)
      .execute();
  });
});

describe('notes', () => {
  it('keeps the text as typed but without control characters or trailing spaces; refuses empty and too long', async () => {
    const id = await apply();
    const res = await note(id, '  Line one   \r\nline\u0000 two\u0007  ');
    expect(res.statusCode).toBe(201);
    expect(res.json<{ timeline: Timeline }>().timeline.events.at(-1)).toMatchObject({
      kind: 'note',
      text: 'Line one\nline two',
    });
    const empty = await note(id, ' \u0000\n\t ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ codes: { text: 'noteEmpty' } });
    const long = await note(id, 'x'.repeat(5001));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ codes: { text: 'noteTooLong' } });
    // characters, not UTF-16 units: 5,000 emoji fit
    expect((await note(id, '😀'.repeat(5000))).statusCode).toBe(201);
    expect((await note(id, 42)).statusCode).toBe(400);
    // a note is audited without its text
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['detail'])
      .where('action', '=', 'note')
      .where('entity_id', '=', String(id))
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit.every((a) => a.detail === null)).toBe(true);
  });

  it('keeps every note two colleagues write at the same moment', async () => {
    const id = await apply();
    const writes = Array.from({ length: 12 }, (_, i) => note(id, `note ${i}`, i % 2 ? reader : colleague));
    expect((await Promise.all(writes)).map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const { events } = (await timeline(id)).json<Timeline>();
    const texts = events.flatMap((e) => (e.kind === 'note' ? [e.text] : []));
    expect(texts.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `note ${i}`).sort());
  });

  it('mails a notice to a mentioned colleague who may read applications, never to others or the writer', async () => {
    const id = await apply('Meera Nair');
    const handle = (who: Who) => who.email.split('@')[0];
    const res = await note(
      id,
      `@${handle(colleague)} please look at the portfolio. Cc @${handle(outsider)}, @${handle(reader)} and @nobody. ` +
        `Mail ${colleague.email} is not a mention.`,
    );
    expect(res.statusCode).toBe(201);
    const added = res.json<{ timeline: Timeline }>().timeline;
    expect(added.events.at(-1)).toMatchObject({ kind: 'note', mentioned: [colleague.email] });
    // whom the writer may mention: colleagues who read applications, not themselves
    const handles = added.colleagues.map((c) => c.handle);
    expect(handles).toContain(handle(colleague));
    expect(handles).toContain(handle(manager));
    expect(handles).not.toContain(handle(reader));
    expect(handles).not.toContain(handle(outsider));

    const [notice, ...more] = await mailsTo(colleague.email, 'mention-notice');
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ kind: 'mention-notice', application_id: null });
    expect(notice!.subject).toBe(`${reader.email} mentioned you on an application for Copy Editor`);
    expect(notice!.text_body).toContain(`/admin/job_applications?application=${id}`);
    expect(notice!.text_body).toContain('Meera Nair');
    // the note itself stays in the back office
    expect(notice!.text_body).not.toContain('portfolio');
    expect(await mailsTo(outsider.email, 'mention-notice')).toEqual([]);
    expect(await mailsTo(reader.email, 'mention-notice')).toEqual([]);
    // the notice is not on the candidate's timeline: it went to staff
    expect(kinds((await timeline(id)).json<Timeline>().events)).toEqual(['received', 'mail', 'note']);
  });

  it('goes with the application: deleting it deletes its notes and the mails to its candidate', async () => {
    const id = await apply('Joseph Thomas', 'joseph.thomas@example.org');
    await note(id, 'To be deleted');
    const csv = await app.inject({
      method: 'GET',
      url: '/api/admin/job-applications/export.csv?search=Joseph',
      headers: reader.headers,
    });
    expect(csv.body).toMatch(/,"?\d{4}-\d{2}-\d{2}T[^,]+, user-[0-9a-f]+@example\.test: To be deleted"?\r\n/);
    expect(await mailsTo('joseph.thomas@example.org')).toHaveLength(1);
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/admin/job-applications/${id}`,
      headers: manager.headers,
    });
    expect(del.statusCode).toBe(200);
    expect(await mailsTo('joseph.thomas@example.org')).toEqual([]);
    const notes = await app.db
      .selectFrom('application_note')
      .select('note_id')
      .where('application_id', '=', id)
      .execute();
    expect(notes).toEqual([]);
  });
});
