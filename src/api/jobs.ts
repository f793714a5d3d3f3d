import { config } from '../config';
import { fetchJson, toQuery } from './client';
import {
  JOB_PAGE_SIZE,
  JobOpeningRows,
  JobTypeRows,
  type JobOpeningRow,
  type JobTypeRow,
} from '../../contract/jobs';

/**
 * GET {website API}/bind-job-openings. The careers page sends the spec's query: jobid 0 (all),
 * search empty, pages of 20.
 */
export function loadOpenings(
  query: { jobid?: number; search?: string; pagenum?: number; pagesize?: number } = {},
  init?: RequestInit,
): Promise<JobOpeningRow[]> {
  const q = { jobid: 0, search: '', pagenum: 1, pagesize: JOB_PAGE_SIZE, ...query };
  return fetchJson(JobOpeningRows, `${config.websiteApi}/bind-job-openings?${toQuery(q)}`, init);
}

/** GET {website API}/bind-job-types. */
export function loadJobTypes(init?: RequestInit): Promise<JobTypeRow[]> {
  return fetchJson(JobTypeRows, `${config.websiteApi}/bind-job-types`, init);
}
