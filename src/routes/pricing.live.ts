import { fromPromise } from 'xstate';
import type { PlanRow } from '../../contract/pricing';
import { pricingMachine } from '../machines/pricing.machine';

/**
 * The API module (with zod and the IndexedDB cache) loads when the machine makes its first call,
 * after hydration, not before: the server HTML already shows everything the first paint needs.
 */
const api = () => import('../api/pricing');
const kept = () => import('../offline/kept-plans');

/**
 * The pricing machine with its live effects: the three pricing calls and the kept copy.
 * Used by the page and by the offline prefetch (src/pwa/prefetch.ts).
 */
export const livePricingMachine = pricingMachine.provide({
  actors: {
    geolocate: fromPromise(async () => (await api()).getGeo()),
    findCountry: fromPromise(async ({ input }: { input: { countrycode: string; countryname: string } }) =>
      (await api()).findCountry(input),
    ),
    loadPlans: fromPromise(async ({ input }: { input: { countryid: number } }) =>
      (await api()).loadPlans(input.countryid),
    ),
    keepPlans: fromPromise(async ({ input }: { input: PlanRow[] }) => (await kept()).keepPlans(input)),
    readKeptPlans: fromPromise(async () => (await kept()).keptPlans()),
  },
  actions: {
    // Logged to the console as 'Error fetching pricing'. A warning, not an error:
    // the page copes with it (kept plans or Retry), and console errors are kept for real faults.
    logFailure: (_, params) => console.warn('Error fetching pricing', params.error),
  },
});
