import { fromPromise } from 'xstate';
import { loadOpenings } from '../api/jobs';
import type { JobOpeningRow } from '../../contract/jobs';
import { keepOpening, keptOpening } from '../offline/kept-openings';
import { pagedList } from '../machines/paged-list.machine';

/**
 * An opening's own page (the shared paged list: a list of one, selected by the opening's number)
 * with its live effects: the opening if it is open, the copy kept on the device by an earlier
 * visit (its page, or the list that showed it), and keeping it.
 */
export const jobPageLive = pagedList<JobOpeningRow, number>({ keyOf: (row) => row.job_id }).provide({
  actors: {
    loadPage: fromPromise(({ input, signal }) =>
      loadOpenings({ jobid: input.query, pagenum: 1, pagesize: 1 }, { signal }),
    ),
    loadKept: fromPromise(({ input }) => keptOpening(input.query)),
  },
  actions: {
    keepCopy: (_, { rows }) => {
      keepOpening(rows).catch(() => undefined); // storage full or off: the page works without a copy
    },
    reportFailure: (_, { error }) => console.warn('Failed to load the job opening', error),
  },
});
