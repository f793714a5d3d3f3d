import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { ContactMessageRow } from '../api/contract/admin-messages';
import { pageBefore, paginationChild } from './pagination.machine';

/**
 * The Messages screen: contact messages, newest first.
 *
 * - `loading` -> `ready` (rows; none is `ready` with no rows) or `failed` (Retry).
 * - Search: `search.change` waits `searchDebounce` (300 ms) in `debouncing`, then loads page 1;
 *   `search.clear` loads at once. `show.change` picks every message, open ones or handled ones.
 * - Pages: a child `pagination` actor (the shared pagination.machine.ts) gets the total after each
 *   load and answers `page.changed`. A page past the end (after the filter changed elsewhere)
 *   steps back to the last page.
 * - `handled.toggle` saves the other value of one message (`saving`; the row is updated in place,
 *   or stays as it was on failure).
 *
 * Effects the screen provides: actors `loadMessages`, `saveHandled`; actions `reportLoadFailure`,
 * `notifyHandledSaved`, `notifyHandledFailed`.
 */

export type ShowFilter = 'all' | 'open' | 'handled';

export interface LoadMessagesInput {
  search: string;
  page: number;
  pageSize: number;
  show: ShowFilter;
}

export interface MessagesListContext {
  pageSize: number;
  page: number;
  searchText: string;
  search: string;
  show: ShowFilter;
  rows: ContactMessageRow[];
  total: number;
  /** The message whose handled flag is being saved. */
  target: ContactMessageRow | null;
}

export type MessagesListEvent =
  | { type: 'search.change'; text: string }
  | { type: 'search.clear' }
  | { type: 'show.change'; show: ShowFilter }
  | { type: 'page.changed'; page: number }
  | { type: 'list.retry' }
  | { type: 'handled.toggle'; row: ContactMessageRow };

export const messagesListMachine = setup({
  types: {
    context: {} as MessagesListContext,
    events: {} as MessagesListEvent,
    input: {} as { pageSize: number },
  },
  actors: {
    loadMessages: fromPromise<ContactMessageRow[], LoadMessagesInput>(async () => {
      throw new Error('loadMessages is provided by the app');
    }),
    saveHandled: fromPromise<ContactMessageRow, { messageId: number; handled: boolean }>(async () => {
      throw new Error('saveHandled is provided by the app');
    }),
    pagination: paginationChild,
  },
  delays: {
    searchDebounce: 300,
  },
  actions: {
    storeRows: assign((_, params: { rows: ContactMessageRow[] }) => ({
      rows: params.rows,
      total: params.rows[0]?.total_count ?? params.rows.length,
    })),
    tellPagination: sendTo('pagination', ({ context }) => ({
      type: 'total.update' as const,
      total: context.total,
    })),
    resetPagination: sendTo('pagination', { type: 'page.reset' as const }),
    setPage: assign({ page: (_, params: { page: number }) => params.page }),
    stepBack: assign({ page: ({ context }) => pageBefore(context) }),
    typeSearch: assign({ searchText: (_, params: { text: string }) => params.text }),
    applySearch: assign(({ context }) => ({ search: context.searchText.trim(), page: 1 })),
    clearSearch: assign({ searchText: '', search: '', page: 1 }),
    setShow: assign({ show: (_, params: { show: ShowFilter }) => params.show, page: 1 }),
    setTarget: assign({ target: (_, params: { row: ContactMessageRow }) => params.row }),
    clearTarget: assign({ target: null }),
    replaceRow: assign({
      rows: ({ context }, params: { row: ContactMessageRow }) =>
        context.rows.map((r) =>
          r.message_id === params.row.message_id ? { ...params.row, total_count: r.total_count } : r,
        ),
    }),
    reportLoadFailure: (_, _params: { error: unknown }) => {},
    notifyHandledSaved: (_, _params: { row: ContactMessageRow }) => {},
    notifyHandledFailed: (_, _params: { error: unknown }) => {},
  },
  guards: {
    isEmptyLaterPage: ({ context }, params: { rows: ContactMessageRow[] }) =>
      params.rows.length === 0 && context.page > 1,
    isOtherPage: ({ context }, params: { page: number }) => params.page !== context.page,
  },
}).createMachine({
  id: 'messagesList',
  context: ({ input }) => ({
    pageSize: input.pageSize,
    page: 1,
    searchText: '',
    search: '',
    show: 'all',
    rows: [],
    total: 0,
    target: null,
  }),
  invoke: {
    id: 'pagination',
    src: 'pagination',
    input: ({ context }) => ({ pageSize: context.pageSize }),
    onError: { actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) } },
  },
  initial: 'loading',
  on: {
    'search.change': {
      target: '.debouncing',
      actions: { type: 'typeSearch', params: ({ event }) => ({ text: event.text }) },
    },
    'search.clear': { target: '.loading', actions: ['clearSearch', 'resetPagination'] },
    'show.change': {
      target: '.loading',
      actions: [{ type: 'setShow', params: ({ event }) => ({ show: event.show }) }, 'resetPagination'],
    },
    'page.changed': {
      guard: { type: 'isOtherPage', params: ({ event }) => ({ page: event.page }) },
      target: '.loading',
      actions: { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
    },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadMessages',
        src: 'loadMessages',
        input: ({ context }) => ({
          search: context.search,
          page: context.page,
          pageSize: context.pageSize,
          show: context.show,
        }),
        onDone: [
          {
            guard: { type: 'isEmptyLaterPage', params: ({ event }) => ({ rows: event.output }) },
            target: 'loading',
            reenter: true,
            actions: 'stepBack',
          },
          {
            target: 'ready',
            actions: [
              { type: 'storeRows', params: ({ event }) => ({ rows: event.output }) },
              'tellPagination',
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    debouncing: {
      after: { searchDebounce: { target: 'loading', actions: ['applySearch', 'resetPagination'] } },
    },
    ready: {
      on: {
        'handled.toggle': {
          target: 'saving',
          actions: { type: 'setTarget', params: ({ event }) => ({ row: event.row }) },
        },
      },
    },
    saving: {
      invoke: {
        id: 'saveHandled',
        src: 'saveHandled',
        input: ({ context }) => ({
          messageId: context.target!.message_id,
          handled: !context.target!.handled,
        }),
        onDone: {
          target: 'ready',
          actions: [
            { type: 'replaceRow', params: ({ event }) => ({ row: event.output }) },
            { type: 'notifyHandledSaved', params: ({ event }) => ({ row: event.output }) },
            'clearTarget',
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            { type: 'notifyHandledFailed', params: ({ event }) => ({ error: event.error }) },
            'clearTarget',
          ],
        },
      },
    },
    failed: {
      on: { 'list.retry': 'loading' },
    },
  },
});
