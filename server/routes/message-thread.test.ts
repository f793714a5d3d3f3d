import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContactMessageRow } from '../../contract/admin-messages';
import type { Timeline } from '../../contract/application-timeline';
import { signInAs } from '../lib/auth-testing';
import { startTestSmtp, type TestSmtp } from '../mail/smtp-testing';
import { createTestApp } from '../testing';

/**
 * Answering contact messages from the inbox (docs/decisions/026-application-timeline.md), against a real SMTP server, on SQLite and
 * on PostgreSQL when TEST_DATABASE_URL is set: replies through the outbox with Reply-To and the
 * message quoted, the thread with delivery states, assignment with its notice, version and
 * filter, every role against each rule, and everything deleted with the message.
 */

let app: FastifyInstance;
let smtp: TestSmtp;
type Who = Awaited<ReturnType<typeof signInAs>>;
let reader: Who;
let manager: Who;
let colleague: Who;
let outsider: Who;

beforeAll(async () => {
  smtp = await startTestSmtp();
  app = await createTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Manna <no-reply@manna.example>',
    CONTACT_REPLY_TO: 'hello@manna.example',
  });
  await app.ready();
  reader = await signInAs(app, { permissions: ['messages.read'] });
  manager = await signInAs(app, { permissions: ['messages.read', 'messages.manage'] });
  colleague = await signInAs(app, { permissions: ['messages.read'] });
  outsider = await signInAs(app, { permissions: ['applications.read'] });
});
afterAll(async () => {
  await app.close();
  await smtp.stop();
});

async function write(name: string, email: string, message: string, lang = 'en') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/contact-messages',
    payload: { name, email, company: '', message, lang },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ message_id: number }>().message_id;
}

const list = (query: string, who: Who = manager) =>
  app.inject({ method: 'GET', url: `/api/admin/contact-messages?${query}`, headers: who.headers });
const rowOf = async (id: number, who: Who = manager) =>
  (await list('pagesize=100', who)).json<ContactMessageRow[]>().find((r) => r.message_id === id)!;
const reply = (id: number, text: unknown, who: Who = manager) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/contact-messages/${id}/replies`,
    headers: who.headers,
    payload: { text },
  });
const assign = (id: number, userId: number | null, version: number, who: Who = manager) =>
  app.inject({
    method: 'PUT',
    url: `/api/admin/contact-messages/${id}/assignee`,
    headers: { ...who.headers, 'if-match': `"${version}"` },
    payload: { user_id: userId },
  });
const thread = (id: number, who: Who = reader) =>
  app.inject({ method: 'GET', url: `/api/admin/contact-messages/${id}/timeline`, headers: who.headers });

describe('a reply to a message', () => {
  it('goes to the writer in their language with Reply-To the contact address and their message quoted', async () => {
    const id = await write(
      'Amélie Durand',
      'amelie@revue.example',
      'Bonjour,\nune démonstration {{name}} ?',
      'fr',
    );
    expect((await reply(id, 'Avec plaisir', reader)).statusCode).toBe(403);
    expect((await reply(id, 'Avec plaisir', outsider)).statusCode).toBe(403);
    expect((await reply(id, ' \u0000 ')).json()).toMatchObject({ codes: { text: 'textEmpty' } });
    expect((await reply(id, 'x'.repeat(10_001))).json()).toMatchObject({ codes: { text: 'textTooLong' } });
    expect((await reply(2_147_483_647, 'Hello')).statusCode).toBe(404);

    const before = await rowOf(id);
    expect(before.handled).toBe(false);
    // what the open screens hear: the reply, then its delivery (the thread's Queued becomes Sent)
    const heard: string[] = [];
    const stop = app.events.on('*', (e) => {
      if (e.type === 'mail.delivery') heard.push(`delivery:${e.status}`);
      if (e.type === 'message.changed' && e.message_id === id) heard.push('message.changed');
    });
    const res = await reply(id, 'Bonjour Amélie,\n\nAvec plaisir : mardi à 10 h ?\nÀ bientôt, <b>Asha</b>');
    expect(res.statusCode).toBe(201);
    // a message answered is handled, and the answer carries it at its new version
    const answered = res.json<{ row: ContactMessageRow }>().row;
    expect(answered).toMatchObject({ message_id: id, handled: true, version: before.version! + 1, replies: 1 });
    expect(await rowOf(id)).toMatchObject({ handled: true, version: answered.version });
    // the thread says where the writer's answer goes: the contact Reply-To
    expect(res.json<{ timeline: Timeline }>().timeline.replies_to).toBe('hello@manna.example');
    const mailEvents = res.json<{ timeline: Timeline }>().timeline.events.filter((e) => e.kind === 'mail');
    expect(mailEvents).toEqual([
      expect.objectContaining({
        mail: 'message-reply',
        by: manager.email,
        to: 'amelie@revue.example',
        subject: 'Re : votre message à Manna',
        text: 'Bonjour Amélie,\n\nAvec plaisir : mardi à 10 h ?\nÀ bientôt, <b>Asha</b>',
      }),
    ]);
    await expect
      .poll(
        () => smtp.to('amelie@revue.example').find((m) => m.parsed.subject === 'Re : votre message à Manna'),
        { timeout: 15_000 },
      )
      .toBeTruthy();
    const mail = smtp
      .to('amelie@revue.example')
      .find((m) => m.parsed.subject === 'Re : votre message à Manna')!;
    expect(mail.parsed.replyTo?.value).toEqual([{ name: '', address: 'hello@manna.example' }]);
    const text = mail.parsed.text ?? '';
    expect(text).toContain('Avec plaisir : mardi à 10 h ?\nÀ bientôt, <b>Asha</b>');
    expect(text).toMatch(new RegExp(`Le \\d{1,2} (${MONTHS.fr.join('|')}) \\d{4}, vous avez écrit :`));
    // the writer's words are quoted as they are: a brace is no placeholder
    expect(text).toContain('> Bonjour,\n> une démonstration {{name}} ?');
    expect(mail.parsed.html).toContain('À bientôt, &lt;b&gt;Asha&lt;/b&gt;');
    // the thread shows it sent, and the list counts it
    await expect
      .poll(async () => (await thread(id)).json<Timeline>().events.find((e) => e.kind === 'mail')?.status, {
        timeout: 15_000,
      })
      .toBe('sent');
    expect((await rowOf(id)).replies).toBe(1);
    await vi.waitFor(() => expect(heard.slice(-2)).toEqual(['delivery:sent', 'message.changed']));
    expect(heard[0]).toBe('message.changed'); // the reply itself
    stop();
  });
});

/** The months as a reader of each language writes them (not from Intl: what Intl prints is under test). */
const MONTHS = {
  en: 'January February March April May June July August September October November December'.split(' '),
  fr: 'janvier février mars avril mai juin juillet août septembre octobre novembre décembre'.split(' '),
  de: 'Januar Februar März April Mai Juni Juli August September Oktober November Dezember'.split(' '),
  es: 'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre'.split(' '),
};
/** The quote's first line, as a reader of the language sees it, for the 15th of a month of 2026. */
const QUOTE_LINE: Record<string, (month: number) => RegExp> = {
  en: (m) => new RegExp(`^On ${MONTHS.en[m]} 15, 2026 you wrote:$`, 'm'),
  fr: (m) => new RegExp(`^Le 15 ${MONTHS.fr[m]} 2026, vous avez écrit :$`, 'm'),
  de: (m) => new RegExp(`^Am 15\\. ${MONTHS.de[m]} 2026 schrieben Sie:$`, 'm'),
  es: (m) => new RegExp(`^El 15 de ${MONTHS.es[m]} de 2026 escribiste:$`, 'm'),
  // Malayalam's month names are ICU's to spell (they differ between ICU versions): the year, a
  // word of Malayalam letters and marks, the day
  ml: () => /^2026 [\p{L}\p{M}\u200c\u200d]+ 15-ന് നിങ്ങൾ എഴുതി:$/mu,
};

describe('the quoted date', () => {
  it('reads as the writer reads it for every month in every language', async () => {
    // no mail server: the replies stay in the outbox, text as it will be sent
    const quiet = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '1000' });
    try {
      const staff = await signInAs(quiet, { permissions: ['messages.read', 'messages.manage'] });
      for (const lang of Object.keys(QUOTE_LINE)) {
        const lines = new Set<string>();
        for (let month = 0; month < 12; month++) {
          const to = `writer-${lang}-${month}@months.example`;
          // the message arrives on the 15th of the month (a fake clock for the contact form only)
          vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, month, 15, 12) });
          const posted = await quiet.inject({
            method: 'POST',
            url: '/api/contact-messages',
            payload: { name: `Writer ${month}`, email: to, company: '', message: 'Hello', lang },
          });
          vi.useRealTimers();
          expect(posted.statusCode).toBe(201);
          const id = posted.json<{ message_id: number }>().message_id;
          const replied = await quiet.inject({
            method: 'POST',
            url: `/api/admin/contact-messages/${id}/replies`,
            headers: staff.headers,
            payload: { text: 'Thank you' },
          });
          expect(replied.statusCode).toBe(201);
          const { text_body } = await quiet.db
            .selectFrom('mail_outbox')
            .select('text_body')
            .where('to_address', '=', to)
            .where('kind', '=', 'message-reply')
            .executeTakeFirstOrThrow();
          const line = text_body.split('\n').find((l) => QUOTE_LINE[lang](month).test(l));
          expect(line, `${lang}, month ${month + 1}:\n${text_body}`).toBeDefined();
          lines.add(line!);
        }
        // twelve months, twelve different lines
        expect(lines.size, lang).toBe(12);
      }
    } finally {
      vi.useRealTimers();
      await quiet.close();
    }
  });
});

describe('assigning a message', () => {
  it('assigns to a colleague who may read messages, at the version shown, and mails them a notice', async () => {
    const id = await write('Jonas Weber', 'jonas@verlag.example', 'Do you support JATS XML?');
    const first = await rowOf(id);
    expect(first).toMatchObject({ assignee_id: null, assignee: null, replies: 0 });
    expect((await assign(id, colleague.userId, first.version!, reader)).statusCode).toBe(403);
    expect((await assign(id, outsider.userId, first.version!)).json()).toMatchObject({
      codes: { user_id: 'assigneeInvalid' },
    });
    const res = await assign(id, colleague.userId, first.version!);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ row: { assignee_id: colleague.userId, assignee: colleague.email } });
    const late = await assign(id, manager.userId, first.version!);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      current: { assignee_id: colleague.userId },
      changed_by: manager.email,
    });

    await expect
      .poll(
        () =>
          smtp
            .to(colleague.email)
            .some((m) => m.parsed.subject === `${manager.email} assigned you a message`),
        { timeout: 15_000 },
      )
      .toBe(true);
    const notice = smtp.to(colleague.email).find((m) => m.parsed.subject?.includes('assigned you'))!;
    expect(notice.parsed.text).toContain(`/admin/messages?message=${id}`);
    // the writer's name is in the body, as typed, never in the subject
    expect(notice.parsed.text).toContain('Jonas Weber');
    expect(notice.parsed.text).not.toContain('JATS');

    // the filters: mine, nobody's, a colleague's
    const ids = async (query: string, who: Who = manager) =>
      (await list(`pagesize=100&${query}`, who)).json<ContactMessageRow[]>().map((r) => r.message_id);
    // one message alone (a notice's link), with or without the other filters; a bad id is refused
    expect(await ids(`messageid=${id}`)).toEqual([id]);
    expect(await ids(`messageid=${id}&handled=true`)).toEqual([]);
    expect(await ids('messageid=2147483647')).toEqual([]);
    expect((await list('messageid=2147483648')).statusCode).toBe(400);
    expect((await list('messageid=-1')).statusCode).toBe(400);
    expect(await ids('assignee=me', colleague)).toContain(id);
    expect(await ids('assignee=me', manager)).not.toContain(id);
    expect(await ids(`assignee=${colleague.userId}`)).toContain(id);
    expect(await ids('assignee=none')).not.toContain(id);
    expect((await list('assignee=someone')).statusCode).toBe(400);

    // to nobody, and the thread tells both
    const now = await rowOf(id);
    expect((await assign(id, null, now.version!)).json()).toMatchObject({ row: { assignee_id: null } });
    expect(await ids('assignee=none')).toContain(id);
    const events = (await thread(id)).json<Timeline>().events;
    expect(events.map((e) => (e.kind === 'assigned' ? `${e.by} -> ${e.to}` : e.kind))).toEqual([
      'received',
      `${manager.email} -> ${colleague.email}`,
      `${manager.email} -> `,
    ]);
    // who may be assigned: those who read messages
    const people = (
      await app.inject({
        method: 'GET',
        url: '/api/admin/contact-messages/assignees',
        headers: reader.headers,
      })
    ).json<{ user_id: number }[]>();
    expect(people.map((p) => p.user_id)).toEqual(expect.arrayContaining([reader.userId, colleague.userId]));
    expect(people.map((p) => p.user_id)).not.toContain(outsider.userId);
  });

  it('goes with the message: deleting it deletes its replies and their mails', async () => {
    const id = await write('Meera Nair', 'meera@example.org', 'Please delete my data.');
    expect((await reply(id, 'Done soon.')).statusCode).toBe(201);
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/admin/contact-messages/${id}`,
      headers: manager.headers,
    });
    expect(del.statusCode).toBe(200);
    expect(
      await app.db.selectFrom('message_reply').select('reply_id').where('message_id', '=', id).execute(),
    ).toEqual([]);
    const kept = await app.db
      .selectFrom('mail_outbox')
      .select('kind')
      .where('to_address', '=', 'meera@example.org')
      .execute();
    // the acknowledgment stays in the outbox (as before); the reply, which quotes the message, does not
    expect(kept.map((m) => m.kind)).toEqual(['message-ack']);
    expect((await thread(id)).statusCode).toBe(404);
  });
});
