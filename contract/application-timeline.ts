import { z } from 'zod/mini';
import { ApplicationStatus } from './admin-applications';

/**
 * A record's timeline in the back office (docs/decisions/026-application-timeline.md): an application's, and a contact message's
 * (GET /api/admin/contact-messages/{id}/timeline: received, assignments, replies). An application's:
 * GET  /api/admin/job-applications/{id}/timeline (applications.read): what happened to it, oldest
 *      first, and the colleagues a note can mention;
 * POST /api/admin/job-applications/{id}/notes (applications.read): a note, plain text with line
 *      breaks; `@handle` mentions mail that colleague a notice.
 * Shared by the server (request validation) and the browser (answer checks). Imports only zod.
 */

/** A note is at most this many characters (a long interview write-up fits). */
export const NOTE_MAX = 5000;

export const TIMELINE_MESSAGES = {
  noteEmpty: 'Write a note first',
  noteTooLong: `A note is at most ${NOTE_MAX} characters`,
  noteAdded: 'Note added',
} as const;

export const NoteBody = z.object({
  // the limit is checked again after cleaning (services/application-timeline.ts)
  text: z.string().check(z.maxLength(NOTE_MAX * 2, TIMELINE_MESSAGES.noteTooLong)),
});
export type NoteBody = z.infer<typeof NoteBody>;

/**
 * A mention is `@` and a colleague's handle: the part of their address before the `@`, as
 * `@asha.menon` for asha.menon@example.com. Letters, digits and . _ + - (a trailing dot is the
 * sentence's). The browser offers the handles; the server reads them again.
 */
export const MENTION_PATTERN = /(?<![\p{L}\p{N}._+-])@([\p{L}\p{N}_+-]+(?:\.[\p{L}\p{N}_+-]+)*)/gu;

/** The handles a text mentions, lower-cased, each once, in order. */
export function mentionsIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(MENTION_PATTERN), (m) => m[1]!.toLowerCase()))];
}

/** A colleague's handle: their address's local part, lower-cased. */
export const handleOf = (email: string) => email.slice(0, email.lastIndexOf('@')).toLowerCase();

/** Who did something: their display name, else their address ('' when nobody: the site itself). */
const by = z.string();
const at = z.string();

export const TimelineEvent = z.union([
  z.object({ kind: z.literal('received'), at }),
  z.object({
    kind: z.literal('status'),
    at,
    by,
    from: z.nullable(ApplicationStatus),
    to: ApplicationStatus,
    /** Why, when the move said (a closing that rejected the opening's applications). */
    reason: z.optional(z.string()),
  }),
  z.object({
    kind: z.literal('note'),
    at,
    by,
    note_id: z.number(),
    text: z.string(),
    /** The colleagues it mentions (their names), who were mailed a notice when it was written. */
    mentioned: z.array(z.string()),
  }),
  z.object({
    kind: z.literal('mail'),
    at,
    /** 'application-ack', 'candidate-mail' (one staff wrote), or 'message-reply'. */
    mail: z.string(),
    /** Who wrote it ('' for the site's own acknowledgment). */
    by: z.string(),
    /** The words staff wrote, where the timeline shows them (a reply to a message). */
    text: z.optional(z.string()),
    subject: z.string(),
    to: z.string(),
    /** pending (queued, not yet accepted by the mail server), sent, or failed (given up). */
    status: z.enum(['pending', 'sent', 'failed']),
    sent_at: z.nullable(z.string()),
  }),
  /** A contact message was assigned: to whom ('' for nobody), by whom. */
  z.object({ kind: z.literal('assigned'), at, by, to: z.string() }),
  /** Someone was given the CV's address (views within an hour by one person are one). */
  z.object({ kind: z.literal('cv'), at, by, count: z.number() }),
]);
export type TimelineEvent = z.infer<typeof TimelineEvent>;

export const Colleague = z.object({ handle: z.string(), name: z.string() });
export type Colleague = z.infer<typeof Colleague>;

export const Timeline = z.object({
  events: z.array(TimelineEvent),
  /** Colleagues who may read applications (a mention reaches them), the caller excluded. */
  colleagues: z.array(Colleague),
  /**
   * Where a reply to a mail sent from this record goes: the site's hiring or contact Reply-To
   * (HIRING_REPLY_TO, CONTACT_REPLY_TO), or null when it is not set and replies go to an address
   * nobody reads (the composers say so).
   */
  replies_to: z.optional(z.nullable(z.string())),
});
export type Timeline = z.infer<typeof Timeline>;

export const NoteAnswer = z.object({ message: z.string(), timeline: Timeline });
export type NoteAnswer = z.infer<typeof NoteAnswer>;
