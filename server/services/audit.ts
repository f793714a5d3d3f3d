import type { AuditQuery } from '../../contract/auth';
import { listAudit } from '../db/audit.repo';
import type { ServiceContext } from './context';

/** The activity log (audit.read), newest first. Rows are written by the changes they record. */
export const activity = (ctx: ServiceContext, q: AuditQuery) => listAudit(ctx.db, q);
