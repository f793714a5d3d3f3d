import {
  assign,
  fromCallback,
  fromPromise,
  setup,
  type ActorRefFrom,
  type SnapshotFrom,
} from 'xstate';

/**
 * One page of a list at a time, for every paged list of the product: the public blog, a blog
 * post's page (a list of one, by slug), careers, and in the back office blog management,
 * openings, applications, messages, mail and activity. It owns the loading, the pages and the
 * copy kept on the device; the screen's own machine (when it has one) invokes it as the child
 * `list` and tells it what to show, and the screen draws from its snapshot.
 *
 * - `starting` -> `loading` -> `ready` (the rows; none is `ready` with no rows) or `failed` (rows
 *   already shown stay; `readingKept` reads the copy an earlier visit kept into `kept`, then
 *   `settled`; Retry). Loading
 *   starts when the actor starts, after mount, so a prerendered page and the first client render
 *   both show the loading state. With `input.rows` (a page the server rendered) it starts `ready`
 *   and keeps them as the device's copy.
 * - Pages: `page.select` { page }, `page.next`, `page.previous` (from the pager; only to a page
 *   that exists) load that page, in any state: a page chosen while loading starts the load again.
 *   A page that comes back empty past page 1 (its last row went meanwhile, an old address) steps
 *   back to the last page the known total has.
 * - What to show: `list.show` { query, page? } (a person's choice) loads the query's page (1 by
 *   default) unless it is what is shown; `list.follow` does the same for a view the address bar
 *   already holds (back/forward), without `showPage`; `list.reload` loads the same page again;
 *   `list.retry` after a failure, and so does the connection coming back (`connection.online`,
 *   from `connectionEvents` where the screen supplies it): a list that failed offline fills again.
 *   `list.changed` (from `changeEvents`, where the screen supplies it: a colleague or the server
 *   changed the listed records) reads the page again quietly: `ready.refreshing` reads it while
 *   the rows stay shown, and its answer replaces them (a failure keeps them). A row saved while
 *   that read is under way starts it again, so an older answer never undoes the save.
 * - Rows changed by the screen's machine: `row.saved` { row, absent } replaces a listed row in
 *   place (its `total_count` kept); a row not listed reloads the page (`absent: 'reload'`) or goes
 *   first (`'prepend'`); `row.removed` { row } takes it out and reloads, so the next row moves up.
 *
 * Effects, provided with `.provide()` by the live layer: actors `loadPage` (rows, or rows with a
 * `meta` the screen also needs) and `loadKept` (the device's copy, null by default); actions
 * `keepCopy` (each good page, for offline), `showPage` (a page the list moved to by itself or
 * that a person chose: pager, step back, `list.show`; for the address bar),
 * `reportFailure`.
 *
 * Read what the pager draws with `paginationView(snapshot.context)`.
 */

/** A row of a paged answer: the first row carries the count of all matches. */
export interface PagedRow {
  total_count?: number;
}

/** What `loadPage` answers: the rows, or (when `M` is not null) the rows and what else the screen shows. */
export type LoadedPage<R, M> = [M] extends [null] ? R[] : { rows: R[]; meta: M };

const rowsOf = <R>(loaded: unknown): R[] => (Array.isArray(loaded) ? loaded : (loaded as { rows: R[] }).rows);
const metaOf = <M>(loaded: unknown): M | null =>
  Array.isArray(loaded) ? null : (loaded as { meta: M }).meta;

export interface LoadPageInput<Q> {
  query: Q;
  page: number;
  pageSize: number;
}

/** Rows kept on this device by an earlier visit, with when they were saved (ISO 8601). */
export interface KeptRows<R> {
  rows: R[];
  savedAt: string;
}

export interface PagedListInput<Q, R> {
  pageSize: number;
  query: Q;
  /** Starting page (default 1; an address's page). */
  page?: number;
  /** Rows the page came with (the server rendered them): nothing to load first. */
  rows?: R[];
  /** Page buttons shown at most (default 5). */
  windowSize?: number;
}

export interface PagedListContext<Q, R, M> {
  query: Q;
  page: number;
  pageSize: number;
  windowSize: number;
  rows: R[];
  /** Rows in all pages (the first row's `total_count`). */
  total: number;
  /** What the last load answered besides the rows, or null. */
  meta: M | null;
  /** The device's copy shown when a load fails, and when it was saved. */
  kept: R[] | null;
  keptAt: string | null;
  /** Why the last load failed, in the server's words for a 4xx; null otherwise. */
  loadError: string | null;
  /** The rows came with the page: nothing to load first. */
  preloaded: boolean;
}

export type PagedListEvent<Q, R> =
  | { type: 'page.select'; page: number }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'list.show'; query: Q; page?: number }
  | { type: 'list.follow'; query: Q; page?: number }
  | { type: 'list.reload' }
  /** Someone changed the listed records (a colleague, the server): read the page again quietly. */
  | { type: 'list.changed' }
  | { type: 'list.retry' }
  | { type: 'connection.online' }
  | { type: 'connection.offline' }
  | { type: 'row.saved'; row: R; absent: 'reload' | 'prepend' }
  | { type: 'row.removed'; row: R };

/** Number of pages for `total` items (0 for none). */
export function pageCount(total: number, pageSize: number): number {
  if (!(total > 0) || !(pageSize > 0)) return 0;
  return Math.ceil(total / pageSize);
}

/** Up to `size` consecutive page numbers around `page` within 1..count. */
export function pageWindow(page: number, count: number, size = 5): number[] {
  if (count <= 0) return [];
  const width = Math.min(size, count);
  const start = Math.max(1, Math.min(page - Math.floor((width - 1) / 2), count - width + 1));
  return Array.from({ length: width }, (_, i) => start + i);
}

/** The pager's part of a list's context. */
export interface PagerContext {
  page: number;
  pageSize: number;
  total: number;
  windowSize: number;
}

/** What a pager draws: shown only when there is more than one page. */
export function paginationView(context: PagerContext) {
  const count = pageCount(context.total, context.pageSize);
  return {
    page: context.page,
    pageCount: count,
    pages: pageWindow(context.page, count, context.windowSize),
    shown: count > 1,
    hasPrevious: context.page > 1,
    hasNext: context.page < count,
  };
}

/** The page before an empty one: the last page the known total has, at least 1. */
export const pageBefore = (context: { page: number; total: number; pageSize: number }) =>
  Math.max(1, Math.min(context.page - 1, pageCount(context.total, context.pageSize)));

const validPage = (value: number | undefined) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1;

const sameQuery = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The server's words for a refused load (a 4xx with a message), else null. */
export function refusalOf(error: unknown): string | null {
  const e = error as { status?: number; message?: string } | null;
  return e && typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.message
    ? e.message
    : null;
}

/**
 * The paged list of one kind of row: `R` the row, `Q` what selects the rows (search, filters),
 * `M` what a load answers besides the rows. `keyOf` tells rows apart for `row.saved`.
 */
export function pagedList<R extends PagedRow, Q = null, M = null>(options: { keyOf: (row: R) => unknown }) {
  const { keyOf } = options;
  return setup({
    types: {
      context: {} as PagedListContext<Q, R, M>,
      events: {} as PagedListEvent<Q, R>,
      input: {} as PagedListInput<Q, R>,
    },
    actors: {
      loadPage: fromPromise<LoadedPage<R, M>, LoadPageInput<Q>>(async () => {
        throw new Error('loadPage is provided by the app');
      }),
      /** This page's rows kept on the device by an earlier visit, or null. */
      loadKept: fromPromise<KeptRows<R> | null, { page: number; query: Q }>(async () => null),
      /** Sends connection.online / connection.offline (none by default). */
      connectionEvents: fromCallback(() => () => {}),
      /** Sends list.changed when the listed records change elsewhere (none by default). */
      changeEvents: fromCallback(() => () => {}),
    },
    actions: {
      store: assign((_, params: { loaded: LoadedPage<R, M> }) => {
        const rows = rowsOf<R>(params.loaded);
        const meta = metaOf<M>(params.loaded);
        return { rows, meta, total: rows[0]?.total_count ?? rows.length, loadError: null };
      }),
      setPage: assign({ page: (_, params: { page: number }) => params.page }),
      setView: assign((_, params: { query: Q; page: number }) => ({
        query: params.query,
        page: params.page,
      })),
      stepBack: assign({ page: ({ context }) => pageBefore(context) }),
      setLoadError: assign({ loadError: (_, params: { error: unknown }) => refusalOf(params.error) }),
      keep: assign((_, params: { copy: KeptRows<R> | null }) => ({
        kept: params.copy?.rows ?? null,
        keptAt: params.copy?.savedAt ?? null,
      })),
      replaceRow: assign({
        rows: ({ context }, params: { row: R }) =>
          context.rows.map((r) =>
            keyOf(r) === keyOf(params.row) ? { ...params.row, total_count: r.total_count } : r,
          ),
      }),
      prependRow: assign({
        rows: ({ context }, params: { row: R }) => [params.row, ...context.rows],
        total: ({ context }) => context.total + 1,
      }),
      removeRow: assign({
        rows: ({ context }, params: { row: R }) => context.rows.filter((r) => keyOf(r) !== keyOf(params.row)),
      }),
      /** Keeps a good page on the device for offline reading (public lists). */
      keepCopy: (_, _params: { rows: R[]; page: number; query: Q }) => {},
      /** The list moved to this page (the screen may write it into the address). */
      showPage: (_, _params: { page: number; query: Q }) => {},
      reportFailure: (_, _params: { error: unknown }) => {},
    },
    guards: {
      isPage: ({ context }, params: { page: number }) =>
        Number.isInteger(params.page) &&
        params.page >= 1 &&
        params.page <= pageCount(context.total, context.pageSize) &&
        params.page !== context.page,
      isNewView: ({ context }, params: { query: Q; page: number }) =>
        params.page !== context.page || !sameQuery(params.query, context.query),
      isEmptyLaterPage: ({ context }, params: { loaded: LoadedPage<R, M> }) =>
        rowsOf<R>(params.loaded).length === 0 && context.page > 1,
      isListed: ({ context }, params: { row: R }) => context.rows.some((r) => keyOf(r) === keyOf(params.row)),
      prepends: (_, params: { absent: 'reload' | 'prepend' }) => params.absent === 'prepend',
    },
  }).createMachine({
    id: 'pagedList',
    context: ({ input }) => ({
      query: input.query,
      page: validPage(input.page),
      pageSize: Math.max(1, Math.floor(input.pageSize) || 1),
      windowSize: Math.max(1, input.windowSize ?? 5),
      rows: input.rows ?? [],
      total: input.rows?.[0]?.total_count ?? input.rows?.length ?? 0,
      meta: null,
      kept: null,
      keptAt: null,
      loadError: null,
      preloaded: input.rows !== undefined,
    }),
    initial: 'starting',
    // a listener only: should it break, Retry still loads the page
    invoke: [
      { id: 'connectionEvents', src: 'connectionEvents', onError: { actions: [] } },
      { id: 'changeEvents', src: 'changeEvents', onError: { actions: [] } },
    ],
    on: {
      'page.select': {
        guard: { type: 'isPage', params: ({ event }) => ({ page: event.page }) },
        target: '.loading',
        reenter: true,
        actions: [
          { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
          { type: 'showPage', params: ({ context }) => ({ page: context.page, query: context.query }) },
        ],
      },
      'page.next': {
        guard: { type: 'isPage', params: ({ context }) => ({ page: context.page + 1 }) },
        target: '.loading',
        reenter: true,
        actions: [
          { type: 'setPage', params: ({ context }) => ({ page: context.page + 1 }) },
          { type: 'showPage', params: ({ context }) => ({ page: context.page, query: context.query }) },
        ],
      },
      'page.previous': {
        guard: { type: 'isPage', params: ({ context }) => ({ page: context.page - 1 }) },
        target: '.loading',
        reenter: true,
        actions: [
          { type: 'setPage', params: ({ context }) => ({ page: context.page - 1 }) },
          { type: 'showPage', params: ({ context }) => ({ page: context.page, query: context.query }) },
        ],
      },
      'list.show': {
        guard: {
          type: 'isNewView',
          params: ({ event }) => ({ query: event.query, page: validPage(event.page) }),
        },
        target: '.loading',
        reenter: true,
        actions: [
          { type: 'setView', params: ({ event }) => ({ query: event.query, page: validPage(event.page) }) },
          { type: 'showPage', params: ({ context }) => ({ page: context.page, query: context.query }) },
        ],
      },
      'list.follow': {
        guard: {
          type: 'isNewView',
          params: ({ event }) => ({ query: event.query, page: validPage(event.page) }),
        },
        target: '.loading',
        reenter: true,
        actions: {
          type: 'setView',
          params: ({ event }) => ({ query: event.query, page: validPage(event.page) }),
        },
      },
      'list.reload': { target: '.loading', reenter: true },
    },
    states: {
      starting: {
        always: [
          {
            guard: ({ context }) => context.preloaded,
            target: 'ready',
            // the rows the server rendered are this device's copy now, as loaded ones are
            actions: {
              type: 'keepCopy',
              params: ({ context }) => ({ rows: context.rows, page: context.page, query: context.query }),
            },
          },
          { target: 'loading' },
        ],
      },
      loading: {
        on: {
          // the load under way may answer the row as it was: load again
          'row.saved': { target: 'loading', reenter: true },
          'row.removed': { target: 'loading', reenter: true },
          'list.changed': { target: 'loading', reenter: true },
        },
        invoke: {
          id: 'loadPage',
          src: 'loadPage',
          input: ({ context }) => ({ query: context.query, page: context.page, pageSize: context.pageSize }),
          onDone: [
            {
              guard: { type: 'isEmptyLaterPage', params: ({ event }) => ({ loaded: event.output }) },
              target: 'loading',
              reenter: true,
              actions: [
                'stepBack',
                { type: 'showPage', params: ({ context }) => ({ page: context.page, query: context.query }) },
              ],
            },
            {
              target: 'ready',
              actions: [
                { type: 'store', params: ({ event }) => ({ loaded: event.output }) },
                {
                  type: 'keepCopy',
                  params: ({ context }) => ({ rows: context.rows, page: context.page, query: context.query }),
                },
              ],
            },
          ],
          onError: {
            target: 'failed',
            actions: [
              { type: 'setLoadError', params: ({ event }) => ({ error: event.error }) },
              { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        },
      },
      ready: {
        // a change heard elsewhere reads the page again in `refreshing`, the rows staying shown
        // (no loading state, no flicker); its answer replaces them, a failure keeps them, and a
        // change heard meanwhile starts the read again. A row this screen saved or removed while
        // the read is under way starts it again too: the read began before that save, and its
        // answer would put the row back as it was (decision 035).
        initial: 'shown',
        on: {
          'list.changed': { target: '.refreshing', reenter: true },
          'row.saved': [
            {
              guard: { type: 'isListed', params: ({ event }) => ({ row: event.row }) },
              actions: { type: 'replaceRow', params: ({ event }) => ({ row: event.row }) },
            },
            {
              guard: { type: 'prepends', params: ({ event }) => ({ absent: event.absent }) },
              actions: { type: 'prependRow', params: ({ event }) => ({ row: event.row }) },
            },
            { target: 'loading' },
          ],
          'row.removed': {
            target: 'loading',
            actions: { type: 'removeRow', params: ({ event }) => ({ row: event.row }) },
          },
        },
        states: {
          shown: {},
          refreshing: {
            on: {
              // what this screen just saved is newer than the read under way: read again
              'row.saved': [
                {
                  guard: { type: 'isListed', params: ({ event }) => ({ row: event.row }) },
                  target: 'refreshing',
                  reenter: true,
                  actions: { type: 'replaceRow', params: ({ event }) => ({ row: event.row }) },
                },
                {
                  guard: { type: 'prepends', params: ({ event }) => ({ absent: event.absent }) },
                  target: 'refreshing',
                  reenter: true,
                  actions: { type: 'prependRow', params: ({ event }) => ({ row: event.row }) },
                },
                { target: '#pagedList.loading' },
              ],
            },
            invoke: {
              id: 'refreshPage',
              src: 'loadPage',
              input: ({ context }) => ({ query: context.query, page: context.page, pageSize: context.pageSize }),
              onDone: [
                // the page emptied (its last rows went): the loading path steps back
                {
                  guard: { type: 'isEmptyLaterPage', params: ({ event }) => ({ loaded: event.output }) },
                  target: '#pagedList.loading',
                },
                {
                  target: 'shown',
                  actions: [
                    { type: 'store', params: ({ event }) => ({ loaded: event.output }) },
                    {
                      type: 'keepCopy',
                      params: ({ context }) => ({ rows: context.rows, page: context.page, query: context.query }),
                    },
                  ],
                },
              ],
              // a quiet read that failed keeps what is shown (the next change or Retry reads again)
              onError: { target: 'shown' },
            },
          },
        },
      },
      failed: {
        initial: 'readingKept',
        states: {
          /** The device's copy of this page, if an earlier visit kept one. */
          readingKept: {
            invoke: {
              id: 'loadKept',
              src: 'loadKept',
              input: ({ context }) => ({ page: context.page, query: context.query }),
              onDone: {
                target: 'settled',
                actions: { type: 'keep', params: ({ event }) => ({ copy: event.output }) },
              },
              onError: { target: 'settled', actions: { type: 'keep', params: { copy: null } } },
            },
          },
          /** `kept` holds the copy, or null: the screen says the load failed and offers Retry. */
          settled: {},
        },
        on: { 'list.retry': 'loading', 'connection.online': 'loading' },
      },
    },
  });
}

/** A paged list of rows `R`, selected by `Q`, with `M` beside the rows. */
export type PagedListMachine<R extends PagedRow, Q = null, M = null> = ReturnType<typeof pagedList<R, Q, M>>;
export type PagedListRef<R extends PagedRow, Q = null, M = null> = ActorRefFrom<PagedListMachine<R, Q, M>>;
export type PagedListSnapshot<R extends PagedRow, Q = null, M = null> = SnapshotFrom<
  PagedListMachine<R, Q, M>
>;

/** The paged list as drawn in docs/machines (any row, any query). */
export const pagedListMachine = pagedList<PagedRow, unknown, unknown>({ keyOf: (row) => row });
