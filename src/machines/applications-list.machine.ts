import { assign, fromPromise, sendTo, setup } from 'xstate';
import {
  dateRangeError,
  isIsoDay,
  APPLICATION_LIST_MESSAGES,
  APPLICATION_STATUSES,
  type ApplicationFilters,
  type ApplicationListRow,
  type ApplicationStatus,
} from '../api/contract/admin-applications';
import { cleanPage } from '../api/contract/paging';
import { pageBefore, paginationChild } from './pagination.machine';

export { cleanPage };

/**
 * The 'Job Application Details' list.
 *
 * - The address bar holds the applied filters and the page (`?search=&startdate=&enddate=&status=
 *   &page=`), so a filtered view can be bookmarked and shared. The screen reads the address into
 *   `input` at start and sends `address.change` when it changes (back/forward); the machine asks
 *   the screen to write it with the named action `writeAddress` whenever a person applies filters
 *   or picks a page. An address equal to what is shown is ignored, so the two never loop.
 * - The filter form edits a draft (`filter.change`); `filter.submit` applies it (page 1) unless the
 *   start date is after the end date, which shows 'Start Date must be on or before End Date' and
 *   loads nothing. `filter.clear` empties every filter.
 * - `loading` -> `ready` (rows; none is `ready` with no rows) or `failed` (Retry). A new filter or
 *   page while loading starts the load again.
 * - Pages: a child `pagination` actor (the shared pagination.machine.ts) gets the total (and the
 *   page, when it came from the address) after each load and answers `page.changed` when a page is
 *   chosen. A page past the end (the last row of the last page was deleted, an old address) steps
 *   back to the last page the known total has (page 1 when none is known).
 * - The detail modal (application-detail.machine.ts) tells the list `row.updated` (status) and
 *   `row.deleted`, which reloads the page.
 *
 * Effects the screen provides: actor `loadApplications`; actions `writeAddress`, `reportLoadFailure`.
 */

export interface ApplicationsListInput {
  pageSize: number;
  filters?: Partial<ApplicationFilters>;
  page?: number;
}

export interface LoadApplicationsInput extends ApplicationFilters {
  page: number;
  pageSize: number;
}

export interface ApplicationsListContext {
  pageSize: number;
  /** The filters of the rows shown (and of the address bar). */
  filters: ApplicationFilters;
  /** What the filter form holds. */
  draft: ApplicationFilters;
  page: number;
  rows: ApplicationListRow[];
  total: number;
  /** A filter the form must fix before it is applied (the date range), or null. */
  filterError: { field: keyof ApplicationFilters; message: string } | null;
  /** Why the last load failed (the server's message for a 4xx), or null. */
  loadError: string | null;
}

export type ApplicationsListEvent =
  | { type: 'filter.change'; field: keyof ApplicationFilters; value: string }
  | { type: 'filter.submit' }
  | { type: 'filter.clear' }
  | { type: 'address.change'; filters: Partial<ApplicationFilters>; page: number }
  | { type: 'page.changed'; page: number }
  | { type: 'list.retry' }
  | { type: 'row.updated'; row: ApplicationListRow }
  | { type: 'row.deleted' };

export const EMPTY_FILTERS: ApplicationFilters = { search: '', startdate: '', enddate: '', status: '' };

/**
 * Filters as they may come from an address someone typed: trimmed, at most 200 characters of
 * search, dates only when they are real days, a status only when it is one of the list.
 */
export function cleanFilters(
  f: Partial<Record<keyof ApplicationFilters, string | null | undefined>>,
): ApplicationFilters {
  const status = (f.status ?? '').trim();
  const day = (v: string | null | undefined) =>
    (v ?? '').trim() && isIsoDay((v ?? '').trim()) ? (v ?? '').trim() : '';
  return {
    search: (f.search ?? '').trim().slice(0, 200),
    startdate: day(f.startdate),
    enddate: day(f.enddate),
    status: (APPLICATION_STATUSES as readonly string[]).includes(status) ? (status as ApplicationStatus) : '',
  };
}

/** The address query of a view: empty filters and page 1 are left out. */
export function addressOf(filters: ApplicationFilters, page: number): string {
  const q = new URLSearchParams();
  if (filters.search) q.set('search', filters.search);
  if (filters.startdate) q.set('startdate', filters.startdate);
  if (filters.enddate) q.set('enddate', filters.enddate);
  if (filters.status) q.set('status', filters.status);
  if (page > 1) q.set('page', String(page));
  return q.toString();
}

const sameFilters = (a: ApplicationFilters, b: ApplicationFilters) =>
  a.search === b.search && a.startdate === b.startdate && a.enddate === b.enddate && a.status === b.status;

export const applicationsListMachine = setup({
  types: {
    context: {} as ApplicationsListContext,
    events: {} as ApplicationsListEvent,
    input: {} as ApplicationsListInput,
  },
  actors: {
    loadApplications: fromPromise<ApplicationListRow[], LoadApplicationsInput>(async () => {
      throw new Error('loadApplications is provided by the app');
    }),
    pagination: paginationChild,
  },
  actions: {
    storeRows: assign((_, params: { rows: ApplicationListRow[] }) => ({
      rows: params.rows,
      total: params.rows[0]?.total_count ?? params.rows.length,
      loadError: null,
    })),
    /** The pager learns the total, and the page when it came from the address. */
    tellPagination: sendTo('pagination', ({ context }) => ({
      type: 'total.update' as const,
      total: context.total,
    })),
    syncPaginationPage: sendTo('pagination', ({ context }) => ({
      type: 'page.select' as const,
      page: context.page,
    })),
    resetPagination: sendTo('pagination', { type: 'page.reset' as const }),
    stepBack: assign({ page: ({ context }) => pageBefore(context) }),
    editDraft: assign({
      draft: ({ context }, params: { field: keyof ApplicationFilters; value: string }) => ({
        ...context.draft,
        [params.field]: params.value,
      }),
      filterError: null,
    }),
    showRangeError: assign({
      filterError: ({ context }) => dateRangeError(context.draft.startdate, context.draft.enddate),
    }),
    applyDraft: assign(({ context }) => ({
      filters: cleanFilters(context.draft),
      page: 1,
      filterError: null,
    })),
    clearFilters: assign({ filters: EMPTY_FILTERS, draft: EMPTY_FILTERS, page: 1, filterError: null }),
    followAddress: assign((_, params: { filters: Partial<ApplicationFilters>; page: number }) => {
      const filters = cleanFilters(params.filters);
      return { filters, draft: filters, page: cleanPage(params.page), filterError: null };
    }),
    setPage: assign({ page: (_, params: { page: number }) => params.page }),
    setLoadError: assign({
      loadError: (_, params: { error: unknown }) => {
        const e = params.error as { status?: number; message?: string } | null;
        return e && typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.message
          ? e.message
          : null;
      },
    }),
    replaceRow: assign({
      rows: ({ context }, params: { row: ApplicationListRow }) =>
        context.rows.map((r) =>
          r.application_id === params.row.application_id ? { ...params.row, total_count: r.total_count } : r,
        ),
    }),
    /** Puts the view into the address bar; supplied by the screen. */
    writeAddress: (_, _params: { query: string }) => {},
    reportLoadFailure: (_, _params: { error: unknown }) => {},
  },
  guards: {
    rangeIsValid: ({ context }) => dateRangeError(context.draft.startdate, context.draft.enddate) === null,
    isNewAddress: ({ context }, params: { filters: Partial<ApplicationFilters>; page: number }) =>
      !sameFilters(context.filters, cleanFilters(params.filters)) || context.page !== cleanPage(params.page),
    isOtherPage: ({ context }, params: { page: number }) => params.page !== context.page,
    isEmptyLaterPage: ({ context }, params: { rows: ApplicationListRow[] }) =>
      params.rows.length === 0 && context.page > 1,
  },
}).createMachine({
  id: 'applicationsList',
  context: ({ input }) => {
    const filters = cleanFilters(input.filters ?? {});
    return {
      pageSize: input.pageSize,
      filters,
      draft: filters,
      page: cleanPage(input.page),
      rows: [],
      total: 0,
      filterError: null,
      loadError: null,
    };
  },
  invoke: {
    id: 'pagination',
    src: 'pagination',
    input: ({ context }) => ({ pageSize: context.pageSize, page: context.page }),
    onError: { actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) } },
  },
  initial: 'loading',
  on: {
    'filter.change': {
      actions: { type: 'editDraft', params: ({ event }) => ({ field: event.field, value: event.value }) },
    },
    'filter.submit': [
      {
        guard: 'rangeIsValid',
        target: '.loading',
        actions: [
          'applyDraft',
          'resetPagination',
          {
            type: 'writeAddress',
            params: ({ context }) => ({ query: addressOf(context.filters, context.page) }),
          },
        ],
      },
      { actions: 'showRangeError' },
    ],
    'filter.clear': {
      target: '.loading',
      actions: [
        'clearFilters',
        'resetPagination',
        {
          type: 'writeAddress',
          params: ({ context }) => ({ query: addressOf(context.filters, context.page) }),
        },
      ],
    },
    'address.change': {
      guard: { type: 'isNewAddress', params: ({ event }) => ({ filters: event.filters, page: event.page }) },
      target: '.loading',
      actions: {
        type: 'followAddress',
        params: ({ event }) => ({ filters: event.filters, page: event.page }),
      },
    },
    'page.changed': {
      guard: { type: 'isOtherPage', params: ({ event }) => ({ page: event.page }) },
      target: '.loading',
      actions: [
        { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
        {
          type: 'writeAddress',
          params: ({ context }) => ({ query: addressOf(context.filters, context.page) }),
        },
      ],
    },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadApplications',
        src: 'loadApplications',
        input: ({ context }) => ({ ...context.filters, page: context.page, pageSize: context.pageSize }),
        onDone: [
          {
            // a page past the end (the last row of the last page was deleted, or an old address):
            // step back to the last page the known total has, and load that
            guard: { type: 'isEmptyLaterPage', params: ({ event }) => ({ rows: event.output }) },
            target: 'loading',
            reenter: true,
            actions: [
              'stepBack',
              {
                type: 'writeAddress',
                params: ({ context }) => ({ query: addressOf(context.filters, context.page) }),
              },
            ],
          },
          {
            target: 'ready',
            actions: [
              { type: 'storeRows', params: ({ event }) => ({ rows: event.output }) },
              'tellPagination',
              'syncPaginationPage',
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: [
            { type: 'setLoadError', params: ({ event }) => ({ error: event.error }) },
            { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    ready: {
      on: {
        'row.updated': { actions: { type: 'replaceRow', params: ({ event }) => ({ row: event.row }) } },
        'row.deleted': 'loading',
      },
    },
    failed: {
      on: { 'list.retry': 'loading' },
    },
  },
});

export { APPLICATION_LIST_MESSAGES };
