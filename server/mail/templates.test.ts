import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../config';
import { mailLang, oneLine, renderMail } from './templates';

describe('mail templates', () => {
  it('folds every value to one line and escapes it in the HTML body', () => {
    const vars = {
      name: 'Eve\r\nBcc: victim@elsewhere.example\u2028<script>alert(1)</script>',
      job: 'Editor\nX-Injected: yes',
      link: 'https://manna.example/admin/job_applications?startdate=2026-11-25&enddate=2026-11-25',
    };
    const mail = renderMail(
      'en',
      { key: 'applicationNotice.subject', vars },
      [
        { key: 'applicationNotice.body', vars },
        { key: 'applicationNotice.action', vars },
      ],
      { key: 'noticeFooter', vars: { prefsUrl: 'https://manna.example/admin/password#notices' } },
    );
    expect(mail.subject).toBe('New application: Editor X-Injected: yes');
    expect(mail.subject).not.toMatch(/[\r\n\u2028]/);
    expect(mail.text).toContain(
      'A candidate applied for Editor X-Injected: yes through the careers page. Name as typed on the form: “Eve Bcc: victim@elsewhere.example <script>alert(1)</script>”',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain(
      '<a href="https://manna.example/admin/job_applications?startdate=2026-11-25&amp;enddate=2026-11-25"',
    );
    expect(oneLine('\t a \u0000 b \u0085 c ')).toBe('a b c');
  });

  it('writes in the five languages, English for anything else', () => {
    expect(mailLang('ml')).toBe('ml');
    expect(mailLang('pt')).toBe('en');
    expect(mailLang(undefined)).toBe('en');
    const subjects = (['en', 'ml', 'fr', 'de', 'es'] as const).map(
      (lang) =>
        renderMail(lang, { key: 'messageAck.subject' }, [], { key: 'footer', vars: { siteUrl: 'x' } })
          .subject,
    );
    expect(new Set(subjects).size).toBe(5);
  });

  it("keeps what a visitor typed out of every staff mail's subject, in every language", () => {
    // staff read subjects in a list, before anything else: a visitor's words there are theirs to
    // choose ("URGENT - renew your password at ..."); bodies quote them as typed (decision 009)
    const STAFF_MAILS = ['applicationNotice', 'mentionNotice', 'messageNotice', 'digest', 'assignmentNotice'];
    // what staff wrote or chose: a colleague's name, an opening's title
    const STAFF_WORDS = new Set(['by', 'author', 'job', 'company', 'count']);
    const locales = path.resolve(import.meta.dirname, '../../src/i18n/locales');
    for (const lang of fs.readdirSync(locales)) {
      const mails = JSON.parse(fs.readFileSync(path.join(locales, lang, 'mail.json'), 'utf8')) as Record<
        string,
        { subject?: string }
      >;
      for (const mail of STAFF_MAILS) {
        const subject = mails[mail]?.subject ?? '';
        for (const [, name] of subject.matchAll(/\{\{\s*(\w+)/g))
          expect(STAFF_WORDS.has(name), `${lang} ${mail}.subject: {{${name}}}`).toBe(true);
      }
    }
  });

  it('refuses a From with a line break, and an SMTP_URL that is not smtp', () => {
    const base = { SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/manna-config-mail' };
    expect(() => loadConfig({ ...base, MAIL_FROM: 'Manna <a@b.example>\nBcc: c@d.example' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ...base, SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(loadConfig({ ...base, MAIL_FROM: 'Manna <hello@manna.example>' }).MAIL_FROM).toBe(
      'Manna <hello@manna.example>',
    );
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://manna.example' }).MAIL_FROM).toBe(
      'Manna <no-reply@manna.example>',
    );
  });
});
