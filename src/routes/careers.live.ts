import { fromPromise } from 'xstate';
import { loadOpenings } from '../api/jobs';
import { keepOpenings, keptOpenings } from '../offline/kept-openings';
import { careersMachine } from '../machines/careers.machine';

/**
 * The careers list with its live effects: a page of openings, and the copy kept on the device per
 * page. The page adds `writeAddress`; the offline prefetch (src/pwa/prefetch.ts) runs it as is.
 */
export const liveCareersMachine = careersMachine.provide({
  actors: {
    loadOpenings: fromPromise(({ input, signal }) =>
      loadOpenings({ pagenum: input.page, pagesize: input.pageSize }, { signal }),
    ),
    keepOpenings: fromPromise(({ input }) => keepOpenings(input.rows, input.page)),
    readKeptOpenings: fromPromise(({ input }) => keptOpenings(input.page)),
  },
  actions: {
    reportFailure: (_, { error }) => console.warn('Failed to load job openings', error),
  },
});

/** The careers page's list: the live list, with the page written to the address by its router. */
export const careersPageLive = (writeAddress: (page: number) => void) =>
  liveCareersMachine.provide({ actions: { writeAddress: (_, { page }) => writeAddress(page) } });
