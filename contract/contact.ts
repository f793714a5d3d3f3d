import { z } from 'zod/mini';
import { LANG_CODES } from './languages';

/**
 * POST contact-messages: the contact form's name, email, company (optional) and message, plus the
 * honeypot `website` that people never see. The server checks every rule again.
 */

export * from './contact-rules';

/**
 * The request's shape: strings, trimmed, a missing field read as '' (prefault). The rules are
 * `contactFormErrors` (contact-rules.ts), which the route applies to what this answers.
 */
export const ContactMessageInput = z.object({
  name: z.prefault(z.string().check(z.trim()), ''),
  email: z.prefault(z.string().check(z.trim()), ''),
  company: z.prefault(z.string().check(z.trim()), ''),
  message: z.prefault(z.string().check(z.trim()), ''),
  /** Honeypot: hidden from people and assistive technology; a filled one is a bot. */
  website: z.optional(z.string().check(z.maxLength(2000))),
  /** The page language the visitor wrote from, so a reply can use it. */
  lang: z.optional(z.enum(LANG_CODES)),
  /** Where it was sent from (insights.ts SOURCE_FIELDS): cleaned, never refused. */
  landing_page: z.optional(z.string().check(z.maxLength(2000))),
  referrer_host: z.optional(z.string().check(z.maxLength(2000))),
  utm_source: z.optional(z.string().check(z.maxLength(500))),
  utm_medium: z.optional(z.string().check(z.maxLength(500))),
  utm_campaign: z.optional(z.string().check(z.maxLength(500))),
});
export type ContactMessageInput = z.input<typeof ContactMessageInput>;

/** The answer of a stored (or repeated) message. */
export const ContactMessageAnswer = z.object({
  message: z.string(),
  message_id: z.number().check(z.int()),
});
export type ContactMessageAnswer = z.infer<typeof ContactMessageAnswer>;
