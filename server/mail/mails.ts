import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { INVITATION_HOURS, RESET_LINK_MINUTES } from '../../contract/mail';
import { COMPANY } from '../../contract/candidate-mail';
import type { Config } from '../config';
import { noticeRecipients, type NoticeKind } from '../db/auth.repo';
import { acksTo, queueMail } from '../db/mail.repo';
import { serializeOn } from '../db/database';
import { storePasswordToken, type PasswordLinkPurpose } from '../db/password-token.repo';
import type { Database } from '../db/schema';
import { mailLang, oneLine, renderMail, type Paragraph, type RenderedMail, type Vars } from './templates';

/**
 * Every mail the site sends, queued in the outbox (db/mail.repo.ts) inside the transaction of what
 * causes it: pass the transaction as `db`. The sender (mail/sender.ts) delivers them. Staff notices
 * carry a job title, a name and a link to the back office, never a CV or contact details.
 */

type Db = Kysely<Database>;
export type MailSettings = Pick<
  Config,
  'PUBLIC_URL' | 'APPLICATION_RETENTION_DAYS' | 'MESSAGE_RETENTION_DAYS' | 'SMTP_URL' | 'MAIL_FROM'
>;

/** The domain of Message-IDs: MAIL_FROM's, else the public address's host. */
export function mailDomain(config: Pick<MailSettings, 'PUBLIC_URL' | 'MAIL_FROM'>): string {
  const from = /@([^>\s]+)>?\s*$/.exec(config.MAIL_FROM ?? '')?.[1];
  return from ?? new URL(config.PUBLIC_URL).hostname;
}

async function queue(
  db: Db,
  config: MailSettings,
  kind: string,
  to: string,
  lang: string,
  mail: RenderedMail,
  now: Date,
  about: { mailbox?: string; application_id?: number } = {},
): Promise<number> {
  return queueMail(
    db,
    {
      message_id: `<${randomUUID()}@${mailDomain(config)}>`,
      kind,
      lang,
      to_address: oneLine(to).toLowerCase(),
      subject: mail.subject.slice(0, 300),
      text_body: mail.text,
      html_body: mail.html,
      mailbox: about.mailbox ?? null,
      application_id: about.application_id ?? null,
    },
    now,
  );
}

const footer = (config: MailSettings, notice = false) => ({
  key: notice ? 'noticeFooter' : 'footer',
  vars: { siteUrl: config.PUBLIC_URL, prefsUrl: `${config.PUBLIC_URL}/admin/password#notices` },
});

/** Acknowledgments one address gets at most in a day. */
export const ACKS_PER_DAY = 3;

/**
 * The mailbox an address reaches, for counting: lower case, without a `+tag` (`ann+1@` reaches
 * `ann@`), and at Gmail without dots in the local part. Only for the cap; mail goes to the address
 * as typed.
 */
export function mailboxOf(address: string): string {
  const clean = oneLine(address).trim().toLowerCase();
  const at = clean.lastIndexOf('@');
  if (at <= 0) return clean;
  let local = clean.slice(0, at);
  let domain = clean.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

/**
 * Queues an acknowledgment unless its mailbox had its share today. The forms mail whatever address
 * they are given, with the name typed in it: without a cap, the site would mail any stranger as
 * often as the rate limit allows. Past it, the message or application is stored and staff are told
 * as usual; only the acknowledgment is left out. Call it inside the transaction that stores the
 * form: the count and the new row take turns per mailbox (serializeOn), so forms sent at the same
 * moment never pass the cap together.
 */
async function queueAck(
  db: Db,
  config: MailSettings,
  kind: 'application-ack' | 'message-ack',
  to: string,
  lang: string,
  mail: RenderedMail,
  now: Date,
  applicationId?: number,
): Promise<void> {
  const mailbox = mailboxOf(to);
  await serializeOn(db, `ack:${mailbox}`);
  const since = new Date(now.getTime() - 24 * 3_600_000);
  if ((await acksTo(db, mailbox, since)) < ACKS_PER_DAY)
    await queue(db, config, kind, to, lang, mail, now, { mailbox, application_id: applicationId });
}

/** The application itself in the back office: the list opens its detail. */
const applicationLink = (config: MailSettings, applicationId: number) =>
  `${config.PUBLIC_URL}/admin/job_applications?application=${applicationId}`;

/** A notice to each user who chose one mail per new `kind`. */
async function queueNotices(
  db: Db,
  config: MailSettings,
  kind: NoticeKind,
  build: (lang: ReturnType<typeof mailLang>) => RenderedMail,
  now: Date,
) {
  for (const user of await noticeRecipients(db, kind, 'each')) {
    const lang = mailLang(user.lang);
    await queue(
      db,
      config,
      kind === 'applications' ? 'application-notice' : 'message-notice',
      user.email,
      lang,
      build(lang),
      now,
    );
  }
}

/** A new application: the candidate's acknowledgment, in their language, and the staff notices. */
export async function queueApplicationMails(
  db: Db,
  config: MailSettings,
  a: { applicationId: number; name: string; email: string; job: string; lang: string | undefined },
  now = new Date(),
): Promise<void> {
  const lang = mailLang(a.lang);
  const vars: Vars = {
    name: a.name,
    job: a.job,
    days: config.APPLICATION_RETENTION_DAYS,
    contactUrl: `${config.PUBLIC_URL}/contact`,
  };
  await queueAck(
    db,
    config,
    'application-ack',
    a.email,
    lang,
    renderMail(
      lang,
      { key: 'applicationAck.subject', vars },
      [
        { key: 'applicationAck.greeting', vars },
        { key: 'applicationAck.body', vars },
        { key: 'applicationAck.retention', vars },
      ],
      footer(config),
    ),
    now,
    a.applicationId,
  );
  const link = applicationLink(config, a.applicationId);
  await queueNotices(
    db,
    config,
    'applications',
    (staffLang) =>
      renderMail(
        staffLang,
        { key: 'applicationNotice.subject', vars },
        [
          { key: 'applicationNotice.body', vars },
          { key: 'applicationNotice.action', vars: { link } },
        ],
        footer(config, true),
      ),
    now,
  );
}

/**
 * A note mentions colleagues: each gets a notice in their language, with who wrote it, the
 * candidate's name, the job and a link to the application; never the note itself (it may hold
 * what a mail should not carry). A mention is addressed to one person: it is sent whatever their
 * choice of notices for new arrivals, and its footer says nothing of those choices.
 */
export async function queueMentionNotices(
  db: Db,
  config: MailSettings,
  n: {
    applicationId: number;
    author: string;
    name: string;
    job: string;
    to: { email: string; lang: string | null }[];
  },
  now = new Date(),
): Promise<void> {
  const vars: Vars = { author: n.author, name: n.name, job: n.job };
  const link = applicationLink(config, n.applicationId);
  for (const colleague of n.to) {
    const lang = mailLang(colleague.lang);
    await queue(
      db,
      config,
      'mention-notice',
      colleague.email,
      lang,
      renderMail(
        lang,
        { key: 'mentionNotice.subject', vars },
        [
          { key: 'mentionNotice.body', vars },
          { key: 'mentionNotice.action', vars: { link } },
        ],
        footer(config),
      ),
      now,
    );
  }
}

/**
 * A mail staff wrote to a candidate (services/candidate-mail.ts): its subject and paragraphs
 * (blank lines between), the placeholders filled from `vars`, signed by its writer's own words
 * (no site signature), tied to the application so its timeline shows it and its deletion takes it.
 */
export async function queueCandidateMail(
  db: Db,
  config: MailSettings,
  m: { applicationId: number; to: string; lang: string; subject: string; body: string; vars: Vars },
  now = new Date(),
): Promise<void> {
  const lang = mailLang(m.lang);
  const paragraphs = m.body.split(/\n[ \t]*\n+/).map((text) => ({ text: text.trim(), vars: m.vars }));
  await queue(
    db,
    config,
    'candidate-mail',
    m.to,
    lang,
    renderMail(lang, { text: m.subject, vars: m.vars }, paragraphs, footer(config), { signature: false }),
    now,
    { application_id: m.applicationId },
  );
}

/**
 * A reply staff wrote to a contact message's writer, in the message's language: their words as
 * they are (no placeholders), then the writer's message quoted. Answers the outbox row's id.
 */
export async function queueMessageReply(
  db: Db,
  config: MailSettings,
  r: { to: string; lang: string; text: string; original: string; receivedAt: string },
  now = new Date(),
): Promise<number> {
  const lang = mailLang(r.lang);
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(r.receivedAt),
  );
  const quoted = r.original
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return queue(
    db,
    config,
    'message-reply',
    r.to,
    lang,
    renderMail(
      lang,
      { key: 'messageReply.subject', vars: { company: COMPANY } },
      [
        ...r.text.split(/\n[ \t]*\n+/).map((raw) => ({ raw: raw.trim() })),
        { key: 'messageReply.quoteIntro', vars: { date } },
        { raw: quoted },
      ],
      footer(config),
      { signature: false },
    ),
    now,
  );
}

/** The inbox showing one message alone, its thread open (a notice's link). */
const messageLink = (config: MailSettings, messageId: number) =>
  `${config.PUBLIC_URL}/admin/messages?message=${messageId}`;

/** A colleague assigned someone a message: a notice to them, with who and a link to the message. */
export async function queueAssignmentNotice(
  db: Db,
  config: MailSettings,
  n: { to: { email: string; lang: string | null }; by: string; name: string; messageId: number },
  now = new Date(),
): Promise<void> {
  const lang = mailLang(n.to.lang);
  const vars: Vars = { by: n.by, name: n.name };
  await queue(
    db,
    config,
    'assignment-notice',
    n.to.email,
    lang,
    renderMail(
      lang,
      { key: 'assignmentNotice.subject', vars },
      [
        { key: 'assignmentNotice.body', vars },
        { key: 'assignmentNotice.action', vars: { link: messageLink(config, n.messageId) } },
      ],
      footer(config),
    ),
    now,
  );
}

/** A new contact message: the writer's acknowledgment, in their language, and the staff notices. */
export async function queueMessageMails(
  db: Db,
  config: MailSettings,
  m: { name: string; email: string; lang: string | undefined; messageId: number },
  now = new Date(),
): Promise<void> {
  const lang = mailLang(m.lang);
  const vars: Vars = {
    name: m.name,
    days: config.MESSAGE_RETENTION_DAYS,
    contactUrl: `${config.PUBLIC_URL}/contact`,
  };
  await queueAck(
    db,
    config,
    'message-ack',
    m.email,
    lang,
    renderMail(
      lang,
      { key: 'messageAck.subject' },
      [
        { key: 'messageAck.greeting', vars },
        { key: 'messageAck.body', vars },
        { key: 'messageAck.retention', vars },
      ],
      footer(config),
    ),
    now,
  );
  const link = messageLink(config, m.messageId);
  await queueNotices(
    db,
    config,
    'messages',
    (staffLang) =>
      renderMail(
        staffLang,
        { key: 'messageNotice.subject', vars },
        [
          { key: 'messageNotice.body', vars },
          { key: 'messageNotice.action', vars: { link } },
        ],
        footer(config, true),
      ),
    now,
  );
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A password link (a reset, or the invitation of a new user): a random token whose hash is
 * stored, and the mail with the link. Reset links work RESET_LINK_MINUTES, invitations
 * INVITATION_HOURS; each works once.
 */
export async function queuePasswordLink(
  db: Db,
  config: MailSettings,
  o: {
    userId: number;
    email: string;
    purpose: PasswordLinkPurpose;
    lang: string | undefined;
    inviter?: string;
  },
  now = new Date(),
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const ms = o.purpose === 'reset' ? RESET_LINK_MINUTES * 60_000 : INVITATION_HOURS * 3_600_000;
  await storePasswordToken(
    db,
    {
      tokenHash: hashToken(token),
      userId: o.userId,
      purpose: o.purpose,
      expiresAt: new Date(now.getTime() + ms),
    },
    now,
  );
  const lang = mailLang(o.lang);
  const link = `${config.PUBLIC_URL}/admin/reset-password?token=${token}${o.purpose === 'invite' ? '&invite=1' : ''}`;
  const section = o.purpose === 'reset' ? 'passwordReset' : 'invitation';
  const vars: Vars = { email: o.email, link, inviter: o.inviter ?? '' };
  await queue(
    db,
    config,
    o.purpose === 'reset' ? 'password-reset' : 'invitation',
    o.email,
    lang,
    renderMail(
      lang,
      { key: `${section}.subject` },
      [
        { key: `${section}.body`, vars },
        { key: `${section}.action`, vars },
        { key: `${section}.expiry`, vars },
      ],
      footer(config),
    ),
    now,
  );
}

/** Lines of a digest section: at most this many, then "and N more". */
export const DIGEST_LINES = 50;

/**
 * The daily digest of one user: what arrived in the day (applications and messages of the kinds
 * they chose the digest for). Nothing is queued when nothing arrived.
 */
export async function queueDigest(
  db: Db,
  config: MailSettings,
  user: { email: string; lang: string | null },
  parts: {
    applications?: { rows: { name: string; job: string | null }[]; total: number };
    messages?: { rows: { name: string }[]; total: number };
  },
  now = new Date(),
): Promise<boolean> {
  const lang = mailLang(user.lang);
  const paragraphs: Paragraph[] = [{ key: 'digest.intro' }];
  const more = (total: number, shown: number) =>
    total > shown ? [{ key: 'digest.more', vars: { count: total - shown } }] : [];
  const { applications: a, messages: m } = parts;
  if (a && a.total > 0) {
    paragraphs.push({ key: 'digest.applications', vars: { count: a.total } });
    paragraphs.push({
      lines: [
        ...a.rows.map((r) => ({ key: 'digest.applicationLine', vars: { name: r.name, job: r.job ?? '—' } })),
        ...more(a.total, a.rows.length),
      ],
    });
  }
  if (m && m.total > 0) {
    paragraphs.push({ key: 'digest.messages', vars: { count: m.total } });
    paragraphs.push({
      lines: [
        ...m.rows.map((r) => ({ key: 'digest.messageLine', vars: { name: r.name } })),
        ...more(m.total, m.rows.length),
      ],
    });
  }
  if (paragraphs.length === 1) return false;
  paragraphs.push({ key: 'digest.action', vars: { link: `${config.PUBLIC_URL}/admin` } });
  await queue(
    db,
    config,
    'digest',
    user.email,
    lang,
    renderMail(lang, { key: 'digest.subject' }, paragraphs, footer(config, true)),
    now,
  );
  return true;
}

/**
 * Tells a person that a second factor of theirs was added, removed or cleared by an owner, and
 * that their other sessions ended, or that a recovery code signed them in (when mail is set up): a
 * change or a sign-in they did not make is their account taken over.
 */
export async function queueFactorNotice(
  db: Db,
  config: MailSettings,
  o: {
    email: string;
    lang: string | undefined;
    /** 'recovery': a recovery code signed in (`left` codes remain); sessions are not ended then. */
    change: 'added' | 'removed' | 'cleared' | 'recovery';
    kind: string;
    left?: number;
  },
  now = new Date(),
): Promise<void> {
  if (config.SMTP_URL === undefined) return;
  const lang = mailLang(o.lang);
  const what =
    o.change === 'cleared'
      ? 'cleared'
      : o.change === 'recovery'
        ? 'recovery_used'
        : `${o.change}_${o.kind === 'passkey' ? 'passkey' : 'totp'}`;
  const vars: Vars = {
    email: o.email,
    link: `${config.PUBLIC_URL}/admin/password#security`,
    left: String(o.left ?? 0),
  };
  await queue(
    db,
    config,
    'factor-notice',
    o.email,
    lang,
    renderMail(
      lang,
      { key: o.change === 'recovery' ? 'factorNotice.recoverySubject' : 'factorNotice.subject' },
      [
        { key: `factorNotice.${what}`, vars },
        ...(o.change === 'recovery' ? [] : [{ key: 'factorNotice.sessions', vars }]),
        { key: 'factorNotice.notYou', vars },
      ],
      footer(config),
    ),
    now,
  );
}
