/**
 * The contact form's rules and messages as plain constants (no zod), so the contact page can
 * check the form without loading the schema library before it is needed. The zod contract in
 * contact.ts builds on these and re-exports them.
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
export const CONTACT_EMAIL_MAX = 254;
export const CONTACT_COMPANY_MAX = 200;
export const CONTACT_MESSAGE_MAX = 5000;

/**
 * One address shape for both sides (the same as the job application's): something@domain.tld,
 * no spaces, one @.
 */
export const CONTACT_EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
