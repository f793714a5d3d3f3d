import { APPLICATION_LIST_MESSAGES as LIST } from '../../contract/admin-applications';
import {
  CANDIDATE_MAIL_MESSAGES as M,
  CANDIDATE_TEMPLATES,
  COMPANY,
  candidateMailErrors,
  type CandidateMailBody,
  type CandidateMailTemplate,
  type CandidateTemplate,
} from '../../contract/candidate-mail';
import type { Lang } from '../../contract/languages';
import { getApplicationRow } from '../db/application-list.repo';
import { lastChangeOf } from '../db/audit.repo';
import { savedTemplate, savedTemplates, saveTemplate as storeTemplate } from '../db/candidate-mail.repo';
import { HttpError } from '../http-error';
import { cleanLine, cleanText } from '../lib/plain-text';
import { staleVersion } from '../lib/versions';
import { queueCandidateMail } from '../mail/mails';
import { lookup } from '../mail/templates';
import { timelineOf } from './application-timeline';
import { inTransaction, type ServiceContext } from './context';

/**
 * Mails staff write to a candidate (docs/decisions/026-application-timeline.md): templates per language (saved in the back office,
 * else the site's words in mail.json), checked for their placeholders before they are saved or
 * sent; a mail goes through the outbox with Reply-To HIRING_REPLY_TO and shows on the
 * application's timeline with its delivery state. docs/decisions/026-application-timeline.md.
 */

/** A subject and body as typed, cleaned, and refused field by field when wrong (400). */
function checked(subject: string, body: string) {
  const clean = { subject: cleanLine(subject), body: cleanText(body) };
  const errors = candidateMailErrors(clean.subject, clean.body);
  if (Object.keys(errors).length > 0)
    throw HttpError.fields('Please correct the highlighted fields.', errors, M);
  return clean;
}

const defaultTemplate = (template: CandidateTemplate, lang: Lang): CandidateMailTemplate => ({
  template,
  lang,
  subject: lookup(lang, `candidateMail.${template}.subject`),
  body: lookup(lang, `candidateMail.${template}.body`),
  version: 1,
});

/** The three templates of `lang`, each the saved one or the default words. */
export async function templatesFor(ctx: ServiceContext, lang: Lang): Promise<CandidateMailTemplate[]> {
  const saved = new Map((await savedTemplates(ctx.db, lang)).map((t) => [t.template, t]));
  return CANDIDATE_TEMPLATES.map((template) => {
    const row = saved.get(template);
    return row
      ? { template, lang, subject: row.subject, body: row.body, version: row.version }
      : defaultTemplate(template, lang);
  });
}

/** Saves a template if it is still at `version` (409 with it as it is now otherwise); audited. */
export async function saveTemplate(
  ctx: ServiceContext,
  template: CandidateTemplate,
  lang: Lang,
  text: { subject: string; body: string },
  version: number,
) {
  const clean = checked(text.subject, text.body);
  const saved = await inTransaction(ctx, async (c) => {
    const next = await storeTemplate(c.trx, { template, lang, ...clean }, version, c.at);
    if (next === null) {
      const row = await savedTemplate(c.trx, template, lang);
      throw staleVersion(
        row
          ? { template, lang, subject: row.subject, body: row.body, version: row.version }
          : defaultTemplate(template, lang),
        await lastChangeOf(c.trx, 'candidate_mail_template', `${template}:${lang}`),
      );
    }
    await c.audit({ action: 'update', entity: 'candidate_mail_template', entityId: `${template}:${lang}` });
    return { template, lang, ...clean, version: next };
  });
  return { message: M.templateSaved, template: saved };
}

/**
 * Sends a mail to the candidate of application `id`: the placeholders filled from it, in the
 * language chosen, queued in the outbox with the application, audited (which template, not the
 * words). Answers the timeline with the mail on it.
 */
export async function sendCandidateMail(ctx: ServiceContext, id: number, mail: CandidateMailBody) {
  const clean = checked(mail.subject, mail.body);
  await inTransaction(ctx, async (c) => {
    const row = await getApplicationRow(c.trx, id);
    if (!row) throw new HttpError(404, LIST.notFound);
    await queueCandidateMail(
      c.trx,
      ctx.config,
      {
        applicationId: id,
        to: row.email,
        lang: mail.lang,
        ...clean,
        vars: { name: row.full_name, job: row.job_title ?? '', company: COMPANY },
      },
      c.at,
    );
    await c.audit({
      action: 'mail',
      entity: 'job_application',
      entityId: id,
      detail: { template: mail.template, lang: mail.lang },
    });
    c.announce({ type: 'application.timeline_changed', application_id: id });
    c.announce({ type: 'mail.queued' });
  });
  ctx.log.info({ application_id: id, template: mail.template }, 'Mail to a candidate queued');
  return { message: M.sent, timeline: await timelineOf(ctx, id) };
}
