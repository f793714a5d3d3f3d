import { JobOpeningRows, type JobOpeningRow } from '../../contract/jobs';
import { readCopy, saveCopy } from './cache';

/**
 * Every page of openings the careers page showed, and every opening seen in a list or on its own
 * page, kept on this device for a visit without network (cache.ts).
 */

/** Where a page of openings last shown is kept for a visit without network . */
const keptKey = (page: number) => (page > 1 ? `openings-page-${page}` : 'openings');
const openingKey = (jobId: number) => `opening-${jobId}`;

/** Keeps a page of the list and each opening on it, so an opening opened from the list works offline too. */
export async function keepOpenings(rows: JobOpeningRow[], page = 1): Promise<void> {
  await saveCopy('jobs', keptKey(page), rows);
  await keepOpening(rows);
}

/** Keeps the openings `rows` one by one (a job page keeps its one). */
export async function keepOpening(rows: JobOpeningRow[]): Promise<void> {
  await Promise.all(rows.map((row) => saveCopy('jobs', openingKey(row.job_id), [row])));
}

async function kept(key: string): Promise<{ rows: JobOpeningRow[]; savedAt: string } | null> {
  const copy = await readCopy('jobs', key);
  if (!copy) return null;
  const parsed = JobOpeningRows.safeParse(copy.value);
  return parsed.success ? { rows: parsed.data, savedAt: copy.savedAt } : null;
}

/** The kept page, or null when none was kept or the copy no longer fits the contract. */
export const keptOpenings = (page = 1) => kept(keptKey(page));

/** The kept opening (a list of one), or null. */
export async function keptOpening(jobId: number): Promise<{ rows: JobOpeningRow[]; savedAt: string } | null> {
  const copy = await kept(openingKey(jobId));
  return copy && copy.rows.length > 0 ? copy : null;
}
