import type { VisitSource } from './insights';
import { z } from 'zod/mini';
import { emailError } from './form-rules';
import { idText } from './ids';

/**
 * POST manage-job-applications: a multipart form with job_id, full_name, email, contact_number,
 * address, resume (the CV file), consent and the honeypot `website`. The rules are
 * `applicationFormErrors`, for the Apply form and the server alike (form-rules.ts).
 */
export const APPLICATION_MESSAGES = {
  nameRequired: 'Name is required',
  emailInvalid: 'Invalid email',
  emailRequired: 'Email is required',
  contactDigits: 'Must be 10 digits',
  contactInvalid: 'Enter a phone number of the chosen country',
  contactRequired: 'Contact is required',
  addressRequired: 'Address is required',
  resumeRequired: 'Resume is required',
  resumeTooLarge: 'File too large (max 5MB)',
  resumeType: 'Only PDF, DOC, DOCX allowed',
  resumeName: 'Invalid file name',
  resumeActive:
    'This PDF contains scripts, actions or attached files, or parts we cannot check. Save or print it as a plain PDF and upload it again.',
  consentRequired: 'Please confirm that we may use your data for recruiting',
  tooLong: 'Too long',
  invalid: 'Invalid value',
  jobGone: 'This job opening is no longer available.',
  jobInvalid: 'Choose a job opening',
  success: 'Application submitted successfully!',
} as const;

/** The largest CV: 5 MB = 5 * 1024 * 1024 bytes. */
export const RESUME_MAX_BYTES = 5 * 1024 * 1024;
export const RESUME_EXTENSIONS = ['.pdf', '.doc', '.docx'] as const;
export const RESUME_ACCEPT =
  '.pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export const NAME_MAX = 200;
export const ADDRESS_MAX = 500;

/** An Indian contact number as the spec has it: exactly ten digits (stored as +91 and the ten). */
export const CONTACT_PATTERN = /^\d{10}$/;

/**
 * Phone numbers of every country (docs/decisions/027-job-pages-and-phone-numbers.md). The form sends the number as typed and the country
 * chosen beside it (ISO 3166 alpha-2, the visitor's country by default, India when unknown); the
 * server keeps the number in E.164 (`+4930123456`). `PhoneCheck` is libphonenumber-js's verdict
 * (contract/phone-check.ts: the server's, and the browser's once the form has loaded it): the
 * number's E.164 form, or undefined when it is no number of that country. Before it has loaded, the
 * browser judges the shape only, and the server's answer has the last word.
 */
export type PhoneCheck = (number: string, country: string) => string | undefined;
export const DEFAULT_PHONE_COUNTRY = 'IN';

/** The country a page's language most likely means, for a phone number when the visitor's is unknown. */
const LANGUAGE_COUNTRY: Record<string, string> = { de: 'DE', fr: 'FR', es: 'ES', ml: 'IN', en: DEFAULT_PHONE_COUNTRY };

/**
 * The phone number's first country: the visitor's when it is known, else the page language's
 * (a German page starts at Germany, not at the spec's India), else India.
 */
export const firstPhoneCountry = (visitor: string | null, lang: string) =>
  visitor || LANGUAGE_COUNTRY[lang.slice(0, 2)] || DEFAULT_PHONE_COUNTRY;
export const PHONE_MAX = 40;
const PHONE_SHAPE = /^\+?[\d\s().-]+$/;

/** The number in E.164: ten digits for India as today, else the check's verdict. */
export function phoneE164(number: string, country: string, check: PhoneCheck): string | undefined {
  const n = number.trim();
  if (country === 'IN' && CONTACT_PATTERN.test(n)) return `+91${n}`;
  return n.length <= PHONE_MAX ? check(n, country) : undefined;
}

function contactError(number: string, country: string, check?: PhoneCheck): ApplicationErrorCode | undefined {
  const contact = number.trim();
  if (!contact) return 'contactRequired';
  // digits alone for India: the spec's rule and message
  const refused = country === 'IN' && /^\d+$/.test(contact) ? 'contactDigits' : 'contactInvalid';
  if (check) return phoneE164(contact, country, check) ? undefined : refused;
  const digits = contact.replace(/\D/g, '').length;
  if (country === 'IN' && /^\d+$/.test(contact)) return digits === 10 ? undefined : refused;
  return contact.length <= PHONE_MAX && PHONE_SHAPE.test(contact) && digits >= 5 && digits <= 15
    ? undefined
    : refused;
}

/** The fields a person fills in, in the order of the form (the first invalid one is focused). */
export const APPLICATION_FIELDS = [
  'full_name',
  'email',
  'contact_number',
  'address',
  'resume',
  'consent',
] as const;
export type ApplicationField = (typeof APPLICATION_FIELDS)[number];

/** Codes of the error texts (the screen translates them; the English ones are APPLICATION_MESSAGES). */
export const APPLICATION_ERROR_CODES = [
  'nameRequired',
  'emailInvalid',
  'emailRequired',
  'contactDigits',
  'contactInvalid',
  'contactRequired',
  'addressRequired',
  'resumeRequired',
  'resumeTooLarge',
  'resumeType',
  'resumeName',
  'resumeActive',
  'consentRequired',
  'tooLong',
  'invalid',
  'jobGone',
  'jobInvalid',
] as const;
export type ApplicationErrorCode = (typeof APPLICATION_ERROR_CODES)[number];
export type ApplicationErrors = Partial<Record<ApplicationField | 'job_id', ApplicationErrorCode>>;

/** What the rules read: the typed texts, the CV's name and size, and the consent box. */
export interface ApplicationRuleInput {
  full_name: string;
  email: string;
  contact_number: string;
  /** The country of the number (ISO 3166 alpha-2); empty: DEFAULT_PHONE_COUNTRY. */
  contact_country?: string;
  address: string;
  resume: { name: string; size: number } | null;
  consent: boolean;
}

export interface ApplicationRuleOptions {
  /**
   * Judge the CV's type by its name's extension (the browser, before anything is sent). The
   * server passes false: it reads the bytes next, and the content decides.
   */
  typeByName?: boolean;
  /** The full phone check (the server always; the browser once loaded). */
  phone?: PhoneCheck;
}

const hasResumeExtension = (name: string) =>
  RESUME_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

/** The rule of one field; undefined when it passes. */
export function applicationFieldError(
  field: ApplicationField,
  input: ApplicationRuleInput,
  { typeByName = true, phone }: ApplicationRuleOptions = {},
): ApplicationErrorCode | undefined {
  switch (field) {
    case 'full_name': {
      const name = input.full_name.trim();
      if (!name) return 'nameRequired';
      return name.length > NAME_MAX ? 'tooLong' : undefined;
    }
    case 'email':
      return emailError(input.email);
    case 'contact_number':
      return contactError(input.contact_number, input.contact_country || DEFAULT_PHONE_COUNTRY, phone);
    case 'address': {
      const address = input.address.trim();
      if (!address) return 'addressRequired';
      return address.length > ADDRESS_MAX ? 'tooLong' : undefined;
    }
    case 'resume': {
      const file = input.resume;
      if (!file || file.size === 0) return 'resumeRequired';
      if (file.size > RESUME_MAX_BYTES) return 'resumeTooLarge';
      return !typeByName || hasResumeExtension(file.name) ? undefined : 'resumeType';
    }
    case 'consent':
      return input.consent ? undefined : 'consentRequired';
  }
}

/** Every field's error, in form order. */
export function applicationFormErrors(
  input: ApplicationRuleInput,
  options?: ApplicationRuleOptions,
): ApplicationErrors {
  const errors: ApplicationErrors = {};
  for (const field of APPLICATION_FIELDS) {
    const error = applicationFieldError(field, input, options);
    if (error) errors[field] = error;
  }
  return errors;
}

/** How the multipart form says yes to consent (a checkbox sends "on", the app "true"). */
export const consentGiven = (value: string | undefined) => /^(true|on|1|yes)$/.test(value ?? '');

/** The job the application is for: a positive whole number. */
export const ApplicationJobId = idText(APPLICATION_MESSAGES.jobInvalid);

/** The answer of a stored (or repeated) application. */
export const ApplicationAnswer = z.object({
  Message: z.optional(z.string()),
  application_id: z.optional(z.number().check(z.int())),
});
export type ApplicationAnswer = z.infer<typeof ApplicationAnswer>;

/** What the applicant sends, plus consent and the honeypot. */
export interface ApplicationInput {
  job_id: number;
  full_name: string;
  email: string;
  contact_number: string;
  /** The country chosen beside the number (ISO 3166 alpha-2). */
  contact_country?: string;
  address: string;
  resume: File;
  consent: boolean;
  /** The hidden honeypot field; people leave it empty. */
  website: string;
  /** The page's language: the candidate's acknowledgment mail is written in it. */
  lang?: string;
  /** Where it was sent from: its visit's landing page, referrer and campaign (insights.ts). */
  source?: VisitSource;
  /** One per submission: a retried request is stored once. */
  idempotencyKey: string;
}
