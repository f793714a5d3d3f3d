import { fromPromise } from 'xstate';
import { listAudit } from '../../api/auth';
import { AUDIT_PAGE_SIZE, auditLogMachine } from '../../machines/audit-log.machine';

/** The Activity screen's machine with its live effect: a page of the audit log from the server. */
export const activityLive = auditLogMachine.provide({
  actors: { loadPage: fromPromise(({ input }) => listAudit(input.page, AUDIT_PAGE_SIZE)) },
});
