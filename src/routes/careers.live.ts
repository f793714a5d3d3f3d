import { fromPromise } from 'xstate';
import { loadOpenings } from '../api/jobs';
import { JOB_PAGE_SIZE, type JobOpeningRow } from '../../contract/jobs';
import { keepOpenings, keptOpenings } from '../offline/kept-openings';
import { pagedList } from '../machines/paged-list.machine';

/**
 * The careers list (the shared paged list) with its live effects: a page of openings, and the copy
 * kept on the device per page. The page adds `showPage` (the address); the offline prefetch
 * (src/pwa/prefetch.ts) runs it as is.
 */
export const liveCareersMachine = pagedList<JobOpeningRow>({ keyOf: (row) => row.job_id }).provide({
  actors: {
    loadPage: fromPromise(({ input, signal }) =>
      loadOpenings({ pagenum: input.page, pagesize: input.pageSize }, { signal }),
    ),
    loadKept: fromPromise(async ({ input }) => {
      const kept = await keptOpenings(input.page);
      return kept && kept.rows.length > 0 ? kept : null;
    }),
  },
  actions: {
    // kept for a visit without network; storage full or off changes nothing on screen
    keepCopy: (_, { rows, page }) => {
      if (rows.length > 0) keepOpenings(rows, page).catch(() => undefined);
    },
    reportFailure: (_, { error }) => console.warn('Failed to load job openings', error),
  },
});

/** The list's input: 20 openings a page (the spec), from the address's page. */
export const careersInput = (page = 1) => ({ pageSize: JOB_PAGE_SIZE, query: null, page });

/** The careers page's list: the live list, with the page written to the address by its router. */
export const careersPageLive = (writeAddress: (page: number) => void) =>
  liveCareersMachine.provide({ actions: { showPage: (_, { page }) => writeAddress(page) } });
