import { assign, fromPromise, sendTo, setup } from 'xstate';
import { conflictIn, isGoneError } from './record-editor.machine';
import type { Assignee, ContactMessageRow } from '../../contract/admin-messages';
import { pagedList } from './paged-list.machine';

/**
 * The Messages screen: contact messages, newest first, searched and filtered.
 *
 * - `list`: the shared paged list (paged-list.machine.ts) of messages selected by
 *   `{ search, show, assignee }`; it loads, pages, steps back from an emptied page and keeps rows
 *   in place.
 * - `search` (parallel): `search.change` waits `searchDebounce` (300 ms) in `debouncing`, then
 *   shows page 1 of the search; `search.clear` shows every message at once. `show.change` picks
 *   every message, open ones or handled ones (page 1); `assignee.filter` anyone's, the reader's
 *   ('me'), nobody's ('none') or a colleague's (their id).
 * - `input.message` (a notice's link, `/admin/messages?message=12`) shows that message alone;
 *   `message.clear` ('Show all messages') or any filter shows the list again.
 * - `changes` (parallel): `handled.toggle` saves the other value of one message (`saving`; the
 *   row is replaced in place, or stays as it was on failure). `delete.ask` asks before a message
 *   is deleted for good (`confirmingDelete`: `delete.cancel`, `delete.confirm`); `deleting` then
 *   reloads the page without it, or, when it failed, leaves it where it was (one a colleague
 *   deleted meanwhile, 404, is gone: the page reloads too). `assignee.change` assigns one message
 *   to a colleague or nobody (`assigning`; the row is replaced in place; a colleague's assignment
 *   meanwhile is shown and told).
 *
 * - `people` (parallel): the colleagues a message can be assigned to (`loadAssignees`), for the
 *   filter and each message's choice; without them the filter offers anyone's, mine and nobody's.
 *
 * Effects the screen provides: the `list` (its `loadPage`), actors `saveHandled`, `deleteMessage`,
 * `saveAssignee`, `loadAssignees`; actions `notifyHandledSaved`, `notifyHandledFailed`, `notifyOvertaken`,
 * `notifyDeleted`, `notifyDeleteFailed`, `notifyAssigned`, `notifyAssignFailed`.
 */

export type ShowFilter = 'all' | 'open' | 'handled';

export interface MessagesQuery {
  search: string;
  show: ShowFilter;
  /** '' anyone's, 'me', 'none', or a colleague's user id. */
  assignee: string;
  /** One message only (a notice's link); 0 every message. */
  message: number;
}

/** The messages a page, as the search and the filter select them. */
export const messagesList = pagedList<ContactMessageRow, MessagesQuery>({ keyOf: (row) => row.message_id });

export interface MessagesListContext {
  pageSize: number;
  /** What the search box holds. */
  searchText: string;
  /** The search of the rows shown (searchText once debounced, trimmed). */
  search: string;
  show: ShowFilter;
  assignee: string;
  /** One message only (`/admin/messages?message=`, a notice's link) until any filter changes; 0 every message. */
  message: number;
  /** The message whose handled flag or assignee is being saved, or which is being deleted. */
  target: ContactMessageRow | null;
  /** The assignee being saved (null: nobody). */
  assigneeId: number | null;
  /** Colleagues who may read messages. */
  assignees: Assignee[];
}

export type MessagesListEvent =
  | { type: 'search.change'; text: string }
  | { type: 'search.clear' }
  | { type: 'show.change'; show: ShowFilter }
  | { type: 'assignee.filter'; assignee: string }
  /** 'Show all messages' after a notice's link showed one. */
  | { type: 'message.clear' }
  | { type: 'assignee.change'; row: ContactMessageRow; userId: number | null }
  | { type: 'handled.toggle'; row: ContactMessageRow }
  | { type: 'delete.ask'; row: ContactMessageRow }
  | { type: 'delete.cancel' }
  | { type: 'delete.confirm' };

export const messagesListMachine = setup({
  types: {
    context: {} as MessagesListContext,
    events: {} as MessagesListEvent,
    input: {} as { pageSize: number; message?: number },
    children: {} as { list: 'list' },
  },
  actors: {
    list: messagesList,
    saveHandled: fromPromise<ContactMessageRow, { messageId: number; handled: boolean; version: number }>(
      async () => {
        throw new Error('saveHandled is provided by the app');
      },
    ),
    deleteMessage: fromPromise<unknown, { messageId: number }>(async () => {
      throw new Error('deleteMessage is provided by the app');
    }),
    loadAssignees: fromPromise<Assignee[]>(async () => {
      throw new Error('loadAssignees is provided by the app');
    }),
    saveAssignee: fromPromise<
      ContactMessageRow,
      { messageId: number; userId: number | null; version: number }
    >(async () => {
      throw new Error('saveAssignee is provided by the app');
    }),
  },
  delays: {
    searchDebounce: 300,
  },
  actions: {
    typeSearch: assign({ searchText: (_, params: { text: string }) => params.text }),
    // any filter shows the list again, not the one message of a notice's link
    applySearch: assign(({ context }) => ({ search: context.searchText.trim(), message: 0 })),
    clearSearch: assign({ searchText: '', search: '', message: 0 }),
    setShow: assign({ show: (_, params: { show: ShowFilter }) => params.show, message: 0 }),
    setAssigneeFilter: assign({ assignee: (_, params: { assignee: string }) => params.assignee, message: 0 }),
    clearMessage: assign({ message: 0 }),
    showQuery: sendTo('list', ({ context }) => ({
      type: 'list.show' as const,
      query: {
        search: context.search,
        show: context.show,
        assignee: context.assignee,
        message: context.message,
      },
    })),
    putRow: sendTo('list', (_, params: { row: ContactMessageRow }) => ({
      type: 'row.saved' as const,
      row: params.row,
      absent: 'reload' as const,
    })),
    setTarget: assign({ target: (_, params: { row: ContactMessageRow }) => params.row }),
    setAssigning: assign((_, params: { row: ContactMessageRow; userId: number | null }) => ({
      target: params.row,
      assigneeId: params.userId,
    })),
    clearTarget: assign({ target: null, assigneeId: null }),
    setAssignees: assign({ assignees: (_, params: { people: Assignee[] }) => params.people }),
    notifyAssigned: (_, _params: { row: ContactMessageRow }) => {},
    notifyAssignFailed: (_, _params: { error: unknown }) => {},
    notifyHandledSaved: (_, _params: { row: ContactMessageRow }) => {},
    notifyHandledFailed: (_, _params: { error: unknown }) => {},
    /** The change lost a race: the message shows as someone else left it. */
    notifyOvertaken: (_, _params: { changedBy: string | null }) => {},
    reloadList: sendTo('list', { type: 'list.reload' as const }),
    notifyDeleted: () => {},
    notifyDeleteFailed: (_, _params: { error: unknown }) => {},
  },
  guards: {
    isConflict: (_, params: { error: unknown }) => conflictIn(params.error) !== null,
    /** Deleted meanwhile by a colleague (404): gone all the same. */
    isGone: (_, params: { error: unknown }) => isGoneError(params.error),
  },
}).createMachine({
  id: 'messagesList',
  context: ({ input }) => ({
    pageSize: input.pageSize,
    searchText: '',
    search: '',
    show: 'all',
    assignee: '',
    message: input.message ?? 0,
    target: null,
    assigneeId: null,
    assignees: [],
  }),
  invoke: {
    id: 'list',
    src: 'list',
    input: ({ context }) => ({
      pageSize: context.pageSize,
      query: { search: '', show: 'all' as ShowFilter, assignee: '', message: context.message },
    }),
  },
  type: 'parallel',
  states: {
    people: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadAssignees',
            src: 'loadAssignees',
            onDone: {
              target: 'ready',
              actions: { type: 'setAssignees', params: ({ event }) => ({ people: event.output }) },
            },
            onError: 'unavailable',
          },
        },
        ready: {},
        unavailable: {},
      },
    },
    search: {
      initial: 'idle',
      on: {
        'search.clear': { target: '.idle', actions: ['clearSearch', 'showQuery'] },
        'message.clear': { actions: ['clearMessage', 'showQuery'] },
        'show.change': {
          actions: [{ type: 'setShow', params: ({ event }) => ({ show: event.show }) }, 'showQuery'],
        },
        'assignee.filter': {
          actions: [
            { type: 'setAssigneeFilter', params: ({ event }) => ({ assignee: event.assignee }) },
            'showQuery',
          ],
        },
      },
      states: {
        idle: {
          on: {
            'search.change': {
              target: 'debouncing',
              actions: { type: 'typeSearch', params: ({ event }) => ({ text: event.text }) },
            },
          },
        },
        debouncing: {
          after: { searchDebounce: { target: 'idle', actions: ['applySearch', 'showQuery'] } },
          on: {
            'search.change': {
              target: 'debouncing',
              reenter: true,
              actions: { type: 'typeSearch', params: ({ event }) => ({ text: event.text }) },
            },
          },
        },
      },
    },
    changes: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'handled.toggle': {
              target: 'saving',
              actions: { type: 'setTarget', params: ({ event }) => ({ row: event.row }) },
            },
            'delete.ask': {
              target: 'confirmingDelete',
              actions: { type: 'setTarget', params: ({ event }) => ({ row: event.row }) },
            },
            'assignee.change': {
              target: 'assigning',
              actions: {
                type: 'setAssigning',
                params: ({ event }) => ({ row: event.row, userId: event.userId }),
              },
            },
          },
        },
        assigning: {
          invoke: {
            id: 'saveAssignee',
            src: 'saveAssignee',
            input: ({ context }) => ({
              messageId: context.target!.message_id,
              userId: context.assigneeId,
              version: context.target!.version ?? 1,
            }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'putRow', params: ({ event }) => ({ row: event.output }) },
                { type: 'notifyAssigned', params: ({ event }) => ({ row: event.output }) },
                'clearTarget',
              ],
            },
            onError: [
              {
                // assigned by someone else meanwhile: show theirs
                guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
                target: 'idle',
                actions: [
                  {
                    type: 'putRow',
                    params: ({ event }) => ({ row: conflictIn<ContactMessageRow>(event.error)!.current }),
                  },
                  {
                    type: 'notifyOvertaken',
                    params: ({ event }) => ({ changedBy: conflictIn(event.error)!.changedBy }),
                  },
                  'clearTarget',
                ],
              },
              {
                target: 'idle',
                actions: [
                  { type: 'notifyAssignFailed', params: ({ event }) => ({ error: event.error }) },
                  'clearTarget',
                ],
              },
            ],
          },
        },
        confirmingDelete: {
          on: {
            'delete.cancel': { target: 'idle', actions: 'clearTarget' },
            'delete.confirm': 'deleting',
          },
        },
        deleting: {
          invoke: {
            id: 'deleteMessage',
            src: 'deleteMessage',
            input: ({ context }) => ({ messageId: context.target!.message_id }),
            onDone: { target: 'idle', actions: ['reloadList', 'notifyDeleted', 'clearTarget'] },
            onError: [
              {
                guard: { type: 'isGone', params: ({ event }) => ({ error: event.error }) },
                target: 'idle',
                actions: ['reloadList', 'notifyDeleted', 'clearTarget'],
              },
              {
                target: 'idle',
                actions: [
                  { type: 'notifyDeleteFailed', params: ({ event }) => ({ error: event.error }) },
                  'clearTarget',
                ],
              },
            ],
          },
        },
        saving: {
          invoke: {
            id: 'saveHandled',
            src: 'saveHandled',
            input: ({ context }) => ({
              messageId: context.target!.message_id,
              handled: !context.target!.handled,
              version: context.target!.version ?? 1,
            }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'putRow', params: ({ event }) => ({ row: event.output }) },
                { type: 'notifyHandledSaved', params: ({ event }) => ({ row: event.output }) },
                'clearTarget',
              ],
            },
            onError: [
              {
                // changed the other way by someone else meanwhile: show theirs
                guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
                target: 'idle',
                actions: [
                  {
                    type: 'putRow',
                    params: ({ event }) => ({ row: conflictIn<ContactMessageRow>(event.error)!.current }),
                  },
                  {
                    type: 'notifyOvertaken',
                    params: ({ event }) => ({ changedBy: conflictIn(event.error)!.changedBy }),
                  },
                  'clearTarget',
                ],
              },
              {
                target: 'idle',
                actions: [
                  { type: 'notifyHandledFailed', params: ({ event }) => ({ error: event.error }) },
                  'clearTarget',
                ],
              },
            ],
          },
        },
      },
    },
  },
});
