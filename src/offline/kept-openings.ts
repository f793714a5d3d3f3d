import { JobOpeningRows, type JobOpeningRow } from '../api/contract/jobs';
import { readCopy, saveCopy } from './cache';

/** Every page of openings the careers page showed, kept on this device for a visit without network (cache.ts). */

/** Where a page of openings last shown is kept for a visit without network . */
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
