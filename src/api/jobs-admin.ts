import { config } from '../config';
import { adminWrite, fetchJson } from './client';
import { ManageJobOpeningAnswer, type ManageJobOpeningBody } from './contract/jobs-admin';

/**
 * POST {website API}/manage-job-openings: mode 1 create, 2 update, 3 delete.
 * Answers `{ message, row }`. The CSRF header goes with the browser's Origin (the admin and this
 * server share an origin); a customer's own backend simply ignores it.
 */
export function manageJobOpening(body: ManageJobOpeningBody) {
  return fetchJson(ManageJobOpeningAnswer, `${config.websiteApi}/manage-job-openings`, adminWrite(body));
}
