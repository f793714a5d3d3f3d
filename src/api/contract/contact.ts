import { z } from 'zod/mini';

/**
 * POST contact-messages (spec sections 3 and 5; DESIGN.md sections 4 and 6): the contact form's
 * name, email, company (optional) and message, plus the honeypot `website` that people never see.
 * The server checks every rule again; the messages are the spec's.
 */
import {
  CONTACT_COMPANY_MAX,
  CONTACT_EMAIL_MAX,
  CONTACT_EMAIL_PATTERN,
  CONTACT_MESSAGE_MAX,
  CONTACT_MESSAGES,
  CONTACT_NAME_MAX,
} from './contact-rules';

export * from './contact-rules';

const M = CONTACT_MESSAGES;

export const ContactMessageInput = z.object({
  // prefault: a missing field is checked as '' (and gets the spec's "required" message)
  name: z.prefault(
    z.string().check(z.trim(), z.minLength(1, M.nameRequired), z.maxLength(CONTACT_NAME_MAX, M.nameTooLong)),
    '',
  ),
  email: z.prefault(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, M.emailRequired),
        z.maxLength(CONTACT_EMAIL_MAX, M.emailInvalid),
        z.regex(CONTACT_EMAIL_PATTERN, M.emailInvalid),
      ),
    '',
  ),
  company: z.prefault(z.string().check(z.trim(), z.maxLength(CONTACT_COMPANY_MAX, M.companyTooLong)), ''),
  message: z.prefault(
    z
      .string()
      .check(z.trim(), z.minLength(1, M.messageRequired), z.maxLength(CONTACT_MESSAGE_MAX, M.messageTooLong)),
    '',
  ),
  /** Honeypot: hidden from people and assistive technology; a filled one is a bot. */
  website: z.optional(z.string().check(z.maxLength(2000))),
  /** The page language the visitor wrote from, so a reply can use it. */
  lang: z.optional(z.enum(['en', 'ml', 'fr', 'de', 'es'])),
});
export type ContactMessageInput = z.input<typeof ContactMessageInput>;
export type ContactMessage = z.output<typeof ContactMessageInput>;

/** The answer of a stored (or repeated) message. */
export const ContactMessageAnswer = z.object({
  message: z.string(),
  message_id: z.number().check(z.int()),
});
export type ContactMessageAnswer = z.infer<typeof ContactMessageAnswer>;
