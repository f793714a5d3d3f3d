import { config } from '../config';
import { adminWrite, fetchJson, toQuery, versioned } from './client';
import { JOB_PAGE_SIZE, JobOpeningRow, JobOpeningRows, type JobStatus } from '../../contract/jobs';
import {
  JobStatusAnswer,
  ManageJobOpeningAnswer,
  type JobStatusBody,
  type ManageJobOpeningBody,
} from '../../contract/jobs-admin';

/**
 * POST {website API}/manage-job-openings: mode 1 create, 2 update, 3 delete. An update sends
 * the version it is based on (If-Match) and may send only the fields it changes; a 409 is thrown
 * as a `VersionConflict` holding the opening as it is now. Answers `{ message, row }`. The send
 * queue's `idempotencyKey` makes a repeat of the same change answer the first answer. The CSRF header goes with the browser's Origin (the admin and this
 * server share an origin); a customer's own backend simply ignores it.
 */
export function manageJobOpening(body: ManageJobOpeningBody, version?: number, idempotencyKey?: string) {
  const init = adminWrite(body, 'POST', version);
  if (idempotencyKey)
    init.headers = { ...(init.headers as Record<string, string>), 'Idempotency-Key': idempotencyKey };
  return versioned(JobOpeningRow, fetchJson(ManageJobOpeningAnswer, manageJobOpeningsUrl(), init));
}

/** Where a create or change of an opening goes (the send queue keeps it for one made offline). */
export const manageJobOpeningsUrl = () => `${config.websiteApi}/manage-job-openings`;

/**
 * GET /api/admin/job-openings: every opening (Draft, Open, Closed) with its number of applications,
 * never from a cache.
 */
export function loadAdminOpenings(
  query: { pagenum?: number; pagesize?: number } = {},
  init?: RequestInit,
): Promise<JobOpeningRow[]> {
  const q = { jobid: 0, search: '', pagenum: 1, pagesize: JOB_PAGE_SIZE, ...query };
  return fetchJson(JobOpeningRows, `/api/admin/job-openings?${toQuery(q)}`, { cache: 'no-store', ...init });
}

/**
 * PATCH /api/admin/job-openings/:id: Draft, Open or Closed, based on the version the card shows
 * (a `VersionConflict` when it changed meanwhile); a closing may say what happens to the
 * applications still being decided. Answers the saved opening, and what the closing did.
 */
export async function saveOpeningStatus(
  job: JobOpeningRow,
  status: JobStatus,
  closing: Omit<JobStatusBody, 'status'> = {},
): Promise<JobStatusAnswer> {
  return versioned(
    JobOpeningRow,
    fetchJson(
      JobStatusAnswer,
      `/api/admin/job-openings/${job.job_id}`,
      adminWrite({ status, ...closing }, 'PATCH', job.version ?? 1),
    ),
  );
}
