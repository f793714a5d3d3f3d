import { config } from '../config';
import { adminWrite, fetchJson, versioned } from './client';
import { JobOpeningRow } from './contract/jobs';
import { ManageJobOpeningAnswer, type ManageJobOpeningBody } from './contract/jobs-admin';

/**
 * POST {website API}/manage-job-openings: mode 1 create, 2 update, 3 delete. An update sends
 * the version it is based on (If-Match) and may send only the fields it changes; a 409 is thrown
 * as a `VersionConflict` holding the opening as it is now. Answers `{ message, row }`. The CSRF header goes with the browser's Origin (the admin and this
 * server share an origin); a customer's own backend simply ignores it.
 */
export function manageJobOpening(body: ManageJobOpeningBody, version?: number) {
  return versioned(
    JobOpeningRow,
    fetchJson(
      ManageJobOpeningAnswer,
      `${config.websiteApi}/manage-job-openings`,
      adminWrite(body, 'POST', version),
    ),
  );
}
