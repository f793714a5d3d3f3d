import { fromPromise } from 'xstate';
import { searchSite } from '../../api/site-search';
import { siteSearchMachine } from '../../machines/site-search.machine';

/**
 * The site search with its live effects, for the /search page and the header's dialog: the
 * server's search, and the index of what this device keeps (loaded only when the server cannot
 * be reached: src/offline/kept-search.ts).
 */
export const liveSiteSearchMachine = siteSearchMachine.provide({
  actors: {
    search: fromPromise(({ input, signal }) => searchSite(input, { signal })),
    searchKept: fromPromise(async ({ input }) =>
      (await import('../../offline/kept-search')).searchKept(input),
    ),
  },
  actions: {
    reportFailure: (_, { error }) => console.warn('Site search failed', error),
  },
});
