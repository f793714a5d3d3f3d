import { z } from 'zod/mini';
import { idText } from './ids';

/**
 * POST manage-job-applications (spec sections 5 and 7; DESIGN.md section 4): a multipart form
 * with job_id, full_name, email, contact_number, address, resume (the CV file), consent and the
 * honeypot `website`. The server checks every rule again; the messages are the spec's.
 */
export const APPLICATION_MESSAGES = {
  nameRequired: 'Name is required',
  emailInvalid: 'Invalid email',
  emailRequired: 'Email is required',
  contactDigits: 'Must be 10 digits',
  contactRequired: 'Contact is required',
  addressRequired: 'Address is required',
  resumeRequired: 'Resume is required',
  resumeTooLarge: 'File too large (max 5MB)',
  resumeType: 'Only PDF, DOC, DOCX allowed',
  consentRequired: 'Please confirm that we may use your data for recruiting',
  success: 'Application submitted successfully!',
} as const;

/** Resume limit (spec section 9): 5 MB = 5 * 1024 * 1024 bytes. */
export const RESUME_MAX_BYTES = 5 * 1024 * 1024;
export const RESUME_EXTENSIONS = ['.pdf', '.doc', '.docx'] as const;
export const RESUME_ACCEPT =
  '.pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export const NAME_MAX = 200;
export const EMAIL_MAX = 254;
export const ADDRESS_MAX = 500;

/**
 * One address shape for both sides: something@domain.tld, no spaces, one @. Deliberately not
 * RFC 5322 in full (quoted local parts and IP literals are not what applicants type).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export const CONTACT_PATTERN = /^\d{10}$/;

/** The text fields of the form, as the server reads them from the multipart body. */
export const ApplicationFields = z.object({
  job_id: idText('Choose a job opening'),
  full_name: z
    .string()
    .check(z.trim(), z.minLength(1, APPLICATION_MESSAGES.nameRequired), z.maxLength(NAME_MAX)),
  email: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, APPLICATION_MESSAGES.emailRequired),
      z.maxLength(EMAIL_MAX, APPLICATION_MESSAGES.emailInvalid),
      z.regex(EMAIL_PATTERN, APPLICATION_MESSAGES.emailInvalid),
    ),
  contact_number: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, APPLICATION_MESSAGES.contactRequired),
      z.regex(CONTACT_PATTERN, APPLICATION_MESSAGES.contactDigits),
    ),
  address: z
    .string()
    .check(z.trim(), z.minLength(1, APPLICATION_MESSAGES.addressRequired), z.maxLength(ADDRESS_MAX)),
  consent: z.string().check(z.regex(/^(true|on|1|yes)$/, APPLICATION_MESSAGES.consentRequired)),
});
export type ApplicationFields = z.output<typeof ApplicationFields>;

/** The answer of a stored (or repeated) application. */
export const ApplicationAnswer = z.object({
  Message: z.optional(z.string()),
  application_id: z.optional(z.number().check(z.int())),
});
export type ApplicationAnswer = z.infer<typeof ApplicationAnswer>;

/** What the applicant sends (spec section 3, "Job application"), plus consent and the honeypot. */
export interface ApplicationInput {
  job_id: number;
  full_name: string;
  email: string;
  contact_number: string;
  address: string;
  resume: File;
  consent: boolean;
  /** The hidden honeypot field; people leave it empty. */
  website: string;
  /** The page's language: the candidate's acknowledgment mail is written in it. */
  lang?: string;
  /** One per submission (DESIGN.md section 4): a retried request is stored once. */
  idempotencyKey: string;
}
