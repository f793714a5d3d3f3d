import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { InsightsAnswer } from '../../contract/insights';
import { insightsMachine, type InsightsQuestion } from './insights.machine';

const totals = { visitors: 0, visits: 0, views: 0, bounces: 0 };
const answerOf = (q: InsightsQuestion, visitors: number): InsightsAnswer => ({
  from: q.from,
  to: q.to,
  previous: { from: q.from, to: q.to },
  updated_at: null,
  totals: { ...totals, visitors },
  previous_totals: totals,
  days: [],
  pages: [],
  landings: [],
  referrers: [],
  campaigns: [],
  countries: [],
  devices: [],
  languages: [],
  conversions: {
    applications: 0,
    messages: 0,
    by_landing: [],
    by_referrer: [],
    by_campaign: [],
    openings: [],
    posts: [],
  },
});

function start(load: (q: InsightsQuestion) => Promise<InsightsAnswer>, kept: InsightsAnswer | null = null) {
  const keep = vi.fn();
  const asked: InsightsQuestion[] = [];
  const actor = createActor(
    insightsMachine.provide({
      actors: {
        loadInsights: fromPromise(({ input }) => {
          asked.push(input);
          return load(input);
        }),
        readKept: fromPromise(async () =>
          kept ? { value: kept, savedAt: '2026-11-28T10:00:00.000Z' } : null,
        ),
      },
      actions: { keepAnswer: (_, p) => keep(p) },
    }),
    { input: { today: '2026-11-29' } },
  ).start();
  return { actor, keep, asked };
}

describe('the Insights screen', () => {
  it('asks for the last 30 days, then 7; a filter narrows the question and is cleared again; each answer is kept', async () => {
    const { actor, keep, asked } = start(async (q) => answerOf(q, 5));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(asked[0]).toEqual({ from: '2026-10-31', to: '2026-11-29', filters: {} });
    actor.send({ type: 'range.preset', days: 7 });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(asked[1]).toEqual({ from: '2026-11-23', to: '2026-11-29', filters: {} });
    actor.send({ type: 'filter.set', name: 'campaign', value: 'autumn' });
    actor.send({ type: 'filter.set', name: 'page', value: '/careers' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(asked.at(-1)!.filters).toEqual({ campaign: 'autumn', page: '/careers' });
    actor.send({ type: 'filter.clear', name: 'campaign' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(asked.at(-1)!.filters).toEqual({ page: '/careers' });
    expect(keep).toHaveBeenCalledWith(expect.objectContaining({ question: asked.at(-1) }));
    expect(actor.getSnapshot().context.savedAt).toBeNull();
  });

  it('takes two days in order only, at most two years apart', async () => {
    const { actor, asked } = start(async (q) => answerOf(q, 1));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'range.custom', from: '2026-11-10', to: '2026-11-01' });
    actor.send({ type: 'range.custom', from: '2020-01-01', to: '2026-11-01' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(asked).toHaveLength(1);
    actor.send({ type: 'range.custom', from: '2026-11-01', to: '2026-11-10' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({
      preset: 'custom',
      from: '2026-11-01',
      to: '2026-11-10',
    });
  });

  it('offline, shows the kept answer with its date; without one, the failure, and Retry loads again', async () => {
    const kept = answerOf({ from: '2026-10-31', to: '2026-11-29', filters: {} }, 9);
    const offline = start(() => Promise.reject(new Error('offline')), kept);
    await waitFor(offline.actor, (s) => s.matches('ready'));
    expect(offline.actor.getSnapshot().context).toMatchObject({
      answer: kept,
      savedAt: '2026-11-28T10:00:00.000Z',
    });

    let up = false;
    const { actor } = start(async (q) => {
      if (!up) throw new Error('down');
      return answerOf(q, 3);
    });
    await waitFor(actor, (s) => s.matches('failed'));
    up = true;
    actor.send({ type: 'insights.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.answer?.totals.visitors).toBe(3);
  });
});
