import { z } from 'zod/mini';
import { ID_MAX, isIdText, whole } from './ids';
import { isCountryCode } from './countries';
import { JobOpeningRow, JobStatus, WORK_TYPES } from './jobs';
import { htmlToText } from './rich-text';

/**
 * POST manage-job-openings and the admin job form's rules. The browser form (src/machines/job-form.machine.ts) and the server route
 * (server/routes/jobs-admin.ts) both validate with `firstJobFormError` / `jobFormErrors`, so a
 * message the server sends is the one the form would have shown.
 */

/** The form's fields in the order they unlock and are validated. */
export const JOB_FORM_FIELDS = [
  'job_title',
  'department',
  'location',
  'job_type_id',
  'work_type',
  'country',
  'locality',
  'description',
  'requirement',
  'about_role',
  'responsibility',
] as const;
export type JobFormField = (typeof JOB_FORM_FIELDS)[number];
export const RICH_TEXT_FIELDS = ['description', 'requirement', 'about_role', 'responsibility'] as const;
export type RichTextField = (typeof RICH_TEXT_FIELDS)[number];
export const isRichTextField = (f: JobFormField): f is RichTextField =>
  (RICH_TEXT_FIELDS as readonly string[]).includes(f);

/** What the form holds: every value a string (job_type_id is the select's value, '' for none). */
export type JobFormValues = Record<JobFormField, string>;

export const EMPTY_JOB_FORM: JobFormValues = {
  job_title: '',
  department: '',
  location: '',
  job_type_id: '',
  work_type: 'onsite',
  country: '',
  locality: '',
  description: '',
  requirement: '',
  about_role: '',
  responsibility: '',
};

/** Field labels as the form shows them. */
export const JOB_FIELD_LABELS: Record<JobFormField, string> = {
  job_title: 'Job Title',
  department: 'Department',
  location: 'Location',
  job_type_id: 'Job Type',
  work_type: 'Work Type',
  country: 'Country',
  locality: 'City or Region',
  description: 'Description',
  requirement: 'Requirement',
  about_role: 'About the Role',
  responsibility: 'Responsibility',
};

/** The text inputs' maximum length, and the rich-text fields' minimum text length. */
export const JOB_TEXT_MAX = 200;
export const JOB_TEXT_MIN = 2;
export const JOB_RICH_MIN = 10;
/** Our cap on a rich-text field's HTML, so no request stores megabytes (the spec sets none). */
export const JOB_RICH_MAX_HTML = 50_000;

/** The single-line fields' names in the messages that name them. */
const TEXT_NAMES: Record<'job_title' | 'department' | 'location' | 'locality', string> = {
  job_title: 'Job title',
  department: 'Department',
  location: 'Location',
  locality: 'City or region',
};

/**
 * What a title, department or location may not hold (docs/decisions/030-opening-text.md): the
 * brackets of markup, control characters, and the invisible characters that reorder or hide text
 * (bidirectional overrides, zero-width spaces, private use). Everything else real titles and places
 * are written with is allowed ("C# Developer", "Côte d'Ivoire", "Anywhere (UTC-5 to UTC+5:30)",
 * "Team 2"); the joiners (U+200C, U+200D) stay, as Malayalam and emoji need them.
 */
const REFUSED_CHARACTER = /(?![\u200C\u200D])[<>\p{Cc}\p{Cf}\p{Cs}\p{Co}]/u;

/** The first character `value` may not hold, or null. */
export function refusedCharacter(value: string): string | null {
  return REFUSED_CHARACTER.exec(value)?.[0] ?? null;
}

/** A refused character as a message names it: '<' when it can be seen, U+202E when it cannot. */
export function shownCharacter(ch: string): string {
  if (ch === '<' || ch === '>') return `'${ch}'`;
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The fields a remote opening may leave empty. */
const OPTIONAL_WHEN_REMOTE = { country: true, locality: true } as const;

/**
 * Whether a field lets the next one open (the form's order of unlocking): it has a value, or may be
 * left empty (a remote opening's place).
 */
export function jobFieldFilled(field: JobFormField, values: JobFormValues): boolean {
  const raw = values[field] ?? '';
  if (isRichTextField(field)) return htmlToText(raw).length > 0;
  if (raw.trim().length > 0) return true;
  return field in OPTIONAL_WHEN_REMOTE && values.work_type === 'remote';
}

/** Codes of the job form's errors; the dialog translates them, `jobErrorMessage` says them in English. */
export const JOB_ERROR_CODES = [
  'typeRequired',
  'workTypeRequired',
  'countryRequired',
  'required',
  'tooShort',
  'tooLong',
  'invalidChars',
  'richTooShort',
  'richTooLong',
] as const;
export type JobErrorCode = (typeof JOB_ERROR_CODES)[number];
export type JobFormErrors = Partial<Record<JobFormField, JobErrorCode>>;

/** The code for one field, or null when it passes. */
export function jobFieldError(field: JobFormField, values: JobFormValues): JobErrorCode | null {
  const raw = values[field] ?? '';
  if (field === 'job_type_id') return isIdText(raw.trim()) ? null : 'typeRequired';
  if (field === 'work_type') return (WORK_TYPES as readonly string[]).includes(raw) ? null : 'workTypeRequired';
  // a remote opening may leave its place out (docs/decisions/031-where-an-opening-is.md)
  const optional = field in OPTIONAL_WHEN_REMOTE && values.work_type === 'remote' && !raw.trim();
  if (optional) return null;
  if (field === 'country') return isCountryCode(raw) ? null : 'countryRequired';
  if (isRichTextField(field)) {
    const text = htmlToText(raw);
    if (!text) return 'required';
    if (text.length < JOB_RICH_MIN) return 'richTooShort';
    if (raw.length > JOB_RICH_MAX_HTML) return 'richTooLong';
    return null;
  }
  const value = raw.trim();
  if (!value) return 'required';
  if (value.length < JOB_TEXT_MIN) return 'tooShort';
  if (value.length > JOB_TEXT_MAX) return 'tooLong';
  if (refusedCharacter(value) !== null) return 'invalidChars';
  return null;
}

/**
 * A code as the spec words it, in English (the server's `errors`, and API clients); `value` is the
 * field's text, whose refused character an `invalidChars` message names.
 */
export function jobErrorMessage(field: JobFormField, code: JobErrorCode, value = ''): string {
  const label = JOB_FIELD_LABELS[field];
  const name = field in TEXT_NAMES ? TEXT_NAMES[field as keyof typeof TEXT_NAMES] : label;
  switch (code) {
    case 'typeRequired':
      return 'Please select a job type.';
    case 'workTypeRequired':
      return 'Please select a work type.';
    case 'countryRequired':
      return 'Please select a country.';
    case 'required':
      return `${label} is required.`;
    case 'tooShort':
      return `${name} must be at least ${JOB_TEXT_MIN} characters long.`;
    case 'tooLong':
      return `${name} must not exceed ${JOB_TEXT_MAX} characters.`;
    case 'invalidChars': {
      const ch = refusedCharacter(value);
      return ch ? `${name} cannot contain ${shownCharacter(ch)}.` : `${name} contains invalid characters.`;
    }
    case 'richTooShort':
      return `${label} must be at least ${JOB_RICH_MIN} characters long.`;
    case 'richTooLong':
      return `${label} is too long.`;
  }
}

/** The first failing field in field order, as the form shows it; null when all pass. */
export function firstJobFormError(values: JobFormValues): { field: JobFormField; code: JobErrorCode } | null {
  for (const field of JOB_FORM_FIELDS) {
    const code = jobFieldError(field, values);
    if (code) return { field, code };
  }
  return null;
}

/** Every failing field with its code. */
export function jobFormErrors(values: JobFormValues): JobFormErrors {
  const errors: JobFormErrors = {};
  for (const field of JOB_FORM_FIELDS) {
    const code = jobFieldError(field, values);
    if (code) errors[field] = code;
  }
  return errors;
}

const text = z.optional(z.string().check(z.maxLength(JOB_RICH_MAX_HTML + 1)));
const wholeId = whole(0, ID_MAX);

/**
 * POST manage-job-openings: mode 1 create, 2 update, 3 delete (delete sends only mode and
 * job_id). The field rules are checked by the route with `jobFormErrors`, so its refusal is
 * the form's.
 */
export const ManageJobOpeningBody = z.object({
  mode: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  job_id: z._default(wholeId, 0),
  job_title: text,
  department: text,
  location: text,
  job_type_id: z.optional(wholeId),
  /** A create's status: Draft when left out (docs/decisions/032-closing-an-opening.md). */
  status: z.optional(z.enum(['Draft', 'Open'])),
  /** Our additions: absent (a client of the spec's form) means on site, place unset. */
  work_type: text,
  country: text,
  locality: text,
  description: text,
  requirement: text,
  about_role: text,
  responsibility: text,
});
export type ManageJobOpeningBody = z.input<typeof ManageJobOpeningBody>;

export const ManageJobOpeningAnswer = z.object({ message: z.string(), row: JobOpeningRow });
export type ManageJobOpeningAnswer = z.infer<typeof ManageJobOpeningAnswer>;

/** The most words a reason for rejecting the applications of a closed opening may have. */
export const CLOSE_REASON_MAX = 300;

/**
 * PATCH /api/admin/job-openings/:id: Draft, Open or Closed (with If-Match). Closing may say what
 * happens to the applications still open (docs/decisions/032-closing-an-opening.md): `keep` (the
 * default) leaves them; `reject` moves them to Rejected with `reason` (required) and, with `mail`,
 * queues the rejection email to each candidate in the language they applied in.
 */
export const JobStatusBody = z.object({
  status: JobStatus,
  applications: z.optional(z.enum(['keep', 'reject'])),
  reason: z.optional(z.string().check(z.maxLength(CLOSE_REASON_MAX * 4))),
  mail: z.optional(z.boolean()),
});
export type JobStatusBody = z.infer<typeof JobStatusBody>;

/** A status change's answer: the opening, and how many applications a closing rejected and mailed. */
export const JobStatusAnswer = z.object({
  message: z.string(),
  row: JobOpeningRow,
  rejected: z.optional(z.number().check(z.int())),
  mailed: z.optional(z.number().check(z.int())),
});
export type JobStatusAnswer = z.infer<typeof JobStatusAnswer>;

/** The statuses of an application still being decided (closing an opening asks about these). */
export const UNDECIDED_STATUSES = ['New', 'Reviewed', 'Interview', 'Offer'] as const;

/** How many of an opening's applications are still being decided (from the back office's counts). */
export const undecidedOf = (row: Pick<JobOpeningRow, 'application_statuses'>) =>
  UNDECIDED_STATUSES.reduce((sum, status) => sum + (row.application_statuses?.[status] ?? 0), 0);

/** A closing's reason as the server keeps it (one line, trimmed), and whether it is acceptable. */
export function closeReasonError(reason: string): 'reasonRequired' | 'reasonTooLong' | null {
  const text = reason.trim();
  if (!text) return 'reasonRequired';
  if (Array.from(text).length > CLOSE_REASON_MAX) return 'reasonTooLong';
  return null;
}

/** 409 of a deletion refused: the opening has applications, and may be closed instead. */
export const DeleteRefusedAnswer = z.object({ message: z.string(), applications: z.number().check(z.int()) });

export const JOB_MESSAGES = {
  created: 'Job created successfully',
  createdDraft: 'Job created as a draft: publish it when it is ready',
  updated: 'Job updated successfully',
  deleted: 'Job deleted successfully',
  statusChanged: 'Job status changed',
  hasApplications: 'This opening has applications: close it instead, so they keep their job',
  reasonRequired: 'Say why the applications are rejected',
  reasonTooLong: `A reason is at most ${CLOSE_REASON_MAX} characters`,
  rejectNeedsPermission: 'Moving applications to Rejected needs the permission to manage applications',
} as const;
