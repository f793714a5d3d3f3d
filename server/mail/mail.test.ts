import type { UserRow } from '../../contract/auth';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD_LINK_MESSAGES as L } from '../../contract/mail';
import { samplePdf } from '../../tests/fixtures/files';
import { multipart } from '../../tests/fixtures/multipart';
import { addOpening } from '../db/application-list.testing';
import { sameOrigin, signInAs } from '../lib/auth-testing';
import { runDigestTask } from '../plugins/mail';
import { createTestApp } from '../testing';
import { loadConfig } from '../config';
import { sendDueMail, smtpTransport } from './sender';
import { startTestSmtp, type TestSmtp } from './smtp-testing';

/**
 * Email end to end against a real SMTP server on loopback (mail/smtp-testing.ts): what each
 * change sends, to whom, in which language, with which links; password links; the outbox when
 * the mail server is away; and what a visitor types cannot reach a header.
 */

const PUBLIC_URL = 'https://manna.example';

const forgot = (app: FastifyInstance, email: string, lang?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    headers: { origin: sameOrigin(app) },
    payload: lang ? { email, lang } : { email },
  });
const resetWith = (app: FastifyInstance, token: string, password: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    headers: { origin: sameOrigin(app) },
    payload: { token, password },
  });
const signIn = (app: FastifyInstance, email: string, password: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { origin: sameOrigin(app) },
    payload: { email, password },
  });

const contact = (app: FastifyInstance, payload: Record<string, string>) =>
  app.inject({ method: 'POST', url: '/api/contact-messages', payload });

function apply(app: FastifyInstance, fields: Record<string, string>) {
  const { body, contentType } = multipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'resume', filename: 'cv.pdf', type: 'application/pdf', data: samplePdf() },
  ]);
  return app.inject({
    method: 'POST',
    url: '/api/manage-job-applications',
    payload: body,
    headers: { 'content-type': contentType },
  });
}

const outbox = (app: FastifyInstance) =>
  app.db.selectFrom('mail_outbox').selectAll().orderBy('mail_id').execute();
const linkIn = (text: string) =>
  /https:\/\/manna\.example\/admin\/reset-password\?token=[\w-]+(&invite=1)?/.exec(text)?.[0];
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('mail through a real SMTP server', () => {
  let smtp: TestSmtp;
  let app: FastifyInstance;
  beforeEach(async () => {
    smtp = await startTestSmtp();
    app = await createTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL,
      MAIL_FROM: 'Manna <hello@manna.example>',
      MAIL_RETRY_SECONDS: '1',
    });
    await app.ready();
  });
  afterEach(async () => {
    await app?.close();
    await smtp?.stop();
  });

  it('acknowledges a contact message in the writer language and tells the staff who chose it', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const editor = await signInAs(app, { role: 'editor' }); // may not read messages: no notice
    const quiet = await signInAs(app, { role: 'recruiter' });
    expect(
      (
        await app.inject({
          method: 'PATCH',
          url: '/api/auth/notices',
          headers: { ...quiet.headers, 'if-match': '"1"' },
          payload: { messages: 'off' },
        })
      ).statusCode,
    ).toBe(200);

    const res = await contact(app, {
      name: 'Amélie Durand',
      email: 'Amelie@Revue.example',
      company: 'Revue de botanique',
      message: 'Bonjour, nous aimerions une démonstration du flux de relecture.',
      lang: 'fr',
    });
    expect(res.statusCode).toBe(201);
    await smtp.waitFor(2);

    const [ack] = smtp.to('amelie@revue.example');
    expect(ack.parsed.subject).toBe('Nous avons bien reçu votre message');
    expect(ack.parsed.text).toContain('Bonjour Amélie Durand,');
    expect(ack.parsed.text).toContain('730 jours');
    expect(ack.parsed.text).toContain(`${PUBLIC_URL}/contact`);
    expect(ack.parsed.html).toContain('<html lang="fr">');
    expect(ack.parsed.from?.value).toEqual([{ name: 'Manna', address: 'hello@manna.example' }]);
    expect(ack.parsed.messageId).toMatch(/^<[\w-]+@manna\.example>$/);

    const [notice] = smtp.to(owner.email);
    // what a visitor typed stays out of the subject; the body quotes it as typed
    expect(notice.parsed.subject).toBe('New message through the contact form');
    expect(notice.parsed.text).toContain('Name as typed on the form: “Amélie Durand”');
    // the message itself: the inbox shows it alone with its thread open
    expect(notice.parsed.text).toContain(`${PUBLIC_URL}/admin/messages?message=${res.json().message_id}`);
    // the notice names the writer and links to the back office; it does not copy the message or address
    expect(notice.parsed.text).not.toContain('démonstration');
    expect(notice.parsed.text).not.toContain('revue.example');
    expect(smtp.to(editor.email)).toHaveLength(0);
    expect(smtp.to(quiet.email)).toHaveLength(0);

    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received).toHaveLength(2);
    expect((await outbox(app)).map((m) => m.status)).toEqual(['sent', 'sent']);
  });

  it('acknowledges an application in the candidate language and sends a notice without the CV', async () => {
    const recruiter = await signInAs(app, { role: 'recruiter' });
    const digest = await signInAs(app, { role: 'owner' });
    await app.inject({
      method: 'PATCH',
      url: '/api/auth/notices',
      headers: { ...digest.headers, 'if-match': '"1"' },
      payload: { applications: 'digest', messages: 'digest', lang: 'de' },
    });
    const jobId = await addOpening(app, 'Managing Editor');
    const res = await apply(app, {
      job_id: String(jobId),
      full_name: 'Jonas Weber',
      email: 'jonas@verlag.example',
      contact_number: '0301234567',
      address: 'Hauptstraße 1, Berlin',
      consent: 'true',
      lang: 'de',
    });
    expect(res.statusCode, res.body).toBe(201);
    await smtp.waitFor(2);
    const [ack] = smtp.to('jonas@verlag.example');
    expect(ack.parsed.subject).toBe('Wir haben Ihre Bewerbung für Managing Editor erhalten');
    expect(ack.parsed.text).toContain('365 Tage');
    expect(ack.parsed.attachments).toHaveLength(0);

    const [notice] = smtp.to(recruiter.email);
    expect(notice.parsed.subject).toBe('New application: Managing Editor');
    expect(notice.parsed.text).toContain(
      'A candidate applied for Managing Editor through the careers page. Name as typed on the form: “Jonas Weber”',
    );
    // the notice links to the application itself, not to a day's list
    const { application_id } = res.json<{ application_id: number }>();
    expect(notice.parsed.text).toContain(
      `${PUBLIC_URL}/admin/job_applications?application=${application_id}`,
    );
    expect(notice.parsed.attachments).toHaveLength(0);
    expect(notice.parsed.text).not.toContain('0301234567');
    expect(notice.parsed.text).not.toContain('jonas@verlag.example');
    // the digest reader gets nothing now, and one mail a day in their language
    expect(smtp.to(digest.email)).toHaveLength(0);

    expect(await runDigestTask(app, new Date(Date.now() + 1000))).toBe(1);
    expect(await runDigestTask(app, new Date(Date.now() + 2000))).toBe(0); // once a day
    app.mail.poke();
    await smtp.waitFor(3);
    const [daily] = smtp.to(digest.email);
    expect(daily.parsed.subject).toBe('Manna: Was seit gestern eingegangen ist');
    expect(daily.parsed.text).toContain('Neue Bewerbungen: 1');
    expect(daily.parsed.text).toContain('- Jonas Weber für Managing Editor');
    expect(daily.parsed.text).not.toContain('Neue Nachrichten');
  });

  it('gives acknowledgments the Reply-To of a person (CONTACT_REPLY_TO, HIRING_REPLY_TO), and staff notices none', async () => {
    const [ack] = await (async () => {
      await contact(app, {
        name: 'Ravi Nair',
        email: 'ravi@press.example',
        message: 'Hello there, a demo please?',
      });
      await smtp.waitFor(1);
      return smtp.to('ravi@press.example');
    })();
    expect(ack.parsed.replyTo).toBeUndefined(); // unset: an answer goes to MAIL_FROM

    const replying = await createTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL,
      MAIL_FROM: 'Manna <no-reply@manna.example>',
      CONTACT_REPLY_TO: 'hello@manna.example',
      HIRING_REPLY_TO: 'jobs@manna.example',
    });
    try {
      await replying.ready();
      const owner = await signInAs(replying, { role: 'owner' });
      const before = smtp.received.length;
      expect(
        (
          await contact(replying, {
            name: 'Amélie Durand',
            email: 'amelie@revue.example',
            message: 'Bonjour, une démonstration ?',
          })
        ).statusCode,
      ).toBe(201);
      const jobId = await addOpening(replying, 'Managing Editor');
      const applied = await apply(replying, {
        job_id: String(jobId),
        full_name: 'Jonas Weber',
        email: 'jonas@verlag.example',
        contact_number: '0301234567',
        address: 'Hauptstraße 1, Berlin',
        consent: 'true',
      });
      expect(applied.statusCode, applied.body).toBe(201);
      await smtp.waitFor(before + 4); // two acknowledgments, two notices to the owner
      expect(smtp.to('amelie@revue.example')[0].parsed.replyTo?.value).toEqual([
        { name: '', address: 'hello@manna.example' },
      ]);
      expect(smtp.to('jonas@verlag.example')[0].parsed.replyTo?.value).toEqual([
        { name: '', address: 'jobs@manna.example' },
      ]);
      const notices = smtp.to(owner.email);
      expect(notices).toHaveLength(2);
      for (const notice of notices) expect(notice.parsed.replyTo).toBeUndefined();
    } finally {
      await replying.close();
    }
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', CONTACT_REPLY_TO: 'not an address' })).toThrow(
      /CONTACT_REPLY_TO/,
    );
  });

  it('keeps what a visitor types out of the headers (CR/LF in names and addresses)', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const res = await contact(app, {
      name: 'Eve\r\nBcc: victim@elsewhere.example\r\nSubject: Free money',
      email: 'eve@attacker.example',
      company: 'X',
      message: 'A message that is long enough to pass the rules of the contact form.',
      lang: 'en',
    });
    if (res.statusCode === 201) {
      await smtp.waitFor(2);
      for (const mail of smtp.received) {
        expect(mail.recipients).not.toContain('victim@elsewhere.example');
        expect(mail.parsed.bcc).toBeUndefined();
        expect(mail.raw.split('\r\n\r\n')[0].match(/^Subject:/gim)).toHaveLength(1);
        expect(String(mail.parsed.subject)).not.toMatch(/[\r\n]/);
        expect(mail.raw.split('\r\n\r\n')[0]).not.toMatch(/^Bcc:/im); // the header section
      }
      expect(smtp.to(owner.email)[0].parsed.subject).toBe('New message through the contact form');
    } else {
      // the contract may refuse such a name outright: then nothing is sent at all
      expect(res.statusCode).toBe(400);
      expect(await outbox(app)).toHaveLength(0);
    }
    // an address with a line break never reaches the outbox
    const bad = await contact(app, {
      name: 'Eve',
      email: 'eve@attacker.example\r\nBcc: victim@elsewhere.example',
      company: 'X',
      message: 'A message that is long enough to pass the rules of the contact form.',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('resets a forgotten password through a single-use link, and ends every session', async () => {
    const user = await signInAs(app, { role: 'editor' });
    const ask = (email: string) => forgot(app, email, 'es');
    expect((await app.inject({ url: '/api/auth/forgot-password' })).json()).toEqual({ available: true });

    // the same answer whether or not the address has an account
    const unknown = await ask('nobody@manna.example');
    const known = await ask(user.email.toUpperCase());
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(known.json()).toEqual({ message: L.sent });

    const [mail] = await smtp.waitFor(1);
    expect(mail.recipients).toEqual([user.email]);
    expect(mail.parsed.subject).toBe('Elija una contraseña nueva para Manna');
    expect(mail.parsed.text).toContain('30 minutos');
    const link = linkIn(mail.parsed.text!)!;
    expect(link).toBeTruthy();
    expect(mail.parsed.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
    const rows = await app.db.selectFrom('password_token').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toBe(tokenOf(link)); // only its hash is kept

    const reset = (token: string, password: string) => resetWith(app, token, password);
    // a weak password is refused without using the link up
    const weak = await reset(tokenOf(link), 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors.password).toBeTruthy();
    const chosen = 'a brand new passphrase for the editor';
    const done = await reset(tokenOf(link), chosen);
    expect(done.json()).toEqual({ message: L.done });

    // the old session ended; the new password signs in; the old one does not
    const me = await app.inject({ url: '/api/auth/me', headers: user.headers });
    expect(me.statusCode).toBe(401);
    const login = (password: string) => signIn(app, user.email, password);
    expect((await login(chosen)).statusCode).toBe(200);
    expect((await login(user.password)).statusCode).toBe(401);

    // used once
    const again = await reset(tokenOf(link), 'yet another passphrase for the editor');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(L.invalid);

    // an expired link is refused with the same clear message
    await ask(user.email);
    const [, second] = await smtp.waitFor(2);
    await app.db
      .updateTable('password_token')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const expired = await reset(tokenOf(linkIn(second.parsed.text!)!), 'an expired link passphrase here');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(L.invalid);
  });

  it('keeps no usable link anywhere but the mailbox: not in the outbox once sent, never on the Mail screen', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const target = await signInAs(app, { role: 'owner' });
    await forgot(app, target.email);
    const [mail] = await smtp.waitFor(1);
    const token = tokenOf(linkIn(mail.parsed.text!)!);
    await expect
      .poll(async () => (await outbox(app)).find((m) => m.kind === 'password-reset')?.status)
      .toBe('sent');
    const row = (await outbox(app)).find((m) => m.kind === 'password-reset')!;
    expect(row.text_body).not.toContain(token);
    expect(row.html_body).not.toContain(token);
    expect(row.text_body).toContain('token=…');

    // a user manager who is not an owner sees that a link went, never the link
    const manager = await signInAs(app, { permissions: ['users.manage'] });
    for (const who of [owner, manager]) {
      const rows = (await app.inject({ url: '/api/admin/mail', headers: who.headers })).json() as {
        preview: string;
        kind: string;
      }[];
      const reset = rows.find((r) => r.kind === 'password-reset')!;
      expect(reset.preview).toContain('token=…');
      expect(JSON.stringify(rows)).not.toContain(token);
    }
    // the link still works for its reader
    const set = await resetWith(app, token, 'the owner chose this one');
    expect(set.statusCode).toBe(200);
  });

  it('shows a user manager only the mail of what their role may read, and sends a link again never', async () => {
    await contact(app, {
      name: 'Private Person',
      email: 'private@journal.example',
      company: 'X',
      message: 'A message that is long enough to pass the rules of the contact form.',
    });
    await smtp.waitFor(1);
    const manager = await signInAs(app, { permissions: ['users.manage'] });
    const reader = await signInAs(app, { permissions: ['users.manage', 'messages.read'] });
    const kinds = async (headers: Record<string, string>) =>
      ((await app.inject({ url: '/api/admin/mail', headers })).json() as { kind: string }[]).map(
        (r) => r.kind,
      );
    expect(await kinds(manager.headers)).not.toContain('message-ack');
    expect(await kinds(reader.headers)).toContain('message-ack');
    const ack = (await outbox(app)).find((m) => m.kind === 'message-ack')!;
    await app.db
      .updateTable('mail_outbox')
      .set({ status: 'failed' })
      .where('mail_id', '=', ack.mail_id)
      .execute();
    const retry = (headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: `/api/admin/mail/${ack.mail_id}/retry`, headers });
    expect((await retry(manager.headers)).statusCode).toBe(404);
    expect((await retry(reader.headers)).statusCode).toBe(200);
  });

  it('acknowledges one address at most three times a day, and still tells the staff', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    for (let i = 0; i < 5; i++) {
      const res = await contact(app, {
        name: `Stranger ${i}`,
        email: 'stranger@elsewhere.example',
        company: 'X',
        message: 'A message that is long enough to pass the rules of the contact form.',
      });
      expect(res.statusCode).toBe(201);
    }
    await smtp.waitFor(8);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.to('stranger@elsewhere.example')).toHaveLength(3);
    expect(smtp.to(owner.email)).toHaveLength(5);
  });

  it('counts the cap per mailbox, whatever the spelling, and refuses a second address in the field', async () => {
    const send = (email: string) =>
      contact(app, {
        name: 'Stranger',
        email,
        company: 'X',
        message: 'A message that is long enough to pass the rules of the contact form.',
      });
    for (const email of [
      'Victim@Elsewhere.example',
      'victim+1@elsewhere.example',
      'victim+2@elsewhere.example',
      'VICTIM+x@elsewhere.example',
    ]) {
      expect((await send(email)).statusCode).toBe(201);
    }
    for (const email of [
      'x1,victim@elsewhere.example',
      'x1;victim@elsewhere.example',
      'Someone <victim@elsewhere.example>',
    ]) {
      const refused = await send(email);
      expect(refused.statusCode, email).toBe(400);
      expect(refused.json().codes).toEqual({ email: 'emailInvalid' });
    }
    const acks = (await outbox(app)).filter((m) => m.kind === 'message-ack');
    expect(acks).toHaveLength(3);
    expect(new Set(acks.map((m) => m.mailbox))).toEqual(new Set(['victim@elsewhere.example']));
  });

  it('forty messages at the same moment are acknowledged three times', async () => {
    await app.close();
    app = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL, RATE_LIMIT_PUBLIC_PER_MIN: '1000' });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        contact(app, {
          name: `Stranger ${i}`,
          email: `many+${i}@elsewhere.example`,
          company: 'X',
          message: 'A message that is long enough to pass the rules of the contact form.',
        }),
      ),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(40).fill(201));
    expect((await outbox(app)).filter((m) => m.kind === 'message-ack')).toHaveLength(3);
  });

  it("an admin's mailed reset ends the old password at once; setting a password ends every other link", async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const editor = await signInAs(app, { role: 'editor' });
    const login = (password: string) => signIn(app, editor.email, password);
    await app.inject({
      method: 'POST',
      url: `/api/admin/users/${editor.userId}/reset-password`,
      headers: owner.headers,
      payload: {},
    });
    expect((await login(editor.password)).statusCode).toBe(401);
    const [adminLink] = await smtp.waitFor(1);
    // the editor also asks for a link themselves, and uses that one
    await forgot(app, editor.email);
    const mails = await smtp.waitFor(2);
    const own = tokenOf(linkIn(mails[1].parsed.text!)!);
    const reset = (token: string, password: string) => resetWith(app, token, password);
    expect((await reset(own, 'the editor picked this')).statusCode).toBe(200);
    // the admin's link was already replaced by the newer one; no link of the account works now
    expect(
      (await reset(tokenOf(linkIn(adminLink.parsed.text!)!), 'someone else picks this')).statusCode,
    ).toBe(400);
    expect(await app.db.selectFrom('password_token').selectAll().execute()).toEqual([]);
    expect((await login('the editor picked this')).statusCode).toBe(200);
  });

  it('uses a link once when two uses race', async () => {
    const user = await signInAs(app, { role: 'editor' });
    await forgot(app, user.email);
    const [mail] = await smtp.waitFor(1);
    const token = tokenOf(linkIn(mail.parsed.text!)!);
    const results = await Promise.all(
      ['first racing passphrase here', 'second racing passphrase here'].map((password) =>
        resetWith(app, token, password),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('counts reset requests like sign-ins', async () => {
    const origin = sameOrigin(app);
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        headers: { origin },
        payload: { email: 'someone@manna.example' },
        remoteAddress: `198.51.100.${i + 1}`,
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(codes.slice(5)).toEqual([429, 429]);
  });

  it('invites a new user by mail; the link sets their password', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: owner.headers,
      payload: { email: 'new.editor@manna.example', role: 'editor', lang: 'ml' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Invitation sent', mailed_to: 'new.editor@manna.example' });
    expect(res.json().one_time_password).toBeUndefined();
    const [mail] = await smtp.waitFor(1);
    expect(mail.parsed.subject).toBe('മന്ന അഡ്മിൻ പാനലിലെ നിങ്ങളുടെ അക്കൗണ്ട്');
    expect(mail.parsed.text).toContain(owner.email);
    const link = linkIn(mail.parsed.text!)!;
    expect(link).toContain('&invite=1');
    // listed as invited, not active, until they come in
    const invitedRow = async () =>
      ((await app.inject({ url: '/api/admin/users', headers: owner.headers })).json() as UserRow[]).find(
        (u) => u.email === 'new.editor@manna.example',
      )!;
    expect(Date.parse((await invitedRow()).invited_until!)).toBeGreaterThan(Date.now());
    const set = await resetWith(app, tokenOf(link), 'the new editor passphrase');
    expect(set.statusCode).toBe(200);
    const login = await signIn(app, 'new.editor@manna.example', 'the new editor passphrase');
    expect(login.statusCode).toBe(200);
    expect(login.json().must_change_password).toBe(false);
    expect((await invitedRow()).invited_until).toBeNull();

    // an admin's reset mails a link instead of showing a password
    const reset = await app.inject({
      method: 'POST',
      url: `/api/admin/users/${login.json().user_id}/reset-password`,
      headers: owner.headers,
      payload: {},
    });
    expect(reset.json()).toMatchObject({ message: 'Reset link sent', mailed_to: 'new.editor@manna.example' });
    expect(reset.json().one_time_password).toBeUndefined();
    await smtp.waitFor(2);
  });

  it('keeps mail while the mail server is down and sends each once when it is back', async () => {
    // each attempt is announced, for the Mail screens open meanwhile
    const deliveries: string[] = [];
    const stop = app.events.on('mail.delivery', (e) => void deliveries.push(e.status));
    await smtp.stop();
    await contact(app, {
      name: 'Asha Menon',
      email: 'asha@journal.example',
      company: 'Kerala Journal',
      message: 'We publish four issues a year and would like a demo of the review workflow.',
      lang: 'ml',
    });
    await expect
      .poll(async () => (await outbox(app))[0]?.attempts ?? 0, { timeout: 10_000 })
      .toBeGreaterThan(0);
    const [waiting] = await outbox(app);
    expect(waiting.status).toBe('pending');
    expect(waiting.last_error).toMatch(/ECONNREFUSED|connect/i);
    const status = await app.inject({
      url: '/api/admin/backup-status',
      headers: (await signInAs(app, { role: 'owner' })).headers,
    });
    expect(status.json().mail).toMatchObject({ configured: true, pending: 1, failed: 0 });
    expect(status.json().mail.last_error).toMatch(/ECONNREFUSED|connect/i);

    await smtp.start();
    const [mail] = await smtp.waitFor(1, 15_000);
    expect(mail.parsed.subject).toBe('നിങ്ങളുടെ സന്ദേശം ലഭിച്ചു');
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received).toHaveLength(1);
    expect((await outbox(app))[0].status).toBe('sent');
    stop();
    expect(deliveries[0]).toBe('retrying');
    expect(deliveries.at(-1)).toBe('sent');
    expect(deliveries.filter((d) => d === 'sent')).toHaveLength(1);
  });

  it('gives up at once on a permanent refusal, and retries from the Mail screen', async () => {
    smtp.refuse('gone@journal.example');
    const deliveries: string[] = [];
    const stop = app.events.on('mail.delivery', (e) => void deliveries.push(e.status));
    await contact(app, {
      name: 'Gone',
      email: 'gone@journal.example',
      company: 'X',
      message: 'A message that is long enough to pass the rules of the contact form.',
    });
    await expect.poll(async () => (await outbox(app))[0]?.status, { timeout: 10_000 }).toBe('failed');
    stop();
    expect(deliveries).toEqual(['failed']);
    const owner = await signInAs(app, { role: 'owner' });
    const list = await app.inject({ url: '/api/admin/mail?status=failed', headers: owner.headers });
    expect(list.json()).toEqual([
      expect.objectContaining({
        to_address: 'gone@journal.example',
        status: 'failed',
        attempts: 1,
        total_count: 1,
      }),
    ]);
    expect(list.json()[0].preview).toContain('Hello Gone,');
    expect(list.json()[0].last_error).toMatch(/550/);

    const editor = await signInAs(app, { role: 'editor' });
    expect((await app.inject({ url: '/api/admin/mail', headers: editor.headers })).statusCode).toBe(403);
    const id = list.json()[0].mail_id;
    expect(
      (await app.inject({ method: 'POST', url: `/api/admin/mail/${id}/retry`, headers: editor.headers }))
        .statusCode,
    ).toBe(403);

    smtp.refuse('gone@journal.example', false);
    const retry = await app.inject({
      method: 'POST',
      url: `/api/admin/mail/${id}/retry`,
      headers: owner.headers,
    });
    expect(retry.statusCode).toBe(200);
    await smtp.waitFor(1);
    await expect.poll(async () => (await outbox(app))[0]?.status).toBe('sent');
    expect(
      (await app.inject({ method: 'POST', url: `/api/admin/mail/${id}/retry`, headers: owner.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('sends each mail once when two senders share the outbox', async () => {
    await app.close(); // this test runs the senders itself
    app = await createTestApp({ PUBLIC_URL });
    for (let i = 0; i < 30; i++) {
      await contact(app, {
        name: `Writer ${i}`,
        email: `writer${i}@journal.example`,
        company: 'X',
        message: 'A message that is long enough to pass the rules of the contact form.',
      });
    }
    const a = smtpTransport(smtp.url);
    const b = smtpTransport(smtp.url);
    const options = { from: 'Manna <hello@manna.example>', retryBaseMs: 1000, leaseMs: 60_000 };
    const results = await Promise.all([
      sendDueMail(app.db, a, { ...options, holder: 'process-a' }),
      sendDueMail(app.db, b, { ...options, holder: 'process-b' }),
    ]);
    a.close();
    b.close();
    expect(results[0].sent + results[1].sent).toBe(30);
    expect(smtp.received).toHaveLength(30);
    expect(new Set(smtp.received.map((m) => m.parsed.messageId)).size).toBe(30);
  });
});

describe('mail without SMTP_URL', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  it('keeps mail in the outbox, and falls back to one-time passwords', async () => {
    app = await createTestApp({ PUBLIC_URL });
    await app.ready();
    const owner = await signInAs(app, { role: 'owner' });
    await contact(app, {
      name: 'Asha Menon',
      email: 'asha@journal.example',
      company: 'Kerala Journal',
      message: 'We publish four issues a year and would like a demo of the review workflow.',
    });
    await new Promise((r) => setTimeout(r, 200));
    const rows = await outbox(app);
    expect(rows.map((r) => [r.kind, r.to_address, r.status])).toEqual([
      ['message-ack', 'asha@journal.example', 'pending'],
      ['message-notice', owner.email, 'pending'],
    ]);
    expect((await app.inject({ url: '/api/auth/forgot-password' })).json()).toEqual({ available: false });
    const ask = await app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      headers: { origin: sameOrigin(app) },
      payload: { email: owner.email },
    });
    expect(ask.statusCode).toBe(409);
    expect(ask.json().message).toBe(L.unavailable);
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: owner.headers,
      payload: { email: 'x@manna.example', role: 'editor' },
    });
    expect(created.json().one_time_password).toEqual(expect.any(String));
    expect(created.json().mailed_to).toBeUndefined();
    const status = await app.inject({ url: '/api/admin/backup-status', headers: owner.headers });
    expect(status.json().mail).toEqual({
      configured: false,
      pending: 2,
      sent_today: 0,
      failed: 0,
      last_error: null,
    });
  });
});
