import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { AuditRow } from '../api/contract/auth';
import { pageBefore, paginationChild } from './pagination.machine';

/**
 * The Activity screen: one page of the audit log at a time, newest first.
 *
 * - `loading` -> `ready` (rows; none is `ready` with no rows) or `failed` (Retry).
 * - Pages: the shared `pagination` child (pagination.machine.ts) gets the total after each load
 *   and answers `page.changed`; a page past the end (entries were pruned meanwhile) steps back.
 *
 * Effects provided from outside (activity.live.ts): actor `loadPage`, action `reportFailure`.
 */
export const AUDIT_PAGE_SIZE = 50;

export interface AuditLogContext {
  page: number;
  pageSize: number;
  rows: AuditRow[];
  total: number;
}

export const auditLogMachine = setup({
  types: {
    context: {} as AuditLogContext,
    events: {} as { type: 'page.changed'; page: number } | { type: 'list.retry' },
  },
  actors: {
    loadPage: fromPromise<AuditRow[], { page: number }>(async () => {
      throw new Error('loadPage is provided by the app');
    }),
    pagination: paginationChild,
  },
  actions: {
    store: assign((_, p: { rows: AuditRow[] }) => ({ rows: p.rows, total: p.rows[0]?.total_count ?? 0 })),
    setPage: assign({ page: (_, p: { page: number }) => Math.max(1, p.page) }),
    stepBack: assign({ page: ({ context }) => pageBefore(context) }),
    tellPagination: sendTo('pagination', ({ context }) => ({
      type: 'total.update' as const,
      total: context.total,
    })),
    reportFailure: (_, _p: { error: unknown }) => {},
  },
  guards: {
    isEmptyLaterPage: ({ context }, p: { rows: AuditRow[] }) => p.rows.length === 0 && context.page > 1,
    isOtherPage: ({ context }, p: { page: number }) => p.page !== context.page,
  },
}).createMachine({
  id: 'auditLog',
  initial: 'loading',
  context: { page: 1, pageSize: AUDIT_PAGE_SIZE, rows: [], total: 0 },
  invoke: {
    id: 'pagination',
    src: 'pagination',
    input: ({ context }) => ({ pageSize: context.pageSize }),
  },
  on: {
    'page.changed': {
      guard: { type: 'isOtherPage', params: ({ event }) => ({ page: event.page }) },
      target: '.loading',
      actions: { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
    },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({ page: context.page }),
        onDone: [
          {
            guard: { type: 'isEmptyLaterPage', params: ({ event }) => ({ rows: event.output }) },
            target: 'loading',
            reenter: true,
            actions: 'stepBack',
          },
          {
            target: 'ready',
            actions: [{ type: 'store', params: ({ event }) => ({ rows: event.output }) }, 'tellPagination'],
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    ready: {},
    failed: { on: { 'list.retry': 'loading' } },
  },
});
