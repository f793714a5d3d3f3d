import { z } from 'zod/mini';
import { ID_MAX, idText, isIdText, whole } from './ids';
import { Timeline } from './application-timeline';
import { PAGE_NUMBER_MAX } from './paging';

/**
 * The admin's inbox of contact messages:
 * GET /api/admin/contact-messages?search=&pagenum=&pagesize=&handled= and
 * PATCH /api/admin/contact-messages/{message_id} with { handled }. Imports only zod.
 */

export const MESSAGE_PAGE_SIZE = 20;

export const ContactMessagesQuery = z.object({
  search: z._default(z.string().check(z.maxLength(200)), ''),
  pagenum: z._default(whole(1, PAGE_NUMBER_MAX), 1),
  pagesize: z._default(whole(1, 100), MESSAGE_PAGE_SIZE),
  /** '' every message, 'false' only those still open, 'true' only handled ones. */
  handled: z._default(z.enum(['', 'true', 'false']), ''),
  /** '' anyone's, 'me' the reader's, 'none' nobody's, or a colleague's user id. */
  assignee: z._default(
    z
      .string()
      .check(
        z.refine(
          (v) => v === '' || v === 'me' || v === 'none' || isIdText(v),
          'Expected me, none or a user id',
        ),
      ),
    '',
  ),
  /** One message only (a notice's link, `/admin/messages?message=`); 0 every message. */
  messageid: z._default(whole(0, ID_MAX), 0),
});
export type ContactMessagesQuery = z.output<typeof ContactMessagesQuery>;

export const ContactMessageRow = z.object({
  message_id: z.number().check(z.int()),
  name: z.string(),
  email: z.string(),
  company: z.string(),
  message: z.string(),
  lang: z.string(),
  handled: z.boolean(),
  created_at: z.string(),
  /** One more at each change of the handled flag or assignee (docs/decisions/022); sent back as If-Match. */
  version: z.optional(z.number().check(z.int())),
  /** Who it is assigned to: their id and name (display name, else address); null for nobody. */
  assignee_id: z.optional(z.nullable(z.number().check(z.int()))),
  assignee: z.optional(z.nullable(z.string())),
  /** How many replies its writer was sent. */
  replies: z.optional(z.number().check(z.int())),
  total_count: z.optional(z.number().check(z.int())),
});
export type ContactMessageRow = z.infer<typeof ContactMessageRow>;
export const ContactMessageRows = z.array(ContactMessageRow);

export const MessageIdParams = z.object({
  message_id: idText('Expected a message id'),
});
export const MessageHandledBody = z.object({ handled: z.boolean() });
export type MessageHandledBody = z.infer<typeof MessageHandledBody>;
export const MessageHandledAnswer = z.object({ message: z.string(), row: ContactMessageRow });
/** DELETE /api/admin/contact-messages/{message_id} (messages.manage): the message, for good. */
export const MessageDeleteAnswer = z.object({ message: z.string() });
export type MessageHandledAnswer = z.infer<typeof MessageHandledAnswer>;

/** POST /api/admin/contact-messages/{message_id}/replies (messages.manage): a reply to its writer. */
export const REPLY_MAX = 10_000;
export const ReplyBody = z.object({ text: z.string().check(z.maxLength(REPLY_MAX * 2)) });
/** The thread with the reply on it, and the message at its new version (a message answered is handled). */
export const ReplyAnswer = z.object({ message: z.string(), timeline: Timeline, row: ContactMessageRow });
export type ReplyAnswer = z.infer<typeof ReplyAnswer>;

/** PUT /api/admin/contact-messages/{message_id}/assignee (messages.manage, If-Match): null for nobody. */
export const AssigneeBody = z.object({ user_id: z.nullable(whole(1, 2_147_483_647)) });
export type AssigneeBody = z.infer<typeof AssigneeBody>;

/** GET /api/admin/contact-messages/assignees (messages.read): who a message can be assigned to. */
export const Assignee = z.object({ user_id: z.number(), name: z.string() });
export type Assignee = z.infer<typeof Assignee>;
export const Assignees = z.array(Assignee);

export const MESSAGE_ADMIN_TEXTS = {
  notFound: 'Message not found',
  textEmpty: 'Write a reply first',
  textTooLong: `A reply is at most ${REPLY_MAX} characters`,
  replySent: 'Reply queued for the writer',
  assigneeInvalid: 'Choose a colleague who may read messages',
  assigned: 'Assignment saved',
  markedHandled: 'Marked as handled',
  markedOpen: 'Marked as not handled',
  deleted: 'Message deleted',
} as const;
