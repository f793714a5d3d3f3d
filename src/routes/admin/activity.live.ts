import { fromPromise } from 'xstate';
import { listAudit } from '../../api/auth';
import type { AuditRow } from '../../api/contract/auth';
import { pagedList } from '../../machines/paged-list.machine';

/** Entries of the audit log a page. */
export const AUDIT_PAGE_SIZE = 50;

/** The Activity screen's list (the shared paged list) with its live effect: a page of the audit log. */
export const activityLive = pagedList<AuditRow>({ keyOf: (r) => r.audit_id }).provide({
  actors: { loadPage: fromPromise(({ input }) => listAudit(input.page, input.pageSize)) },
});

export const activityInput = { pageSize: AUDIT_PAGE_SIZE, query: null };
