import { assign, fromPromise, sendTo, setup } from 'xstate';
import { type BlogPostRow, type BlogStatus, blogStatusOf, DRAFT, PUBLISHED } from '../api/contract/blog';
import { paginationChild } from './pagination.machine';

/**
 * A list of blog posts: the public /blog page, the admin Blog Management screen, and a permalink
 * page opened by in-app navigation (a list of one, by slug).
 *
 * - `loading` -> `ready` (the rows; empty is `ready` with no rows) or `failed` (kept rows stay;
 *   the copy of this page or post kept on the device by an earlier visit is offered; Retry). Every
 *   load that is not a search is handed to `rememberCopy`. Loading starts when the actor starts, after mount, so the prerendered page and the
 *   first client render both show 'Loading...'. With `initialRows` (a permalink rendered on the
 *   server) it starts in `ready`.
 * - Search (admin): `search.change` waits `searchDebounce` (300 ms) in `debouncing`, then loads
 *   page 1; `search.clear` loads at once.
 * - Pages: a child `pagination` actor (pagination.machine.ts) gets the total after every load and
 *   answers `page.changed` when a page is chosen.
 * - Admin changes: `status.toggle` re-saves a post with the other status (`toggling`; the list is
 *   updated in place, or not at all on failure); `delete.ask` -> `confirmingDelete` -> `deleting`
 *   -> reload; `post.saved` from the editor updates a row in place or reloads for a new one.
 *
 * Effects the screen provides: actors `loadPosts`, `saveStatus`, `deletePost`, `loadKeptCopy`;
 * actions `rememberCopy`, `reportLoadFailure`, `notifyStatusUpdated`, `notifyStatusFailed`,
 * `notifyDeleted`, `notifyDeleteFailed`.
 */

export interface BlogListInput {
  pageSize: number;
  /** Only this post (a permalink): no pages, no search. */
  slug?: string;
  /**
   * Rows already known (a permalink rendered on the server; [] when the server found no such
   * post): no first load.
   */
  initialRows?: BlogPostRow[];
}

export interface LoadPostsInput {
  search: string;
  page: number;
  pageSize: number;
  slug?: string;
}

export interface BlogListContext {
  pageSize: number;
  slug?: string;
  page: number;
  /** What the search box holds. */
  searchText: string;
  /** The search of the rows shown (searchText once debounced). */
  search: string;
  rows: BlogPostRow[];
  total: number;
  /** Rows of an earlier visit shown when a load fails (public page). */
  kept: BlogPostRow[] | null;
  /** When those rows were saved on this device (ISO 8601), for 'Showing saved copy from {date}'. */
  keptAt: string | null;
  /** The post a toggle or delete is about. */
  target: BlogPostRow | null;
  /** The rows came with the page (initialRows): nothing to load first. */
  preloaded: boolean;
}

/** The first page kept on this device by an earlier visit (src/offline/cache.ts). */
export interface KeptPosts {
  rows: BlogPostRow[];
  savedAt: string;
}

export type BlogListEvent =
  | { type: 'search.change'; text: string }
  | { type: 'search.clear' }
  | { type: 'list.retry' }
  | { type: 'list.reload' }
  | { type: 'page.changed'; page: number }
  | { type: 'status.toggle'; post: BlogPostRow }
  | { type: 'delete.ask'; post: BlogPostRow }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'post.saved'; row: BlogPostRow; created: boolean };

/** The other status: the admin badge flips Draft and Published. */
export const flipped = (status: string): BlogStatus =>
  blogStatusOf(status) === PUBLISHED ? DRAFT : PUBLISHED;

export const blogListMachine = setup({
  types: {
    context: {} as BlogListContext,
    events: {} as BlogListEvent,
    input: {} as BlogListInput,
  },
  actors: {
    loadPosts: fromPromise<BlogPostRow[], LoadPostsInput>(async () => {
      throw new Error('loadPosts is provided by the app');
    }),
    saveStatus: fromPromise<BlogPostRow, { post: BlogPostRow; status: BlogStatus }>(async () => {
      throw new Error('saveStatus is provided by the app');
    }),
    deletePost: fromPromise<unknown, { post: BlogPostRow }>(async () => {
      throw new Error('deletePost is provided by the app');
    }),
    /** The rows of this page (or this post, by slug) kept from an earlier visit, or null. */
    loadKeptCopy: fromPromise<KeptPosts | null, { page: number; slug: string | undefined; search: string }>(
      async () => null,
    ),
    pagination: paginationChild,
  },
  delays: {
    searchDebounce: 300,
  },
  actions: {
    storeRows: assign((_, params: { rows: BlogPostRow[] }) => ({
      rows: params.rows,
      total: params.rows[0]?.total_count ?? params.rows.length,
    })),
    tellPagination: sendTo('pagination', ({ context }) => ({
      type: 'total.update' as const,
      total: context.total,
    })),
    resetPagination: sendTo('pagination', { type: 'page.reset' as const }),
    showPreviousPage: sendTo('pagination', { type: 'page.previous' as const }),
    setPage: assign({ page: (_, params: { page: number }) => params.page }),
    typeSearch: assign({ searchText: (_, params: { text: string }) => params.text }),
    applySearch: assign(({ context }) => ({ search: context.searchText.trim(), page: 1 })),
    clearSearch: assign({ searchText: '', search: '', page: 1 }),
    keep: assign((_, params: { copy: KeptPosts | null }) => ({
      kept: params.copy?.rows ?? null,
      keptAt: params.copy?.savedAt ?? null,
    })),
    setTarget: assign({ target: (_, params: { post: BlogPostRow }) => params.post }),
    clearTarget: assign({ target: null }),
    replaceRow: assign({
      rows: ({ context }, params: { row: BlogPostRow }) =>
        context.rows.map((r) =>
          r.blog_id === params.row.blog_id ? { ...params.row, total_count: r.total_count } : r,
        ),
    }),
    /** Keeps a page of the whole list, or a post loaded by slug, for reading offline (public pages). */
    rememberCopy: (_, _params: { rows: BlogPostRow[]; page: number; slug: string | undefined }) => {},
    reportLoadFailure: (_, _params: { error: unknown }) => {},
    notifyStatusUpdated: (_, _params: { row: BlogPostRow }) => {},
    notifyStatusFailed: (_, _params: { error: unknown }) => {},
    notifyDeleted: (_, _params: { post: BlogPostRow }) => {},
    notifyDeleteFailed: (_, _params: { error: unknown }) => {},
  },
  guards: {
    /** A page of the whole list or a post by its slug (not a search): worth keeping for offline. */
    isPlainLoad: ({ context }) => context.search === '',
    isNewPost: (_, params: { created: boolean }) => params.created,
    isEmptyLaterPage: ({ context }, params: { rows: BlogPostRow[] }) =>
      (params.rows ?? []).length === 0 && context.page > 1,
    isListed: ({ context }, params: { row: BlogPostRow }) =>
      context.rows.some((r) => r.blog_id === params.row?.blog_id),
  },
}).createMachine({
  id: 'blogList',
  context: ({ input }) => ({
    pageSize: input.pageSize,
    slug: input.slug,
    page: 1,
    searchText: '',
    search: '',
    rows: input.initialRows ?? [],
    total: input.initialRows?.length ?? 0,
    kept: null,
    keptAt: null,
    target: null,
    preloaded: input.initialRows !== undefined,
  }),
  invoke: {
    id: 'pagination',
    src: 'pagination',
    input: ({ context }) => ({ pageSize: context.pageSize }),
    onError: { actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) } },
  },
  initial: 'starting',
  on: {
    'page.changed': {
      target: '.loading',
      actions: { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
    },
  },
  states: {
    starting: {
      always: [{ guard: ({ context }) => context.preloaded, target: 'ready' }, { target: 'loading' }],
    },
    loading: {
      invoke: {
        id: 'loadPosts',
        src: 'loadPosts',
        input: ({ context }) => ({
          search: context.search,
          page: context.page,
          pageSize: context.pageSize,
          slug: context.slug,
        }),
        onDone: [
          {
            // the last post of the last page went (deleted elsewhere): show the page before
            guard: { type: 'isEmptyLaterPage', params: ({ event }) => ({ rows: event.output }) },
            actions: 'showPreviousPage',
          },
          {
            guard: 'isPlainLoad',
            target: 'ready',
            actions: [
              { type: 'storeRows', params: ({ event }) => ({ rows: event.output }) },
              'tellPagination',
              {
                type: 'rememberCopy',
                params: ({ event, context }) => ({
                  rows: event.output,
                  page: context.page,
                  slug: context.slug,
                }),
              },
            ],
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
      on: {
        'search.change': {
          target: 'debouncing',
          actions: { type: 'typeSearch', params: ({ event }) => ({ text: event.text }) },
        },
        'search.clear': { target: 'loading', reenter: true, actions: ['clearSearch', 'resetPagination'] },
        'post.saved': { target: 'loading', reenter: true },
      },
    },
    ready: {
      on: {
        'search.change': {
          target: 'debouncing',
          actions: { type: 'typeSearch', params: ({ event }) => ({ text: event.text }) },
        },
        'search.clear': { target: 'loading', actions: ['clearSearch', 'resetPagination'] },
        'list.reload': 'loading',
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
            target: 'loading',
          },
          {
            guard: { type: 'isListed', params: ({ event }) => ({ row: event.row }) },
            actions: { type: 'replaceRow', params: ({ event }) => ({ row: event.row }) },
          },
          { target: 'loading' },
        ],
      },
    },
    debouncing: {
      after: {
        searchDebounce: { target: 'loading', actions: ['applySearch', 'resetPagination'] },
      },
      on: {
        'search.change': {
          target: 'debouncing',
          reenter: true,
          actions: { type: 'typeSearch', params: ({ event }) => ({ text: event.text }) },
        },
        'search.clear': { target: 'loading', actions: ['clearSearch', 'resetPagination'] },
      },
    },
    failed: {
      invoke: {
        id: 'loadKeptCopy',
        src: 'loadKeptCopy',
        input: ({ context }) => ({ page: context.page, slug: context.slug, search: context.search }),
        onDone: { actions: { type: 'keep', params: ({ event }) => ({ copy: event.output }) } },
        onError: { actions: { type: 'keep', params: { copy: null } } },
      },
      on: {
        'list.retry': 'loading',
        'search.change': {
          target: 'debouncing',
          actions: { type: 'typeSearch', params: ({ event }) => ({ text: event.text }) },
        },
        'search.clear': { target: 'loading', actions: ['clearSearch', 'resetPagination'] },
      },
    },
    toggling: {
      invoke: {
        id: 'saveStatus',
        src: 'saveStatus',
        input: ({ context }) => ({ post: context.target!, status: flipped(context.target!.status) }),
        onDone: {
          target: 'ready',
          actions: [
            { type: 'replaceRow', params: ({ event }) => ({ row: event.output }) },
            { type: 'notifyStatusUpdated', params: ({ event }) => ({ row: event.output }) },
            'clearTarget',
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            { type: 'notifyStatusFailed', params: ({ event }) => ({ error: event.error }) },
            'clearTarget',
          ],
        },
      },
    },
    confirmingDelete: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'ready', actions: 'clearTarget' },
      },
    },
    deleting: {
      invoke: {
        id: 'deletePost',
        src: 'deletePost',
        input: ({ context }) => ({ post: context.target! }),
        onDone: {
          target: 'loading',
          actions: [
            { type: 'notifyDeleted', params: ({ context }) => ({ post: context.target! }) },
            'clearTarget',
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            { type: 'notifyDeleteFailed', params: ({ event }) => ({ error: event.error }) },
            'clearTarget',
          ],
        },
      },
    },
  },
});
