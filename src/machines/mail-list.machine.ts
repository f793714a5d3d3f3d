import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { MailRow } from '../api/contract/mail';
import { paginationChild } from './pagination.machine';

/**
 * The Mail screen: the outbox, newest first, 20 a page.
 *
 * - `loading` -> `ready` (rows, and whether the server sends mail; none is `ready` with no rows)
 *   or `failed` (Retry).
 * - `status.change` shows every mail, or only waiting, sent or failed ones (page 1 again).
 * - Pages: a child `pagination` actor (the shared pagination.machine.ts) gets the total after each
 *   load and answers `page.changed`.
 * - `mail.retry` puts one mail that was not sent back in line (`retrying`), then reloads the page.
 *
 * Effects the screen provides: actors `loadMail`, `retryMail`; actions `reportLoadFailure`,
 * `notifyRetried`, `notifyRetryFailed`.
 */
export const MAIL_PAGE_SIZE = 20;

export type MailStatusFilter = '' | 'pending' | 'sent' | 'failed';

export interface LoadMailInput {
  page: number;
  pageSize: number;
  status: MailStatusFilter;
}

export interface MailListContext {
  /** Whether the server sends mail (SMTP_URL); null until the first load. */
  configured: boolean | null;
  page: number;
  status: MailStatusFilter;
  rows: MailRow[];
  total: number;
  target: MailRow | null;
}

export type MailListEvent =
  | { type: 'status.change'; status: MailStatusFilter }
  | { type: 'page.changed'; page: number }
  | { type: 'list.retry' }
  | { type: 'mail.retry'; row: MailRow };

export const mailListMachine = setup({
  types: { context: {} as MailListContext, events: {} as MailListEvent },
  actors: {
    loadMail: fromPromise<{ rows: MailRow[]; configured: boolean }, LoadMailInput>(async () => {
      throw new Error('loadMail is provided by the app');
    }),
    retryMail: fromPromise<unknown, { mailId: number }>(async () => {
      throw new Error('retryMail is provided by the app');
    }),
    pagination: paginationChild,
  },
  actions: {
    storeRows: assign((_, params: { rows: MailRow[]; configured: boolean }) => ({
      rows: params.rows,
      total: params.rows[0]?.total_count ?? params.rows.length,
      configured: params.configured,
    })),
    tellPagination: sendTo('pagination', ({ context }) => ({
      type: 'total.update' as const,
      total: context.total,
    })),
    resetPagination: sendTo('pagination', { type: 'page.reset' as const }),
    setPage: assign({ page: (_, params: { page: number }) => params.page }),
    setStatus: assign({ status: (_, params: { status: MailStatusFilter }) => params.status, page: 1 }),
    setTarget: assign({ target: (_, params: { row: MailRow }) => params.row }),
    clearTarget: assign({ target: null }),
    reportLoadFailure: (_, _params: { error: unknown }) => {},
    notifyRetried: () => {},
    notifyRetryFailed: (_, _params: { error: unknown }) => {},
  },
  guards: {
    isOtherPage: ({ context }, params: { page: number }) => params.page !== context.page,
  },
}).createMachine({
  id: 'mailList',
  context: { configured: null, page: 1, status: '', rows: [], total: 0, target: null },
  invoke: {
    id: 'pagination',
    src: 'pagination',
    input: { pageSize: MAIL_PAGE_SIZE },
  },
  initial: 'loading',
  on: {
    'status.change': {
      target: '.loading',
      actions: [{ type: 'setStatus', params: ({ event }) => ({ status: event.status }) }, 'resetPagination'],
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
        src: 'loadMail',
        input: ({ context }) => ({ page: context.page, pageSize: MAIL_PAGE_SIZE, status: context.status }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'storeRows', params: ({ event }) => event.output }, 'tellPagination'],
        },
        onError: {
          target: 'failed',
          actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    ready: {
      on: {
        'mail.retry': {
          target: 'retrying',
          actions: { type: 'setTarget', params: ({ event }) => ({ row: event.row }) },
        },
      },
    },
    retrying: {
      invoke: {
        src: 'retryMail',
        input: ({ context }) => ({ mailId: context.target!.mail_id }),
        onDone: { target: 'loading', actions: ['notifyRetried', 'clearTarget'] },
        onError: {
          target: 'ready',
          actions: [
            { type: 'notifyRetryFailed', params: ({ event }) => ({ error: event.error }) },
            'clearTarget',
          ],
        },
      },
    },
    failed: { on: { 'list.retry': 'loading' } },
  },
});
