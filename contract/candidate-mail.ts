import { z } from 'zod/mini';
import { LANG_CODES } from './languages';

/**
 * Mails staff write to a candidate from the application's detail (docs/decisions/026-application-timeline.md):
 * GET  /api/admin/candidate-mail-templates?lang= (applications.read): the templates of a language
 *      (the one saved in the back office, else the site's default words);
 * PUT  /api/admin/candidate-mail-templates/{template}/{lang} (applications.manage, If-Match):
 *      saves one; its placeholders are checked first;
 * POST /api/admin/job-applications/{id}/mails (applications.manage): sends one through the
 *      outbox, with the placeholders filled from the application; Reply-To is HIRING_REPLY_TO.
 * Shared by the server (request validation) and the browser (answer checks). Imports only zod.
 */

/** The templates staff start from; 'blank' starts from nothing and has no template. */
export const CANDIDATE_TEMPLATES = ['invite', 'next', 'reject'] as const;
export const CandidateTemplate = z.enum(CANDIDATE_TEMPLATES);
export type CandidateTemplate = z.infer<typeof CandidateTemplate>;

/** What a text may name: the candidate's name, the job's title, the company. */
export const PLACEHOLDERS = ['name', 'job', 'company'] as const;

/** The company a candidate mail names ({{company}}). */
export const COMPANY = 'Manna';

export const SUBJECT_MAX = 200;
export const BODY_MAX = 10_000;

export const CANDIDATE_MAIL_MESSAGES = {
  subjectRequired: 'Write a subject',
  subjectTooLong: `A subject is at most ${SUBJECT_MAX} characters`,
  bodyRequired: 'Write the email',
  bodyTooLong: `An email is at most ${BODY_MAX} characters`,
  unknownPlaceholder: `Only {{name}}, {{job}} and {{company}} can be filled in`,
  sent: 'Email queued for the candidate',
  templateSaved: 'Template saved',
} as const;
export type CandidateMailCode = Exclude<keyof typeof CANDIDATE_MAIL_MESSAGES, 'sent' | 'templateSaved'>;

/** Placeholders of `text` that are not among PLACEHOLDERS (`{{ name }}` counts as `{{name}}`). */
export function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(PLACEHOLDERS);
  return [...text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map((m) => m[1]!).filter((name) => !known.has(name));
}

/** What is wrong with a subject and a body, field by field (the same rules in both places). */
export function candidateMailErrors(
  subject: string,
  body: string,
): Partial<Record<'subject' | 'body', CandidateMailCode>> {
  const errors: Partial<Record<'subject' | 'body', CandidateMailCode>> = {};
  const s = subject.trim();
  const b = body.trim();
  if (!s) errors.subject = 'subjectRequired';
  else if (Array.from(s).length > SUBJECT_MAX) errors.subject = 'subjectTooLong';
  else if (unknownPlaceholders(s).length) errors.subject = 'unknownPlaceholder';
  if (!b) errors.body = 'bodyRequired';
  else if (Array.from(b).length > BODY_MAX) errors.body = 'bodyTooLong';
  else if (unknownPlaceholders(b).length) errors.body = 'unknownPlaceholder';
  return errors;
}

const text = (max: number) => z.string().check(z.maxLength(max * 2));
export const MailLang = z.enum(LANG_CODES);

export const CandidateMailTemplate = z.object({
  template: CandidateTemplate,
  lang: MailLang,
  subject: z.string(),
  body: z.string(),
  /** 1 while the site's default words are used; then 2, 3, ... at each save. */
  version: z.number(),
});
export type CandidateMailTemplate = z.infer<typeof CandidateMailTemplate>;
export const CandidateMailTemplates = z.array(CandidateMailTemplate);

export const TemplatesQuery = z.object({ lang: z._default(MailLang, 'en') });
export const TemplateParams = z.object({ template: CandidateTemplate, lang: MailLang });
export const TemplateBody = z.object({ subject: text(SUBJECT_MAX), body: text(BODY_MAX) });
export const TemplateAnswer = z.object({ message: z.string(), template: CandidateMailTemplate });

export const CandidateMailBody = z.object({
  subject: text(SUBJECT_MAX),
  body: text(BODY_MAX),
  lang: MailLang,
  /** Which template it started from ('blank' for none): kept on the timeline. */
  template: z.enum([...CANDIDATE_TEMPLATES, 'blank']),
});
export type CandidateMailBody = z.infer<typeof CandidateMailBody>;
