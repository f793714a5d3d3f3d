import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../api/client';
import type { PlanRow } from '../../contract/pricing';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  everyTransition,
} from './testing/test-model';
import {
  formatPlanPrice,
  groupPlans,
  parsePrice,
  periodOf,
  pricingMachine,
  splitFeatures,
  type KeptPlans,
  type PricingEvent,
} from './pricing.machine';

const row = (
  plan: string,
  subscription: string,
  price: PlanRow['price'],
  extra: Partial<PlanRow> = {},
): PlanRow => ({
  plan_name: plan,
  subscription_name: subscription,
  price,
  description: `${plan} description`,
  no_of_journals: plan === 'Enterprise' ? 'Unlimited' : 5,
  features: 'Peer review automation, Plagiarism check',
  ...extra,
});

const INDIA_ROWS: PlanRow[] = [
  row('Starter', '3 months', '12,000'),
  row('Starter', '6 months', '22,000'),
  row('Starter', '1 year', '40,000'),
  row('Professional', '3 months', '30,000'),
  row('Professional', '6 months', '55,000'),
  row('Professional', '1 year', '1,00,000'),
  row('Enterprise', '6 months', '1,20,000'),
  row('Enterprise', '1 year', '2,20,000'),
];
const KEPT: KeptPlans = { rows: [row('Starter', '1 year', '39,000')], savedAt: '2026-03-01T10:30:00.000Z' };

describe('pricing helpers', () => {
  it('places a subscription name with 3 under Quarterly, 6 under Half Yearly and "year" under Annual', () => {
    expect(periodOf('3 months')).toBe('quarterly');
    expect(periodOf('Quarterly (3 Months)')).toBe('quarterly');
    expect(periodOf('6 Months')).toBe('halfYearly');
    expect(periodOf('1 year')).toBe('annual');
    expect(periodOf('Yearly')).toBe('annual');
    expect(periodOf('Monthly')).toBeNull();
  });

  it('parses a price with thousands commas to a number, and an empty one to nothing', () => {
    expect(parsePrice('12,000')).toBe(12000);
    expect(parsePrice('1,20,000')).toBe(120000);
    expect(parsePrice('12,000.50')).toBe(12000.5);
    expect(parsePrice(4999)).toBe(4999);
    expect(parsePrice('')).toBeNull();
    expect(parsePrice(null)).toBeNull();
    expect(parsePrice(undefined)).toBeNull();
    expect(parsePrice('call us')).toBeNull();
  });

  it('writes rupees the Indian way, as Intl does for en-IN', () => {
    for (const amount of [
      0, 7, 999, 1000, 12000, 99999, 120000, 1234567, 12000000, 123456789, 12000.5, 1999.99,
    ]) {
      const intl = new Intl.NumberFormat('en-IN', {
        style: 'currency',
        currency: 'INR',
        minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
        maximumFractionDigits: 2,
      }).format(amount);
      expect(formatPlanPrice(amount)).toBe(intl);
    }
    expect(formatPlanPrice(12000)).toBe('₹12,000');
    expect(formatPlanPrice(120000, 'INR')).toBe('₹1,20,000');
    expect(formatPlanPrice(49.99, 'USD')).toBe('$49.99');
  });

  it('splits the comma-separated features and drops blanks', () => {
    expect(splitFeatures(' A, B ,,C, ')).toEqual(['A', 'B', 'C']);
  });

  it('groups rows by plan name in order, each price under its period, absent ones null', () => {
    const cards = groupPlans(INDIA_ROWS);
    expect(cards.map((c) => c.name)).toEqual(['Starter', 'Professional', 'Enterprise']);
    expect(cards[1]).toEqual({
      name: 'Professional',
      description: 'Professional description',
      journals: { unlimited: false, count: '5' },
      features: ['Peer review automation', 'Plagiarism check'],
      prices: { quarterly: 30000, halfYearly: 55000, annual: 100000 },
      currency: 'INR',
    });
    expect(cards[2].prices).toEqual({ quarterly: null, halfYearly: 120000, annual: 220000 });
    expect(cards[2].journals).toEqual({ unlimited: true });
  });
});

/** Real machine with every effect replaced; each actor answers what the test says. */
function start(
  effects: {
    geolocate?: () => Promise<unknown>;
    findCountry?: (q: { countrycode: string; countryname: string }) => Promise<unknown>;
    loadPlans?: (q: { countryid: number }) => Promise<unknown>;
    keepPlans?: (rows: PlanRow[]) => Promise<void>;
    readKeptPlans?: () => Promise<unknown>;
  },
  input?: { rows?: PlanRow[]; countryId?: number },
) {
  const calls = {
    findCountry: vi.fn(effects.findCountry ?? (async () => [{ country_id: 101 }])),
    loadPlans: vi.fn(effects.loadPlans ?? (async () => INDIA_ROWS)),
    keepPlans: vi.fn(effects.keepPlans ?? (async () => {})),
    logFailure: vi.fn(),
  };
  const machine = pricingMachine.provide({
    actors: {
      geolocate: fromPromise(
        effects.geolocate ?? (async () => ({ country_name: 'India', country_code: 'IN' })),
      ),
      findCountry: fromPromise<unknown, { countrycode: string; countryname: string }>(({ input }) =>
        calls.findCountry(input),
      ),
      loadPlans: fromPromise<unknown, { countryid: number }>(({ input }) => calls.loadPlans(input)),
      keepPlans: fromPromise<void, PlanRow[]>(({ input }) => calls.keepPlans(input)),
      readKeptPlans: fromPromise(effects.readKeptPlans ?? (async () => null)),
    } as never,
    actions: { logFailure: (_, params) => calls.logFailure(params.error) },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, calls };
}

const settled = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => !s.hasTag('loading'));

describe('pricing page load', () => {
  it('starts with the plans the server rendered the page with: nothing located or loaded, and they are kept', async () => {
    const geolocate = vi.fn(async () => ({ country_name: 'India', country_code: 'IN' }));
    const { actor, calls } = start({ geolocate }, { rows: INDIA_ROWS, countryId: 101 });
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('loaded');
    expect(snap.hasTag('plans')).toBe(true);
    expect(snap.context.plans.map((p) => p.name)).toEqual(['Starter', 'Professional', 'Enterprise']);
    await vi.waitFor(() => expect(calls.keepPlans).toHaveBeenCalledWith(INDIA_ROWS));
    expect(geolocate).not.toHaveBeenCalled();
    expect(calls.loadPlans).not.toHaveBeenCalled();
    // the server rendered none (a customer's backend with no plans): the page loads them itself
    const empty = start({}, { rows: [] });
    expect(empty.actor.getSnapshot().hasTag('loading')).toBe(true);
  });

  it("shows India's plans grouped by name with prices per period, and keeps them for offline visits", async () => {
    const { actor, calls } = start({});
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    const snap = await settled(actor);
    expect(snap.value).toBe('loaded');
    expect(calls.findCountry).toHaveBeenCalledWith({ countrycode: 'IN', countryname: 'India' });
    expect(calls.loadPlans).toHaveBeenCalledWith({ countryid: 101 });
    expect(snap.context.plans.map((p) => [p.name, p.prices.quarterly])).toEqual([
      ['Starter', 12000],
      ['Professional', 30000],
      ['Enterprise', null],
    ]);
    expect(snap.context.savedAt).toBeNull();
    await vi.waitFor(() => expect(calls.keepPlans).toHaveBeenCalledWith(INDIA_ROWS));
    expect(calls.logFailure).not.toHaveBeenCalled();
  });

  it('asks for the plans of the country the lookup found', async () => {
    const { actor, calls } = start({
      geolocate: async () => ({ country_name: 'United States', country_code: 'US' }),
      findCountry: async () => [{ country_id: 233 }],
    });
    await settled(actor);
    expect(calls.findCountry).toHaveBeenCalledWith({ countrycode: 'US', countryname: 'United States' });
    expect(calls.loadPlans).toHaveBeenCalledWith({ countryid: 233 });
  });

  it('uses country 101 when geolocation fails, without asking for a country', async () => {
    const { actor, calls } = start({ geolocate: () => Promise.reject(new ApiError(0, 'offline')) });
    expect((await settled(actor)).value).toBe('loaded');
    expect(calls.findCountry).not.toHaveBeenCalled();
    expect(calls.loadPlans).toHaveBeenCalledWith({ countryid: 101 });
  });

  it('uses country 101 when the country lookup fails or finds nothing', async () => {
    const failing = start({ findCountry: () => Promise.reject(new ApiError(503, 'down')) });
    await settled(failing.actor);
    expect(failing.calls.loadPlans).toHaveBeenCalledWith({ countryid: 101 });

    const none = start({ findCountry: async () => [] });
    await settled(none.actor);
    expect(none.calls.loadPlans).toHaveBeenCalledWith({ countryid: 101 });
  });

  it("logs 'Error fetching pricing' (through logFailure) and shows the kept plans with their date when the plans call fails", async () => {
    const error = new ApiError(0, 'Failed to fetch');
    const { actor, calls } = start({
      loadPlans: () => Promise.reject(error),
      readKeptPlans: async () => KEPT,
    });
    const snap = await settled(actor);
    expect(snap.value).toBe('showingKept');
    expect(snap.hasTag('kept')).toBe(true);
    expect(snap.context.savedAt).toBe('2026-03-01T10:30:00.000Z');
    expect(snap.context.plans.map((p) => [p.name, p.prices.annual])).toEqual([['Starter', 39000]]);
    expect(calls.logFailure).toHaveBeenCalledExactlyOnceWith(error);
    expect(calls.keepPlans).not.toHaveBeenCalled();
  });

  it('shows the retry message when the plans call fails and nothing was kept, and Retry starts over', async () => {
    let fail = true;
    const { actor, calls } = start({
      loadPlans: async () => {
        if (fail) throw new ApiError(500, 'Internal error');
        return INDIA_ROWS;
      },
    });
    let snap = await settled(actor);
    expect(snap.value).toBe('failed');
    expect(snap.hasTag('retry')).toBe(true);
    expect(snap.context.plans).toEqual([]);

    fail = false;
    actor.send({ type: 'plans.retry' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    snap = await settled(actor);
    expect(snap.value).toBe('loaded');
    expect(snap.context.plans).toHaveLength(3);
    expect(calls.loadPlans).toHaveBeenCalledTimes(2);
  });

  it('treats a kept copy that cannot be read like no copy', async () => {
    const { actor } = start({
      loadPlans: () => Promise.reject(new ApiError(0, 'offline')),
      readKeptPlans: () => Promise.reject(new Error('IndexedDB is not available')),
    });
    expect((await settled(actor)).value).toBe('failed');
  });

  it('Retry from the kept copy loads fresh plans and drops the saved-copy note', async () => {
    let offline = true;
    const { actor } = start({
      loadPlans: async () => {
        if (offline) throw new ApiError(0, 'offline');
        return INDIA_ROWS;
      },
      readKeptPlans: async () => KEPT,
    });
    expect((await settled(actor)).value).toBe('showingKept');
    offline = false;
    actor.send({ type: 'plans.retry' });
    const snap = await settled(actor);
    expect(snap.value).toBe('loaded');
    expect(snap.context.savedAt).toBeNull();
  });

  it('ends empty, with nothing to retry, when the server has no plans', async () => {
    const { actor, calls } = start({ loadPlans: async () => [] });
    const snap = await settled(actor);
    expect(snap.value).toBe('empty');
    expect(snap.hasTag('retry')).toBe(false);
    expect(calls.keepPlans).not.toHaveBeenCalled();
  });

  it('still shows the plans when keeping them on the device fails', async () => {
    const { actor, calls } = start({ keepPlans: () => Promise.reject(new Error('QuotaExceededError')) });
    await settled(actor);
    await vi.waitFor(() => expect(calls.keepPlans).toHaveBeenCalled());
    await flush();
    expect(actor.getSnapshot().value).toBe('loaded');
    expect(actor.getSnapshot().status).toBe('active');
  });

  it('switches the period at any time, starting with Quarterly', async () => {
    const { actor } = start({});
    expect(actor.getSnapshot().context.period).toBe('quarterly');
    actor.send({ type: 'period.select', period: 'annual' });
    expect(actor.getSnapshot().context.period).toBe('annual');
    await settled(actor);
    actor.send({ type: 'period.select', period: 'halfYearly' });
    expect(actor.getSnapshot().context.period).toBe('halfYearly');
  });
});

describe('pricing page load paths', () => {
  const IDS = ['geolocate', 'findCountry', 'loadPlans', 'keepPlans', 'readKeptPlans'] as const;
  const sample = [
    { type: 'plans.retry' },
    { type: doneEvent('geolocate'), output: { country_name: 'India', country_code: 'IN' } },
    { type: errorEvent('geolocate'), error: new ApiError(0, 'offline') },
    { type: doneEvent('findCountry'), output: [{ country_id: 101 }] },
    { type: errorEvent('findCountry'), error: new ApiError(500, 'down') },
    { type: doneEvent('loadPlans'), output: INDIA_ROWS },
    { type: doneEvent('loadPlans'), output: [] },
    { type: errorEvent('loadPlans'), error: new ApiError(0, 'offline') },
    { type: doneEvent('readKeptPlans'), output: KEPT },
    { type: doneEvent('readKeptPlans'), output: null },
    { type: errorEvent('readKeptPlans'), error: new Error('no IndexedDB') },
  ];
  // Every simple path (no state visited twice along a path, Retry included). Switching the period
  // is left out here: it changes nothing but the period, at any time (tested above).
  const model = createPathModel(pricingMachine, {
    events: sample as never,
    filterEvents: (_state, event) => event.type !== 'period.select',
  });
  const walk = everyTransition(model, 'pricing.machine', sample);
  // every simple path, and a path for every transition (Retry from each failure included)
  const paths = [...model.getSimplePaths(), ...walk.paths];

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });
  const stepName = (type: string, output: unknown) =>
    type.startsWith('xstate.done.actor.')
      ? `${type.slice(18)} ${Array.isArray(output) && output.length === 0 ? 'empty' : output === null ? 'none' : 'ok'}`
      : type.startsWith('xstate.error.actor.')
        ? `${type.slice(19)} fails`
        : type;
  const nameOf = (path: (typeof paths)[number]) =>
    path.steps
      .slice(1)
      .map((s) => stepName(s.event.type, (s.event as { output?: unknown }).output))
      .join(' → ');

  it('reaches every state, through every failure branch', () => {
    // simple paths end where they cannot go on; the states on the way are checked as well
    const reached = new Set(
      paths.flatMap((p) => [p.state, ...p.steps.map((s) => s.state)].map((st) => String(st.value))),
    );
    expect([...reached].sort()).toEqual(
      [
        'empty',
        'failed',
        'findingCountry',
        'loaded',
        'loadingPlans',
        'locating',
        'readingKeptPlans',
        'showingKept',
      ].sort(),
    );
    const taken = new Set(paths.flatMap((p) => p.steps.map((s) => s.event.type)));
    for (const e of sample) expect(taken).toContain(e.type);
  });

  for (const path of paths) {
    it(`shows what ${String(path.state.value)} promises after ${nameOf(path)}`, async () => {
      const effects = controlledActors([...IDS]);
      const logged: unknown[] = [];
      const actor = createActor(
        pricingMachine.provide({
          actors: effects.actors as never,
          actions: { logFailure: (_, params) => logged.push(params.error) },
        }),
        { input: {} },
      ).start();
      const resolve =
        (id: (typeof IDS)[number]) =>
        async ({ event }: { event: { output?: unknown } }) => {
          effects.settle(id, event.output);
          await flush();
        };
      const reject =
        (id: (typeof IDS)[number]) =>
        async ({ event }: { event: { error?: unknown } }) => {
          effects.fail(id, event.error);
          await flush();
        };
      const view = () => {
        const s = actor.getSnapshot();
        return {
          skeleton: s.hasTag('loading'),
          cards: s.hasTag('plans') ? s.context.plans.map((p) => p.name) : [],
          note: s.hasTag('kept') ? s.context.savedAt : null,
          retry: s.hasTag('retry'),
        };
      };
      await path.test({
        events: {
          'plans.retry': ({ event }) => actor.send(event as PricingEvent),
          ...Object.fromEntries(
            IDS.flatMap((id) => [
              [doneEvent(id), resolve(id)],
              [errorEvent(id), reject(id)],
            ]),
          ),
        },
        states: {
          locating: () => expect(view()).toEqual({ skeleton: true, cards: [], note: null, retry: false }),
          findingCountry: () => {
            expect(view().skeleton).toBe(true);
            expect(effects.lastInput('findCountry')).toEqual({ countrycode: 'IN', countryname: 'India' });
          },
          loadingPlans: () => {
            expect(view().skeleton).toBe(true);
            expect(effects.lastInput('loadPlans')).toEqual({ countryid: 101 });
          },
          loaded: () => {
            expect(view()).toEqual({
              skeleton: false,
              cards: ['Starter', 'Professional', 'Enterprise'],
              note: null,
              retry: false,
            });
            expect(effects.lastInput('keepPlans')).toEqual(INDIA_ROWS);
          },
          readingKeptPlans: () => {
            expect(view().skeleton).toBe(true);
            expect(logged.length).toBeGreaterThan(0);
          },
          showingKept: () =>
            expect(view()).toEqual({ skeleton: false, cards: ['Starter'], note: KEPT.savedAt, retry: false }),
          failed: () => {
            expect(view()).toEqual({ skeleton: false, cards: [], note: null, retry: true });
            expect(logged.length).toBeGreaterThan(0);
          },
          empty: () => expect(view()).toEqual({ skeleton: false, cards: [], note: null, retry: false }),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
      // 'Error fetching pricing' is logged once per failed plans call, and only then
      expect(logged).toHaveLength(path.steps.filter((s) => s.event.type === errorEvent('loadPlans')).length);
    });
  }
});
