import { fromPromise } from 'xstate';
import { listAudit, NO_AUDIT_FILTERS, type AuditFilters } from '../../../api/auth';
import type { AuditRow } from '../../../../contract/auth';
import { pagedList } from '../../../machines/paged-list.machine';
import { connectionEvents } from '../../../offline/online-status';

/** Entries of the audit log a page. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * The Activity screen's list (the shared paged list) with its live effect: a page of the audit
 * log, filtered by person, kind of record, action and days (`list.show` with the filters).
 */
export const activityLive = pagedList<AuditRow, AuditFilters>({ keyOf: (r) => r.audit_id }).provide({
  actors: {
    // a page that failed offline loads again when the connection is back
    connectionEvents,
    loadPage: fromPromise(({ input }) =>
      listAudit(input.page, input.pageSize, input.query ?? NO_AUDIT_FILTERS),
    ),
  },
});

export const activityInput = { pageSize: AUDIT_PAGE_SIZE, query: NO_AUDIT_FILTERS };
