import { adminDelete, adminWrite, fetchJson, toQuery, versioned } from './client';
import {
  ContactMessageRow,
  ContactMessageRows,
  MessageDeleteAnswer,
  MessageHandledAnswer,
} from './contract/admin-messages';

/** The contact messages inbox, on this server's /api/admin. Not cached. */

export type HandledFilter = '' | 'true' | 'false';

export interface MessagePageQuery {
  search: string;
  page: number;
  pageSize: number;
  handled: HandledFilter;
}

export function loadMessages(q: MessagePageQuery, init?: RequestInit): Promise<ContactMessageRow[]> {
  const query = toQuery({
    search: q.search.trim(),
    pagenum: q.page,
    pagesize: q.pageSize,
    handled: q.handled,
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
