import { assign, fromPromise, setup } from 'xstate';
import type { CountryRow, GeoAnswer, PlanRow } from '../../contract/pricing';
import { DEFAULT_COUNTRY_ID } from '../../contract/pricing-constants';

/**
 * The pricing page load: geolocate -> country id -> plan rows -> cards grouped
 * by plan name with a price under each period. Each step that fails falls back to country 101.
 * When the plans call itself fails, 'Error fetching pricing' is logged
 * and the last plans kept on this device are shown with their date; with none kept, a quiet
 * message with Retry (a page that says nothing would look broken).
 *
 * With `input.rows` (the plans the server rendered the page with, for the visitor's country) it
 * starts `loaded`: nothing to locate or load, and the plans are kept for a visit without network.
 *
 * Tags for the screen: 'loading' (skeleton cards), 'plans' (cards), 'kept' (the saved-copy note),
 * 'retry' (the failure message).
 */

export const PERIODS = ['quarterly', 'halfYearly', 'annual'] as const;
export type Period = (typeof PERIODS)[number];

export interface PlanCard {
  name: string;
  description: string;
  /** 'Unlimited journals' or '{count} journals max'. */
  journals: { unlimited: true } | { unlimited: false; count: string };
  features: string[];
  /** null: no price for that period ('-'). */
  prices: Record<Period, number | null>;
  /** ISO 4217; INR unless the answer says otherwise. */
  currency: string;
}

/** subscription_name contains 3 (quarterly), 6 (half-yearly) or 'year' (annual). */
export function periodOf(subscriptionName: string): Period | null {
  if (subscriptionName.includes('3')) return 'quarterly';
  if (subscriptionName.includes('6')) return 'halfYearly';
  if (/year/i.test(subscriptionName)) return 'annual';
  return null;
}

/** The spec's price string with thousands commas (or a number) as a number; null when absent. */
export function parsePrice(price: PlanRow['price']): number | null {
  if (price === null || price === undefined) return null;
  if (typeof price === 'number') return Number.isFinite(price) ? price : null;
  const text = price.replace(/,/g, '').trim();
  if (text === '' || !/^\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

function journalsOf(value: PlanRow['no_of_journals']): PlanCard['journals'] {
  const text = String(value).trim();
  return /^unlimited$/i.test(text) ? { unlimited: true } : { unlimited: false, count: text };
}

/** Comma-separated features as a list, without blanks. */
export function splitFeatures(features: string): string[] {
  return features
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
}

/** Rows grouped by plan_name, in the order the plans first appear, each price under its period. */
export function groupPlans(rows: PlanRow[]): PlanCard[] {
  const cards = new Map<string, PlanCard>();
  for (const row of rows) {
    let card = cards.get(row.plan_name);
    if (!card) {
      card = {
        name: row.plan_name,
        description: row.description,
        journals: journalsOf(row.no_of_journals),
        features: splitFeatures(row.features),
        prices: { quarterly: null, halfYearly: null, annual: null },
        currency: row.currency || 'INR',
      };
      cards.set(row.plan_name, card);
    }
    const period = periodOf(row.subscription_name);
    if (period) card.prices[period] = parsePrice(row.price);
  }
  return [...cards.values()];
}

/** Digits of a whole number grouped the Indian way: 1,20,000 (thousands, then lakhs, crores). */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  return `${head},${digits.slice(-3)}`;
}

const otherCurrencies = new Map<string, Intl.NumberFormat>();

/**
 * A card's price: rupees written for India (₹12,000, ₹1,20,000; paise only when there are any).
 * Written out rather than with Intl.NumberFormat('en-IN'), whose first use loads locale data and
 * took about 200 ms of main thread on a throttled phone, right when the plans appear. Another
 * currency (a customer's backend may send one) goes through Intl.
 */
export function formatPlanPrice(amount: number, currency = 'INR'): string {
  if (currency !== 'INR') {
    let format = otherCurrencies.get(currency);
    if (!format) {
      format = new Intl.NumberFormat('en-IN', { style: 'currency', currency, maximumFractionDigits: 2 });
      otherCurrencies.set(currency, format);
    }
    return format.format(amount);
  }
  const [whole, fraction] = Math.abs(amount)
    .toFixed(Number.isInteger(amount) ? 0 : 2)
    .split('.');
  return `${amount < 0 ? '-' : ''}₹${groupIndian(whole)}${fraction ? `.${fraction}` : ''}`;
}

export interface KeptPlans {
  rows: PlanRow[];
  savedAt: string;
}

export interface PricingContext {
  period: Period;
  geo: GeoAnswer | null;
  countryId: number;
  /** The rows of the plans shown, kept for the next visit without network. */
  rows: PlanRow[];
  plans: PlanCard[];
  /** When the plans shown were saved on this device; null for fresh ones. */
  savedAt: string | null;
}

export type PricingEvent = { type: 'period.select'; period: Period } | { type: 'plans.retry' };

/** The plans the page came with (the server's render), if any, and the country they are for. */
export interface PricingInput {
  rows?: PlanRow[];
  countryId?: number;
}

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is provided by the screen`));

export const pricingMachine = setup({
  types: {
    context: {} as PricingContext,
    events: {} as PricingEvent,
    input: {} as PricingInput,
  },
  actors: {
    geolocate: fromPromise<GeoAnswer>(notProvided('geolocate')),
    findCountry: fromPromise<CountryRow[], { countrycode: string; countryname: string }>(
      notProvided('findCountry'),
    ),
    loadPlans: fromPromise<PlanRow[], { countryid: number }>(notProvided('loadPlans')),
    keepPlans: fromPromise<void, PlanRow[]>(notProvided('keepPlans')),
    readKeptPlans: fromPromise<KeptPlans | null>(notProvided('readKeptPlans')),
  },
  actions: {
    selectPeriod: assign({
      period: ({ context, event }) => (event.type === 'period.select' ? event.period : context.period),
    }),
    rememberGeo: assign({ geo: (_, geo: GeoAnswer) => geo }),
    useCountry: assign({ countryId: (_, id: number | undefined) => id || DEFAULT_COUNTRY_ID }),
    showPlans: assign({
      rows: (_, rows: PlanRow[]) => rows,
      plans: (_, rows: PlanRow[]) => groupPlans(rows),
      savedAt: null,
    }),
    showKeptPlans: assign({
      rows: (_, kept: KeptPlans) => kept.rows,
      plans: (_, kept: KeptPlans) => groupPlans(kept.rows),
      savedAt: (_, kept: KeptPlans) => kept.savedAt,
    }),
    forgetPlans: assign({ rows: [], plans: [], savedAt: null, geo: null, countryId: DEFAULT_COUNTRY_ID }),
    /** The screen logs 'Error fetching pricing'. */
    logFailure: (_, _params: { error: unknown }) => {},
  },
  guards: {
    hasRows: (_, rows: PlanRow[]) => groupPlans(rows).length > 0,
    hasKeptPlans: (_, kept: KeptPlans | null) => kept !== null && groupPlans(kept.rows).length > 0,
  },
}).createMachine({
  id: 'pricing',
  initial: 'starting',
  context: ({ input }) => ({
    period: 'quarterly',
    geo: null,
    countryId: input?.countryId ?? DEFAULT_COUNTRY_ID,
    rows: input?.rows ?? [],
    plans: input?.rows ? groupPlans(input.rows) : [],
    savedAt: null,
  }),
  on: {
    'period.select': { actions: 'selectPeriod' },
  },
  states: {
    /** The page came with its plans (the server's render): shown as they are. */
    starting: {
      always: [
        { guard: ({ context }) => context.plans.length > 0, target: 'loaded' },
        { target: 'locating' },
      ],
    },
    locating: {
      tags: ['loading'],
      invoke: {
        id: 'geolocate',
        src: 'geolocate',
        onDone: {
          target: 'findingCountry',
          actions: { type: 'rememberGeo', params: ({ event }) => event.output },
        },
        onError: { target: 'loadingPlans', actions: { type: 'useCountry', params: undefined } },
      },
    },
    findingCountry: {
      tags: ['loading'],
      invoke: {
        id: 'findCountry',
        src: 'findCountry',
        input: ({ context }) => ({
          countrycode: context.geo?.country_code ?? '',
          countryname: context.geo?.country_name ?? '',
        }),
        onDone: {
          target: 'loadingPlans',
          actions: { type: 'useCountry', params: ({ event }) => event.output[0]?.country_id },
        },
        onError: { target: 'loadingPlans', actions: { type: 'useCountry', params: undefined } },
      },
    },
    loadingPlans: {
      tags: ['loading'],
      invoke: {
        id: 'loadPlans',
        src: 'loadPlans',
        input: ({ context }) => ({ countryid: context.countryId }),
        onDone: [
          {
            guard: { type: 'hasRows', params: ({ event }) => event.output },
            target: 'loaded',
            actions: { type: 'showPlans', params: ({ event }) => event.output },
          },
          { target: 'empty' },
        ],
        onError: {
          target: 'readingKeptPlans',
          actions: { type: 'logFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loaded: {
      tags: ['plans'],
      // Keep these plans for a later visit without network. A failure to keep them changes
      // nothing on screen.
      invoke: {
        id: 'keepPlans',
        src: 'keepPlans',
        input: ({ context }) => context.rows,
        onError: { actions: [] },
      },
    },
    readingKeptPlans: {
      tags: ['loading'],
      invoke: {
        id: 'readKeptPlans',
        src: 'readKeptPlans',
        onDone: [
          {
            guard: { type: 'hasKeptPlans', params: ({ event }) => event.output },
            target: 'showingKept',
            actions: { type: 'showKeptPlans', params: ({ event }) => event.output! },
          },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    showingKept: {
      tags: ['plans', 'kept'],
      on: { 'plans.retry': { target: 'locating', actions: 'forgetPlans' } },
    },
    failed: {
      tags: ['retry'],
      on: { 'plans.retry': { target: 'locating', actions: 'forgetPlans' } },
    },
    /** The server answered, with no plans: nothing to show and nothing to retry. */
    empty: {},
  },
});
