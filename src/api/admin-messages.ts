import { adminWrite, fetchJson, toQuery } from './client';
import { ContactMessageRows, MessageHandledAnswer, type ContactMessageRow } from './contract/admin-messages';

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

export function saveMessageHandled(messageId: number, handled: boolean): Promise<ContactMessageRow> {
  return fetchJson(
    MessageHandledAnswer,
    `/api/admin/contact-messages/${messageId}`,
    adminWrite({ handled }, 'PATCH'),
  ).then((a) => a.row);
}
