import { assign, fromPromise, sendTo, setup } from 'xstate';
import {
  type BadgeStatus,
  type BlogPostRow,
  type BlogStatus,
  blogStatusOf,
  DRAFT,
  PUBLISHED,
} from '../../contract/blog';
import { pagedList } from './paged-list.machine';
import type { QueuedPostChange } from './blog-editor.machine';
import { conflictIn } from './record-editor.machine';
import { queuedChanges } from './queued-changes.machine';

/**
 * The admin Blog Management screen: every post, drafts included, 10 a page, with a search, the
 * status badge that publishes or unpublishes, and deletion.
 *
 * - `list`: the shared paged list (paged-list.machine.ts) of posts, searched by `{ search, status }`;
 *   it loads, pages, steps back from an emptied page and keeps rows in place. The screen draws it.
 * - `filter.change` shows page 1 of the posts of one status (Published, Draft, Scheduled) or all.
 * - `search` (parallel): `search.change` waits `searchDebounce` (300 ms) in `debouncing`, then
 *   shows page 1 of the search; typing again waits again; `search.clear` shows every post at once.
 * - `changes` (parallel): `status.toggle` re-saves a post with the other status (`toggling`; the
 *   row is replaced in place, or stays as it was on failure); `delete.ask` -> `confirmingDelete`
 *   -> `deleting` -> the row goes and the page reloads; `post.saved` from the editor replaces a
 *   listed row, or reloads for a new post or one on another page.
 *
 * - `queued`: this person's changes made without a connection (queued-changes.machine.ts): one
 *   sent later loads the page again (`queued.sent`); one that met someone else's change is held
 *   for the editor to open in its conflict view.
 *
 * Effects the screen provides: the `list` (its `loadPage`), `queued` (its `listen`, `readChange`,
 * `notifyGone`), actors `saveStatus`, `deletePost`;
 * actions `notifyStatusUpdated`, `notifyStatusFailed`, `notifyDeleted`, `notifyDeleteFailed`.
 */

export interface PostSearch {
  search: string;
  /** Only the posts of this status; '' for every post. */
  status: BlogStatus | '';
}

/** The posts a page, searched (the list the screen draws). */
export const blogPostsList = pagedList<BlogPostRow, PostSearch>({ keyOf: (row) => row.blog_id });

export interface BlogManagementContext {
  pageSize: number;
  /** What the search box holds. */
  searchText: string;
  /** The search of the rows shown (searchText once debounced, trimmed). */
  search: string;
  /** The status filter: '' for every post. */
  status: BlogStatus | '';
  /** The post a toggle or delete is about. */
  target: BlogPostRow | null;
}

export type BlogManagementEvent =
  | { type: 'search.change'; text: string }
  | { type: 'search.clear' }
  | { type: 'filter.change'; status: BlogStatus | '' }
  | { type: 'status.toggle'; post: BlogPostRow }
  | { type: 'delete.ask'; post: BlogPostRow }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'post.saved'; row: BlogPostRow; created: boolean }
  | { type: 'list.reload' }
  /** From `queued`: one of this person's changes kept in the send queue was sent. */
  | { type: 'queued.sent' };

/** This person's changes to posts kept in the send queue. */
export const blogQueued = queuedChanges<QueuedPostChange>();

/**
 * What the admin badge makes of a status: it flips Draft and Published, and makes a Scheduled post
 * a Draft again (publishing it early is the editor's 'Publish immediately', a deliberate choice).
 */
export const flipped = (status: string): BadgeStatus => (blogStatusOf(status) === DRAFT ? PUBLISHED : DRAFT);

export const blogManagementMachine = setup({
  types: {
    context: {} as BlogManagementContext,
    events: {} as BlogManagementEvent,
    input: {} as { pageSize: number },
    children: {} as { list: 'list'; queued: 'queued' },
  },
  actors: {
    list: blogPostsList,
    queued: blogQueued,
    saveStatus: fromPromise<BlogPostRow, { post: BlogPostRow; status: BadgeStatus }>(async () => {
      throw new Error('saveStatus is provided by the app');
    }),
    deletePost: fromPromise<unknown, { post: BlogPostRow }>(async () => {
      throw new Error('deletePost is provided by the app');
    }),
  },
  delays: {
    searchDebounce: 300,
  },
  actions: {
    typeSearch: assign({ searchText: (_, params: { text: string }) => params.text }),
    applySearch: assign(({ context }) => ({ search: context.searchText.trim() })),
    clearSearch: assign({ searchText: '', search: '' }),
    setFilter: assign({ status: (_, params: { status: BlogStatus | '' }) => params.status }),
    showSearch: sendTo('list', ({ context }) => ({
      type: 'list.show' as const,
      query: { search: context.search, status: context.status },
    })),
    reloadList: sendTo('list', { type: 'list.reload' as const }),
    putRow: sendTo('list', (_, params: { row: BlogPostRow }) => ({
      type: 'row.saved' as const,
      row: params.row,
      absent: 'reload' as const,
    })),
    removeTarget: sendTo('list', ({ context }) => ({ type: 'row.removed' as const, row: context.target! })),
    setTarget: assign({ target: (_, params: { post: BlogPostRow }) => params.post }),
    clearTarget: assign({ target: null }),
    notifyStatusUpdated: (_, _params: { row: BlogPostRow }) => {},
    notifyStatusFailed: (_, _params: { error: unknown }) => {},
    /** The badge lost a race: the card shows the post as someone else left it. */
    notifyOvertaken: (_, _params: { changedBy: string | null }) => {},
    notifyDeleted: (_, _params: { post: BlogPostRow }) => {},
    notifyDeleteFailed: (_, _params: { error: unknown }) => {},
  },
  guards: {
    isNewPost: (_, params: { created: boolean }) => params.created,
    isConflict: (_, params: { error: unknown }) => conflictIn(params.error) !== null,
  },
}).createMachine({
  id: 'blogManagement',
  context: ({ input }) => ({
    pageSize: input.pageSize,
    searchText: '',
    search: '',
    status: '',
    target: null,
  }),
  invoke: [
    {
      id: 'list',
      src: 'list',
      input: ({ context }) => ({ pageSize: context.pageSize, query: { search: '', status: '' } }),
    },
    { id: 'queued', src: 'queued' },
  ],
  type: 'parallel',
  on: {
    'list.reload': { actions: 'reloadList' },
    'queued.sent': { actions: 'reloadList' },
    'filter.change': {
      actions: [{ type: 'setFilter', params: ({ event }) => ({ status: event.status }) }, 'showSearch'],
    },
  },
  states: {
    search: {
      initial: 'idle',
      on: {
        'search.clear': { target: '.idle', actions: ['clearSearch', 'showSearch'] },
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
          after: {
            searchDebounce: { target: 'idle', actions: ['applySearch', 'showSearch'] },
          },
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
            'status.toggle': {
              target: 'toggling',
              actions: { type: 'setTarget', params: ({ event }) => ({ post: event.post }) },
            },
            'delete.ask': {
              target: 'confirmingDelete',
              actions: { type: 'setTarget', params: ({ event }) => ({ post: event.post }) },
            },
            'post.saved': [
              {
                guard: { type: 'isNewPost', params: ({ event }) => ({ created: event.created }) },
                actions: 'reloadList',
              },
              { actions: { type: 'putRow', params: ({ event }) => ({ row: event.row }) } },
            ],
          },
        },
        toggling: {
          invoke: {
            id: 'saveStatus',
            src: 'saveStatus',
            input: ({ context }) => ({ post: context.target!, status: flipped(context.target!.status) }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'putRow', params: ({ event }) => ({ row: event.output }) },
                { type: 'notifyStatusUpdated', params: ({ event }) => ({ row: event.output }) },
                'clearTarget',
              ],
            },
            onError: [
              {
                // someone else changed the post since the card was shown: show theirs, change nothing
                guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
                target: 'idle',
                actions: [
                  {
                    type: 'putRow',
                    params: ({ event }) => ({ row: conflictIn<BlogPostRow>(event.error)!.current }),
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
                  { type: 'notifyStatusFailed', params: ({ event }) => ({ error: event.error }) },
                  'clearTarget',
                ],
              },
            ],
          },
        },
        confirmingDelete: {
          on: {
            'delete.confirm': 'deleting',
            'delete.cancel': { target: 'idle', actions: 'clearTarget' },
          },
        },
        deleting: {
          invoke: {
            id: 'deletePost',
            src: 'deletePost',
            input: ({ context }) => ({ post: context.target! }),
            onDone: {
              target: 'idle',
              actions: [
                'removeTarget',
                { type: 'notifyDeleted', params: ({ context }) => ({ post: context.target! }) },
                'clearTarget',
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'notifyDeleteFailed', params: ({ event }) => ({ error: event.error }) },
                'clearTarget',
              ],
            },
          },
        },
      },
    },
  },
});
