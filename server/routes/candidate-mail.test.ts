import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Timeline } from '../../contract/application-timeline';
import type { CandidateMailTemplate } from '../../contract/candidate-mail';
import { samplePdf } from '../../tests/fixtures/files';
import { multipart } from '../../tests/fixtures/multipart';
import { addOpening } from '../db/application-list.testing';
import { signInAs } from '../lib/auth-testing';
import { startTestSmtp, type TestSmtp } from '../mail/smtp-testing';
import { createTestApp } from '../testing';

/**
 * Mails staff write to a candidate (docs/decisions/026-application-timeline.md), against a real SMTP server, on SQLite and on
 * PostgreSQL when TEST_DATABASE_URL is set: templates per language with their placeholders
 * checked and their versions, the mail filled from the application, escaped, in the outbox with
 * Reply-To HIRING_REPLY_TO, and on the timeline with who wrote it; every role against each rule.
 */

let app: FastifyInstance;
let smtp: TestSmtp;
let jobId: number;
type Who = Awaited<ReturnType<typeof signInAs>>;
let reader: Who;
let manager: Who;

beforeAll(async () => {
  smtp = await startTestSmtp();
  app = await createTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Manna <no-reply@manna.example>',
    HIRING_REPLY_TO: 'jobs@manna.example',
  });
  await app.ready();
  jobId = await addOpening(app, 'Copy Editor');
  reader = await signInAs(app, { permissions: ['applications.read'] });
  manager = await signInAs(app, { permissions: ['applications.read', 'applications.manage'] });
});
afterAll(async () => {
  await app.close();
  await smtp.stop();
});

async function apply(name: string, email: string, lang = 'en') {
  const { body, contentType } = multipart([
    { name: 'job_id', value: String(jobId) },
    { name: 'full_name', value: name },
    { name: 'email', value: email },
    { name: 'contact_number', value: '9876543210' },
    { name: 'address', value: '12 MG Road, Kochi' },
    { name: 'consent', value: 'true' },
    { name: 'lang', value: lang },
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

const templates = (lang: string, who: { headers: Record<string, string> } = reader) =>
  app.inject({
    method: 'GET',
    url: `/api/admin/candidate-mail-templates?lang=${lang}`,
    headers: who.headers,
  });
const saveTemplate = (template: string, lang: string, body: object, version: number, who: Who = manager) =>
  app.inject({
    method: 'PUT',
    url: `/api/admin/candidate-mail-templates/${template}/${lang}`,
    headers: { ...who.headers, 'if-match': `"${version}"` },
    payload: body,
  });
const send = (id: number, body: object, who: Who = manager) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/job-applications/${id}/mails`,
    headers: who.headers,
    payload: body,
  });

describe('candidate mail templates', () => {
  it('gives each language the site’s words until staff save their own', async () => {
    expect((await templates('fr', { headers: {} })).statusCode).toBe(401);
    const fr = (await templates('fr')).json<CandidateMailTemplate[]>();
    expect(fr.map((t) => [t.template, t.version])).toEqual([
      ['invite', 1],
      ['next', 1],
      ['reject', 1],
    ]);
    expect(fr[2]!.subject).toBe('Votre candidature au poste {{job}}');
    expect(fr[2]!.body).toContain('Bonjour {{name}},');
    expect((await templates('xx')).statusCode).toBe(400);
  });

  it('saves a template with the right version and known placeholders only; managers only', async () => {
    const text = { subject: 'Interview: {{job}}', body: 'Hello {{ name }},\n\nCome and meet {{company}}.' };
    expect((await saveTemplate('invite', 'en', text, 1, reader)).statusCode).toBe(403);
    const wrong = await saveTemplate('invite', 'en', { ...text, body: 'Your salary: {{salary}}' }, 1);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ codes: { body: 'unknownPlaceholder' } });
    expect((await saveTemplate('invite', 'en', { ...text, subject: ' ' }, 1)).json()).toMatchObject({
      codes: { subject: 'subjectRequired' },
    });
    const saved = await saveTemplate('invite', 'en', text, 1);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ template: { version: 2, subject: 'Interview: {{job}}' } });
    // a colleague who saved from the default words meanwhile is told, with the template as it is
    const late = await saveTemplate('invite', 'en', { ...text, subject: 'Late' }, 1);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ current: { version: 2, subject: 'Interview: {{job}}' } });
    expect((await saveTemplate('invite', 'en', { ...text, subject: 'Second' }, 2)).statusCode).toBe(200);
    const en = (await templates('en')).json<CandidateMailTemplate[]>();
    expect(en[0]).toMatchObject({ template: 'invite', subject: 'Second', version: 3 });
    // other languages keep their own
    expect((await templates('de')).json<CandidateMailTemplate[]>()[0]!.version).toBe(1);
    expect((await saveTemplate('blank', 'en', text, 1)).statusCode).toBe(400);
  });
});

describe('a mail to a candidate', () => {
  it('is sent with the placeholders filled, escaped, with Reply-To the hiring address, and shown on the timeline', async () => {
    const id = await apply('Jonas <b>Weber</b>', 'jonas@verlag.example', 'de');
    const rows = await app.inject({
      method: 'GET',
      url: `/api/bind-job-applications?applicationid=${id}`,
      headers: reader.headers,
    });
    expect(rows.json()[0]).toMatchObject({ lang: 'de' });
    const mail = {
      subject: 'Ihre Bewerbung als {{job}}',
      body: 'Guten Tag {{name}},\n\nvielen Dank.\nBis bald!\n\nIhr Team von {{company}}',
      lang: 'de',
      template: 'reject',
    };
    expect((await send(id, mail, reader)).statusCode).toBe(403);
    expect((await send(id, { ...mail, body: '{{salary}}' })).json()).toMatchObject({
      codes: { body: 'unknownPlaceholder' },
    });
    expect((await send(2_147_483_647, mail)).statusCode).toBe(404);
    const res = await send(id, mail);
    expect(res.statusCode).toBe(201);
    const { events } = res.json<{ timeline: Timeline }>().timeline;
    expect(events.filter((e) => e.kind === 'mail')).toEqual([
      expect.objectContaining({ mail: 'application-ack', by: '' }),
      expect.objectContaining({
        mail: 'candidate-mail',
        by: manager.email,
        subject: 'Ihre Bewerbung als Copy Editor',
        to: 'jonas@verlag.example',
      }),
    ]);

    await expect
      .poll(
        () =>
          smtp.to('jonas@verlag.example').some((m) => m.parsed.subject === 'Ihre Bewerbung als Copy Editor'),
        { timeout: 15_000 },
      )
      .toBe(true);
    const received = smtp
      .to('jonas@verlag.example')
      .find((m) => m.parsed.subject === 'Ihre Bewerbung als Copy Editor')!;
    expect(received).toBeDefined();
    expect(received.parsed.replyTo?.value).toEqual([{ name: '', address: 'jobs@manna.example' }]);
    expect(received.parsed.text).toContain(
      'Guten Tag Jonas <b>Weber</b>,\n\nvielen Dank.\nBis bald!\n\nIhr Team von Manna',
    );
    expect(received.parsed.html).toContain(
      'Guten Tag Jonas &lt;b&gt;Weber&lt;/b&gt;,</p><p>vielen Dank.<br>Bis bald!</p>',
    );
    expect(received.parsed.html).not.toContain('<b>Weber');
    // audited without its words
    const audit = await app.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'mail')
      .where('entity_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail!)).toEqual({ template: 'reject', lang: 'de' });
    // the timeline shows it sent once the mail server took it
    await expect
      .poll(
        async () => {
          const t = (
            await app.inject({
              method: 'GET',
              url: `/api/admin/job-applications/${id}/timeline`,
              headers: reader.headers,
            })
          ).json<Timeline>();
          return t.events.filter((e) => e.kind === 'mail' && e.status === 'sent').length;
        },
        { timeout: 15_000 },
      )
      .toBe(2);
  });
});
