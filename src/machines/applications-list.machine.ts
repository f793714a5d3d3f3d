import { assign, sendTo, setup } from 'xstate';
import {
  dateRangeError,
  isIsoDay,
  APPLICATION_LIST_MESSAGES,
  APPLICATION_STATUSES,
  type ApplicationFilters,
  type ApplicationListRow,
  type ApplicationStatus,
} from '../../contract/admin-applications';
import { isIdText } from '../../contract/ids';
import { cleanPage } from '../../contract/paging';
import { pagedList } from './paged-list.machine';

export { cleanPage };

/**
 * The 'Job Application Details' list.
 *
 * - `list`: the shared paged list (paged-list.machine.ts) of applications selected by the applied
 *   filters (its `query`); it loads, pages, steps back from a page past the end (the last row of
 *   the last page was deleted, an old address) and says why a load was refused (`loadError`).
 * - The address bar holds the applied filters and the page (`?search=&startdate=&enddate=&status=
 *   &job_id=&application=&page=`; `job_id` is one opening's applications, set by Current Openings'
 *   link; `application` one application, the link of a staff notice), so a filtered view can be bookmarked and shared. The screen reads the address into
 *   `input` at start, sends `address.change` when it changes (back/forward), and writes the view
 *   the list moves to (the list's `showPage`, with `addressOf`). An address equal to what is
 *   shown is ignored by the list, so the two never loop.
 * - The filter form edits a draft (`filter.change`); `filter.submit` applies it (page 1) unless the
 *   start date is after the end date, which shows 'Start Date must be on or before End Date' and
 *   loads nothing. `filter.clear` empties every filter; `filter.drop` drops one (the opening, the
 *   one application) and keeps the rest.
 * - The detail modal (application-detail.machine.ts) tells the list `row.updated` (status) and
 *   `row.deleted`, which reloads the page.
 *
 * Effects the screen provides: the `list` (its `loadPage`, `showPage`).
 */

export interface ApplicationsListInput {
  pageSize: number;
  filters?: Partial<ApplicationFilters>;
  page?: number;
}

export interface ApplicationsListContext {
  pageSize: number;
  /** The list's first view (the address's). */
  first: { filters: ApplicationFilters; page: number };
  /** What the filter form holds. */
  draft: ApplicationFilters;
  /** A filter the form must fix before it is applied (the date range), or null. */
  filterError: { field: keyof ApplicationFilters; message: string } | null;
}

export type ApplicationsListEvent =
  | { type: 'filter.change'; field: keyof ApplicationFilters; value: string }
  | { type: 'filter.submit' }
  | { type: 'filter.clear' }
  | { type: 'filter.drop'; field: 'job_id' | 'applicationid' }
  | { type: 'address.change'; filters: Partial<ApplicationFilters>; page: number }
  | { type: 'row.updated'; row: ApplicationListRow }
  | { type: 'row.deleted' };

export const EMPTY_FILTERS: ApplicationFilters = {
  search: '',
  startdate: '',
  enddate: '',
  status: '',
  job_id: '',
  applicationid: '',
};

/**
 * Filters as they may come from an address someone typed: trimmed, at most 200 characters of
 * search, dates only when they are real days, a status only when it is one of the list, an
 * opening or an application only as a whole number from 1 (written without leading zeros).
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
    job_id: wholeId(f.job_id),
    applicationid: wholeId(f.applicationid),
  };
}

function wholeId(value: string | null | undefined): string {
  // at most ten digits as typed, leading zeros dropped ("007" is 7); then the contract's one rule
  // for an id's text
  const typed = (value ?? '').trim();
  const digits = typed.length <= 10 ? typed.replace(/^0+(?=\d)/, '') : '';
  return isIdText(digits) ? digits : '';
}

/** The address query of a view: empty filters and page 1 are left out. */
export function addressOf(filters: ApplicationFilters, page: number): string {
  const q = new URLSearchParams();
  if (filters.search) q.set('search', filters.search);
  if (filters.startdate) q.set('startdate', filters.startdate);
  if (filters.enddate) q.set('enddate', filters.enddate);
  if (filters.status) q.set('status', filters.status);
  if (filters.job_id) q.set('job_id', filters.job_id);
  if (filters.applicationid) q.set('application', filters.applicationid);
  if (page > 1) q.set('page', String(page));
  return q.toString();
}

/** The applications a page, selected by the applied filters. */
export const applicationsList = pagedList<ApplicationListRow, ApplicationFilters>({
  keyOf: (row) => row.application_id,
});

export const applicationsListMachine = setup({
  types: {
    context: {} as ApplicationsListContext,
    events: {} as ApplicationsListEvent,
    input: {} as ApplicationsListInput,
    children: {} as { list: 'list' },
  },
  actors: {
    list: applicationsList,
  },
  actions: {
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
    clearDraft: assign({ draft: EMPTY_FILTERS, filterError: null }),
    dropFilter: assign({
      draft: ({ context }, params: { field: 'job_id' | 'applicationid' }) => ({
        ...context.draft,
        [params.field]: '',
      }),
    }),
    followAddress: assign((_, params: { filters: Partial<ApplicationFilters> }) => ({
      draft: cleanFilters(params.filters),
      filterError: null,
    })),
    showDraft: sendTo('list', ({ context }) => ({
      type: 'list.show' as const,
      query: cleanFilters(context.draft),
    })),
    followList: sendTo('list', (_, params: { filters: Partial<ApplicationFilters>; page: number }) => ({
      type: 'list.follow' as const,
      query: cleanFilters(params.filters),
      page: cleanPage(params.page),
    })),
    putRow: sendTo('list', (_, params: { row: ApplicationListRow }) => ({
      type: 'row.saved' as const,
      row: params.row,
      absent: 'reload' as const,
    })),
    reloadList: sendTo('list', { type: 'list.reload' as const }),
  },
  guards: {
    rangeIsValid: ({ context }) => dateRangeError(context.draft.startdate, context.draft.enddate) === null,
  },
}).createMachine({
  id: 'applicationsList',
  context: ({ input }) => {
    const filters = cleanFilters(input.filters ?? {});
    return {
      pageSize: input.pageSize,
      first: { filters, page: cleanPage(input.page) },
      draft: filters,
      filterError: null,
    };
  },
  invoke: {
    id: 'list',
    src: 'list',
    input: ({ context }) => ({
      pageSize: context.pageSize,
      query: context.first.filters,
      page: context.first.page,
    }),
  },
  initial: 'filtering',
  states: {
    filtering: {
      on: {
        'filter.change': {
          actions: { type: 'editDraft', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        'filter.submit': [{ guard: 'rangeIsValid', actions: 'showDraft' }, { actions: 'showRangeError' }],
        'filter.clear': { actions: ['clearDraft', 'showDraft'] },
        'filter.drop': {
          actions: [{ type: 'dropFilter', params: ({ event }) => ({ field: event.field }) }, 'showDraft'],
        },
        'address.change': {
          actions: [
            { type: 'followAddress', params: ({ event }) => ({ filters: event.filters }) },
            { type: 'followList', params: ({ event }) => ({ filters: event.filters, page: event.page }) },
          ],
        },
        'row.updated': { actions: { type: 'putRow', params: ({ event }) => ({ row: event.row }) } },
        'row.deleted': { actions: 'reloadList' },
      },
    },
  },
});

export { APPLICATION_LIST_MESSAGES };
