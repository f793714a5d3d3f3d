import { assign, sendParent, setup } from 'xstate';

/**
 * Pagination for every paged list of the product (blog, admin blog, job applications, contact
 * messages, audit log...). It knows the page, the page size and the total number of items, and
 * answers which page buttons to show; it does not load anything.
 *
 * States: `single` (one page or none: no controls, spec "shown only when there is more than one
 * page") and `multiple` (controls shown).
 *
 * Events:
 * - `page.select` { page }: go to that page (ignored outside 1..pageCount or when already there);
 * - `page.next`, `page.previous`: one step (ignored at the ends);
 * - `total.update` { total }: the list's new total (from a `total_count`); when the current page
 *   no longer exists (the last item of the last page was deleted) it moves to the last page;
 * - `page.reset`: back to page 1 quietly (the owner is reloading anyway, e.g. for a new search).
 *
 * Every page change the person asked for (and a clamp after `total.update`) runs the named action
 * `notifyChange` with `{ page }`; the owner supplies it with `.provide()`:
 *
 *   // a list machine invoking it as a child, told by an event
 *   actors: { pagination: paginationMachine.provide({ actions: { notifyChange: sendParent(
 *     (_, { page }: { page: number }) => ({ type: 'page.changed', page })) } }) }
 *   // a screen using it alone
 *   useMachine(paginationMachine.provide({ actions: { notifyChange: (_, { page }) => load(page) } }), { input })
 *
 * Read what to draw with `paginationView(snapshot.context)`. Window of page buttons: 5 by default,
 * centred on the current page where possible.
 */

export interface PaginationInput {
  pageSize: number;
  /** Page buttons shown at most (default 5). */
  windowSize?: number;
  /** Starting page (default 1). The total arrives with `total.update` after each load. */
  page?: number;
}

export interface PaginationContext {
  page: number;
  pageSize: number;
  total: number;
  windowSize: number;
}

export type PaginationEvent =
  | { type: 'page.select'; page: number }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'total.update'; total: number }
  | { type: 'page.reset' };

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

/** What a pagination control draws. */
export function paginationView(context: PaginationContext) {
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

const validPage = (value: number) => (Number.isInteger(value) && value >= 1 ? value : 1);

export const paginationMachine = setup({
  types: {
    context: {} as PaginationContext,
    events: {} as PaginationEvent,
    input: {} as PaginationInput,
  },
  actions: {
    setPage: assign({ page: (_, params: { page: number }) => params.page }),
    setTotal: assign({ total: (_, params: { total: number }) => Math.max(0, Math.floor(params.total) || 0) }),
    /** Tells the owner which page to show; supplied with `.provide()`. */
    notifyChange: (_, _params: { page: number }) => {},
  },
  guards: {
    isOtherPage: ({ context }, params: { page: number }) =>
      Number.isInteger(params.page) &&
      params.page >= 1 &&
      params.page <= pageCount(context.total, context.pageSize) &&
      params.page !== context.page,
    hasMultiplePages: ({ context }) => pageCount(context.total, context.pageSize) > 1,
    pageIsGone: ({ context }, params: { total: number }) => {
      const count = pageCount(params.total, context.pageSize);
      return count > 0 && context.page > count;
    },
  },
}).createMachine({
  id: 'pagination',
  context: ({ input }) => ({
    page: validPage(input?.page ?? 1),
    pageSize: Math.max(1, Math.floor(input?.pageSize ?? 10) || 1),
    total: 0,
    windowSize: Math.max(1, input?.windowSize ?? 5),
  }),
  initial: 'single',
  on: {
    'total.update': [
      {
        guard: { type: 'pageIsGone', params: ({ event }) => ({ total: event.total }) },
        target: '.settling',
        actions: [
          { type: 'setTotal', params: ({ event }) => ({ total: event.total }) },
          {
            type: 'setPage',
            params: ({ context, event }) => ({ page: pageCount(event.total, context.pageSize) }),
          },
          { type: 'notifyChange', params: ({ context }) => ({ page: context.page }) },
        ],
      },
      { target: '.settling', actions: { type: 'setTotal', params: ({ event }) => ({ total: event.total }) } },
    ],
    'page.reset': { actions: { type: 'setPage', params: { page: 1 } } },
  },
  states: {
    /** Transient: after a new total, single or multiple. */
    settling: {
      always: [{ guard: 'hasMultiplePages', target: 'multiple' }, { target: 'single' }],
    },
    single: {},
    multiple: {
      on: {
        'page.select': {
          guard: { type: 'isOtherPage', params: ({ event }) => ({ page: event.page }) },
          actions: [
            { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
            { type: 'notifyChange', params: ({ event }) => ({ page: event.page }) },
          ],
        },
        'page.next': {
          guard: { type: 'isOtherPage', params: ({ context }) => ({ page: context.page + 1 }) },
          actions: [
            { type: 'setPage', params: ({ context }) => ({ page: context.page + 1 }) },
            { type: 'notifyChange', params: ({ context }) => ({ page: context.page }) },
          ],
        },
        'page.previous': {
          guard: { type: 'isOtherPage', params: ({ context }) => ({ page: context.page - 1 }) },
          actions: [
            { type: 'setPage', params: ({ context }) => ({ page: context.page - 1 }) },
            { type: 'notifyChange', params: ({ context }) => ({ page: context.page }) },
          ],
        },
      },
    },
  },
});

/**
 * What every paged list machine shares (careers, admin openings, applications, the blog list):
 * the `pagination` child that answers `page.changed`, and the page to step back to when a page
 * came back empty.
 *
 *   actors: { pagination: paginationChild },
 *   actions: { stepBack: assign({ page: ({ context }) => pageBefore(context) }) },
 */
export const paginationChild = paginationMachine.provide({
  actions: {
    notifyChange: sendParent((_, params: { page: number }) => ({ type: 'page.changed', page: params.page })),
  },
});

/** The page before an empty one: the last page the known total has, at least 1. */
export const pageBefore = (context: { page: number; total: number; pageSize: number }) =>
  Math.max(1, Math.min(context.page - 1, Math.ceil(context.total / context.pageSize)));
