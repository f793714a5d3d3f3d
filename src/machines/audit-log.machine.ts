import { assign, fromPromise, setup } from 'xstate';
import type { AuditRow } from '../api/contract/auth';

/**
 * The Activity screen: one page of the audit log at a time, newest first. Effects the screen
 * provides: `loadPage`, `reportFailure`.
 */
export const AUDIT_PAGE_SIZE = 50;

export interface AuditLogContext {
  page: number;
  rows: AuditRow[];
  total: number;
}

export const auditLogMachine = setup({
  types: {
    context: {} as AuditLogContext,
    events: {} as { type: 'page.go'; page: number } | { type: 'list.retry' },
  },
  actors: {
    loadPage: fromPromise<AuditRow[], { page: number }>(async () => {
      throw new Error('loadPage is provided by the app');
    }),
  },
  actions: {
    store: assign((_, p: { rows: AuditRow[] }) => ({ rows: p.rows, total: p.rows[0]?.total_count ?? 0 })),
    setPage: assign({ page: (_, p: { page: number }) => Math.max(1, p.page) }),
    reportFailure: (_, _p: { error: unknown }) => {},
  },
}).createMachine({
  id: 'auditLog',
  initial: 'loading',
  context: { page: 1, rows: [], total: 0 },
  states: {
    loading: {
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({ page: context.page }),
        onDone: {
          target: 'ready',
          actions: { type: 'store', params: ({ event }) => ({ rows: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    ready: {
      on: {
        'page.go': {
          target: 'loading',
          actions: { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
        },
      },
    },
    failed: { on: { 'list.retry': 'loading' } },
  },
});
