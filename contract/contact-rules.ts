import { emailError } from './form-rules';

/**
 * The contact form's rules and messages as plain code (no zod), so the contact page can check the
 * form without loading the schema library before it is needed (form-rules.ts tells the pattern).
 * The zod contract in contact.ts reads the request's shape and re-exports these.
 */
export const CONTACT_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  messageRequired: 'Message is required',
  nameTooLong: 'Name must be at most 200 characters',
  companyTooLong: 'Company/Organization must be at most 200 characters',
  messageTooLong: 'Message must be at most 5000 characters',
  success: "Thank you! Your message has been sent. We'll get back to you within 24 hours.",
} as const;

export const CONTACT_NAME_MAX = 200;
export const CONTACT_COMPANY_MAX = 200;
export const CONTACT_MESSAGE_MAX = 5000;

/** The fields a person fills in, in the order of the form (the first invalid one is focused). */
export const CONTACT_CHECKED_FIELDS = ['name', 'email', 'company', 'message'] as const;
export type ContactCheckedField = (typeof CONTACT_CHECKED_FIELDS)[number];

/** Codes of the error texts (the screen translates them; the English ones are CONTACT_MESSAGES). */
export const CONTACT_ERROR_CODES = [
  'nameRequired',
  'emailRequired',
  'emailInvalid',
  'messageRequired',
  'nameTooLong',
  'companyTooLong',
  'messageTooLong',
] as const;
export type ContactErrorCode = (typeof CONTACT_ERROR_CODES)[number];
export type ContactErrors = Partial<Record<ContactCheckedField, ContactErrorCode>>;

/** Every rule of the contact form, in field order: name and message required, lengths, the email rule. */
export function contactFormErrors(fields: Record<ContactCheckedField, string>): ContactErrors {
  const errors: ContactErrors = {};
  const name = fields.name.trim();
  if (name === '') errors.name = 'nameRequired';
  else if (name.length > CONTACT_NAME_MAX) errors.name = 'nameTooLong';
  const email = emailError(fields.email);
  if (email) errors.email = email;
  if (fields.company.trim().length > CONTACT_COMPANY_MAX) errors.company = 'companyTooLong';
  const message = fields.message.trim();
  if (message === '') errors.message = 'messageRequired';
  else if (message.length > CONTACT_MESSAGE_MAX) errors.message = 'messageTooLong';
  return errors;
}
