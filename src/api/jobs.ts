import { config } from '../config';
import { readCopy, saveCopy } from '../offline/cache';
import { fetchJson, toQuery } from './client';
import {
  JOB_PAGE_SIZE,
  JobOpeningRows,
  JobTypeRows,
  type JobOpeningRow,
  type JobTypeRow,
} from './contract/jobs';

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

/** Where a page of openings last shown is kept for a visit without network (src/offline). */
const keptKey = (page: number) => (page > 1 ? `openings-page-${page}` : 'openings');

export async function keepOpenings(rows: JobOpeningRow[], page = 1): Promise<void> {
  await saveCopy('jobs', keptKey(page), rows);
}

/** The kept page, or null when none was kept or the copy no longer fits the contract. */
export async function keptOpenings(page = 1): Promise<{ rows: JobOpeningRow[]; savedAt: string } | null> {
  const copy = await readCopy('jobs', keptKey(page));
  if (!copy) return null;
  const parsed = JobOpeningRows.safeParse(copy.value);
  return parsed.success ? { rows: parsed.data, savedAt: copy.savedAt } : null;
}
