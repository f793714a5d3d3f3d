import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { MailRow, MailSettings } from '../../contract/mail';
import { pagedList } from './paged-list.machine';

/**
 * The Mail screen: the outbox, newest first, 20 a page.
 *
 * - `list`: the shared paged list (paged-list.machine.ts) of mails selected by `{ status }`, with
 *   the mail settings beside the rows (`meta`: whether the server sends mail, where replies go).
 * - `status.change` shows every mail, or only waiting, sent or failed ones (page 1).
 * - `mail.retry` puts one mail that was not sent back in line (`retrying`), then reloads the page.
 *
 * Effects the screen provides: the `list` (its `loadPage`), actor `retryMail`; actions
 * `notifyRetried`, `notifyRetryFailed`.
 */
export const MAIL_PAGE_SIZE = 20;

export type MailStatusFilter = '' | 'pending' | 'sent' | 'failed';

/** The mails a page, by status, with whether the server sends mail. */
export const mailList = pagedList<MailRow, { status: MailStatusFilter }, MailSettings>({
  keyOf: (row) => row.mail_id,
});

export interface MailListContext {
  status: MailStatusFilter;
  target: MailRow | null;
}

export type MailListEvent =
  { type: 'status.change'; status: MailStatusFilter } | { type: 'mail.retry'; row: MailRow };

export const mailListMachine = setup({
  types: { context: {} as MailListContext, events: {} as MailListEvent, children: {} as { list: 'list' } },
  actors: {
    list: mailList,
    retryMail: fromPromise<unknown, { mailId: number }>(async () => {
      throw new Error('retryMail is provided by the app');
    }),
  },
  actions: {
    setStatus: assign({ status: (_, params: { status: MailStatusFilter }) => params.status }),
    showStatus: sendTo('list', ({ context }) => ({
      type: 'list.show' as const,
      query: { status: context.status },
    })),
    reloadList: sendTo('list', { type: 'list.reload' as const }),
    setTarget: assign({ target: (_, params: { row: MailRow }) => params.row }),
    clearTarget: assign({ target: null }),
    notifyRetried: () => {},
    notifyRetryFailed: (_, _params: { error: unknown }) => {},
  },
}).createMachine({
  id: 'mailList',
  context: { status: '', target: null },
  invoke: {
    id: 'list',
    src: 'list',
    input: { pageSize: MAIL_PAGE_SIZE, query: { status: '' as MailStatusFilter } },
  },
  initial: 'idle',
  on: {
    'status.change': {
      actions: [{ type: 'setStatus', params: ({ event }) => ({ status: event.status }) }, 'showStatus'],
    },
  },
  states: {
    idle: {
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
        onDone: { target: 'idle', actions: ['notifyRetried', 'clearTarget', 'reloadList'] },
        onError: {
          target: 'idle',
          actions: [
            { type: 'notifyRetryFailed', params: ({ event }) => ({ error: event.error }) },
            'clearTarget',
          ],
        },
      },
    },
  },
});
