import { adminDelete, adminWrite, fetchJson, toQuery, versioned } from './client';
import {
  Assignees,
  ContactMessageRow,
  ContactMessageRows,
  MessageDeleteAnswer,
  MessageHandledAnswer,
  ReplyAnswer,
  type Assignee,
} from '../../contract/admin-messages';
import { Timeline, type Timeline as TimelineData } from '../../contract/application-timeline';

/** The contact messages inbox, on this server's /api/admin. Not cached. */

export type HandledFilter = '' | 'true' | 'false';

export interface MessagePageQuery {
  search: string;
  page: number;
  pageSize: number;
  handled: HandledFilter;
  /** '' anyone's, 'me', 'none', or a colleague's id. */
  assignee: string;
  /** One message only; 0 (or absent) every message. */
  message?: number;
}

export function loadMessages(q: MessagePageQuery, init?: RequestInit): Promise<ContactMessageRow[]> {
  const query = toQuery({
    search: q.search.trim(),
    pagenum: q.page,
    pagesize: q.pageSize,
    handled: q.handled,
    assignee: q.assignee,
    ...(q.message ? { messageid: q.message } : {}),
  });
  return fetchJson(ContactMessageRows, `/api/admin/contact-messages?${query}`, {
    cache: 'no-store',
    ...init,
  });
}

/**
 * Marks a message handled or open, based on the version the screen shows (a `VersionConflict` with
 * the message as it is now when someone changed it the other way meanwhile).
 */
export function saveMessageHandled(
  messageId: number,
  handled: boolean,
  version: number,
): Promise<ContactMessageRow> {
  return versioned(
    ContactMessageRow,
    fetchJson(
      MessageHandledAnswer,
      `/api/admin/contact-messages/${messageId}`,
      adminWrite({ handled }, 'PATCH', version),
    ),
  ).then((a) => a.row);
}

/** Deletes a message for good (messages.manage). */
export function deleteMessage(messageId: number): Promise<{ message: string }> {
  return fetchJson(MessageDeleteAnswer, `/api/admin/contact-messages/${messageId}`, adminDelete());
}

/** GET /api/admin/contact-messages/{id}/timeline: received, assignments, replies with their state. */
export function loadMessageThread(messageId: number, init?: RequestInit): Promise<TimelineData> {
  return fetchJson(Timeline, `/api/admin/contact-messages/${messageId}/timeline`, {
    cache: 'no-store',
    ...init,
  });
}

/** POST /api/admin/contact-messages/{id}/replies: the timeline with the reply on it, and the message (handled). */
export function sendReply(messageId: number, text: string): Promise<{ timeline: TimelineData; row: ContactMessageRow }> {
  return fetchJson(ReplyAnswer, `/api/admin/contact-messages/${messageId}/replies`, adminWrite({ text })).then(
    ({ timeline, row }) => ({ timeline, row }),
  );
}

/** GET /api/admin/contact-messages/assignees: colleagues who may read messages. */
export function loadAssignees(init?: RequestInit): Promise<Assignee[]> {
  return fetchJson(Assignees, '/api/admin/contact-messages/assignees', { cache: 'no-store', ...init });
}

/** Assigns a message (null: to nobody), based on the version the screen shows. */
export function saveAssignee(
  messageId: number,
  userId: number | null,
  version: number,
): Promise<ContactMessageRow> {
  return versioned(
    ContactMessageRow,
    fetchJson(
      MessageHandledAnswer,
      `/api/admin/contact-messages/${messageId}/assignee`,
      adminWrite({ user_id: userId }, 'PUT', version),
    ),
  ).then((a) => a.row);
}
