import { z } from 'zod/mini';
import { idText, whole } from './ids';
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
  /** One more at each change of the handled flag (docs/decisions/022); sent back as If-Match. */
  version: z.optional(z.number().check(z.int())),
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

export const MESSAGE_ADMIN_TEXTS = {
  notFound: 'Message not found',
  markedHandled: 'Marked as handled',
  markedOpen: 'Marked as not handled',
  deleted: 'Message deleted',
} as const;
