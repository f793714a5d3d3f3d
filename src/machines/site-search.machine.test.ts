import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { SiteSearchAnswer } from '../../contract/site-search';
import { shownResults, siteSearchMachine, type SiteSearchInput } from './site-search.machine';
import {
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
  timerEvent,
} from './testing/test-model';

const result = (title: string, kind: 'page' | 'post' | 'opening' = 'post') => ({
  kind,
  title,
  url: `/${title.toLowerCase()}`,
  lang: 'en' as const,
  snippet: [{ text: title, hit: true }],
});
const answer = (q: string, titles: string[]): SiteSearchAnswer => ({
  q,
  lang: 'en',
  groups: titles.length
    ? [{ kind: 'post', matches: titles.length, results: titles.map((t) => result(t)) }]
    : [],
  elsewhere: [],
});

type Id = 'search' | 'searchKept';

/** The two searches, each answered by the test; every input each was asked with is kept. */
function controlled() {
  const asked: Record<Id, unknown[]> = { search: [], searchKept: [] };
  const pending = new Map<Id, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const actor = (id: Id) =>
    fromPromise(
      ({ input }) =>
        new Promise((resolve, reject) => void (asked[id].push(input), pending.set(id, { resolve, reject }))),
    );
  const take = (id: Id) => {
    const p = pending.get(id);
    if (!p) throw new Error(`${id} is not running`);
    pending.delete(id);
    return p;
  };
  return {
    actors: { search: actor('search'), searchKept: actor('searchKept') },
    calls: (id: Id) => asked[id].length,
    lastInput: (id: Id) => asked[id].at(-1),
    settle: (id: Id, output: unknown) => take(id).resolve(output),
    fail: (id: Id, error: unknown) => take(id).reject(error),
  };
}

function start(input: SiteSearchInput = { lang: 'en' }) {
  const ctl = controlled();
  const failures: unknown[] = [];
  const actor = createActor(
    siteSearchMachine.provide({
      actors: ctl.actors as never,
      actions: { reportFailure: (_, { error }) => void failures.push(error) },
      // the pause between keys is the clock's; here it passes at the next turn
      delays: { typingPause: 0 },
    }),
    { input },
  ).start();
  return { actor, ctl, failures, snap: () => actor.getSnapshot() };
}

const pause = flush;

describe('the site search', () => {
  it('asks once the typing pauses, with the trimmed words and the page language, and shows the answer', async () => {
    const { actor, ctl, snap } = start({ lang: 'de' });
    actor.send({ type: 'query.change', q: 'p' });
    actor.send({ type: 'query.change', q: 'pe' });
    actor.send({ type: 'query.change', q: ' peer ' });
    expect(snap().value).toBe('waiting');
    expect(ctl.calls('search')).toBe(0);
    await pause();
    expect(ctl.calls('search')).toBe(1);
    expect(ctl.lastInput('search')).toEqual({ q: 'peer', lang: 'de' });
    ctl.settle('search', answer('peer', ['Peer review']));
    await flush();
    expect(snap().value).toBe('showing');
    expect(snap().context.fromKept).toBe(false);
    expect(shownResults(snap().context.answer).map((r) => r.title)).toEqual(['Peer review']);
  });

  it('never shows the answer of words typed over', async () => {
    const { actor, ctl, snap } = start();
    actor.send({ type: 'query.change', q: 'jats' });
    await pause();
    actor.send({ type: 'query.change', q: 'jats xml' });
    ctl.settle('search', answer('jats', ['Old']));
    await flush();
    // the older search was stopped: its answer is dropped, and the new words are asked
    expect(snap().value).toBe('searching');
    expect(snap().context.answer).toBeNull();
    expect(ctl.lastInput('search')).toEqual({ q: 'jats xml', lang: 'en' });
    ctl.settle('search', answer('jats xml', ['New']));
    await flush();
    expect(shownResults(snap().context.answer).map((r) => r.title)).toEqual(['New']);
  });

  it('empties the results when the words are cleared (spaces are nothing)', async () => {
    const { actor, ctl, snap } = start();
    actor.send({ type: 'query.change', q: 'peer' });
    await pause();
    ctl.settle('search', answer('peer', ['Peer review']));
    await flush();
    actor.send({ type: 'query.change', q: '   ' });
    expect(snap().value).toBe('idle');
    expect(snap().context.answer).toBeNull();
    await pause();
    expect(ctl.calls('search')).toBe(1);
  });

  it('searches the copy kept on the device when the server cannot be reached, and says so', async () => {
    const { actor, ctl, snap, failures } = start();
    actor.send({ type: 'query.change', q: 'pricing' });
    await pause();
    ctl.fail('search', Object.assign(new Error('Failed to fetch'), { status: 0 }));
    await flush();
    expect(snap().value).toBe('searchingKept');
    expect(ctl.lastInput('searchKept')).toEqual({ q: 'pricing', lang: 'en' });
    ctl.settle('searchKept', answer('pricing', ['Pricing']));
    await flush();
    expect(snap().value).toBe('showing');
    expect(snap().context.fromKept).toBe(true);
    expect(failures).toEqual([]);
  });

  it('fails on a refused search (no kept copy is tried) and asks again on retry', async () => {
    const { actor, ctl, snap, failures } = start();
    actor.send({ type: 'query.change', q: 'x' });
    await pause();
    ctl.fail('search', Object.assign(new Error('Bad request'), { status: 400 }));
    await flush();
    expect(snap().value).toBe('failed');
    expect(ctl.calls('searchKept')).toBe(0);
    expect(failures).toHaveLength(1);
    actor.send({ type: 'retry' });
    expect(snap().value).toBe('searching');
    expect(ctl.calls('search')).toBe(2);
  });

  it('fails when neither the server nor the kept copy answers', async () => {
    const { actor, ctl, snap } = start();
    actor.send({ type: 'query.change', q: 'x' });
    await pause();
    ctl.fail('search', Object.assign(new Error('down'), { status: 503 }));
    await flush();
    ctl.fail('searchKept', new Error('no IndexedDB'));
    await flush();
    expect(snap().value).toBe('failed');
  });

  it('moves through the results with the arrows, wrapping, and starts over with a new answer', async () => {
    const { actor, ctl, snap } = start();
    actor.send({ type: 'query.change', q: 'a' });
    await pause();
    ctl.settle('search', answer('a', ['One', 'Two', 'Three']));
    await flush();
    expect(snap().context.active).toBe(-1);
    actor.send({ type: 'active.previous' });
    expect(snap().context.active).toBe(2);
    actor.send({ type: 'active.next' });
    expect(snap().context.active).toBe(0);
    actor.send({ type: 'active.next' });
    expect(snap().context.active).toBe(1);
    actor.send({ type: 'query.change', q: 'ab' });
    await pause();
    ctl.settle('search', answer('ab', []));
    await flush();
    expect(snap().context.active).toBe(-1);
    actor.send({ type: 'active.next' });
    expect(snap().context.active).toBe(-1);
  });

  it('starts with the answer the server rendered, or searches the words it was given', async () => {
    const shown = start({ lang: 'en', q: 'peer', answer: answer('peer', ['Peer review']) });
    expect(shown.snap().value).toBe('showing');
    expect(shown.ctl.calls('search')).toBe(0);
    const asked = start({ lang: 'en', q: 'peer' });
    expect(asked.snap().value).toBe('waiting');
    await pause();
    expect(asked.ctl.calls('search')).toBe(1);
    expect(start({ lang: 'en', q: '  ' }).snap().value).toBe('idle');
  });
});

describe('site search paths', () => {
  const unreachable = Object.assign(new Error('Failed to fetch'), { status: 0 });
  const refused = Object.assign(new Error('Bad request'), { status: 400 });
  const events = [
    { type: 'query.change', q: 'peer' },
    { type: 'query.change', q: ' ' },
    { type: 'active.next' },
    { type: 'active.previous' },
    { type: 'retry' },
    { type: timerEvent('typingPause') },
    { type: doneEvent('search'), output: answer('peer', ['Peer review', 'JATS']) },
    { type: errorEvent('search'), error: unreachable },
    { type: errorEvent('search'), error: refused },
    { type: doneEvent('searchKept'), output: answer('peer', ['Pricing']) },
    { type: errorEvent('searchKept'), error: new Error('no IndexedDB') },
  ];
  const model = createPathModel(siteSearchMachine, {
    events: events as never,
    input: { lang: 'en' },
    serializeState: (s: { value: unknown; context: { q: string; fromKept: boolean; active: number } }) =>
      JSON.stringify([s.value, s.context.q.trim() !== '', s.context.fromKept, s.context.active]),
  } as never);
  const walk = everyTransition(model, 'site-search.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(15);
  });

  for (const path of walk.paths) {
    it(`shows an answer only for words typed, and a highlighted result only among those shown: ${path.description}`, async () => {
      const { actor, ctl, snap } = start();
      const send = ({ event }: { event: unknown }) => actor.send(event as never);
      const settle =
        (id: Id, ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) ctl.settle(id, e.output);
          else ctl.fail(id, e.error);
          await flush();
        };
      await path.test({
        events: {
          'query.change': send,
          'active.next': send,
          'active.previous': send,
          retry: send,
          [timerEvent('typingPause')]: flush,
          [doneEvent('search')]: settle('search', true),
          [errorEvent('search')]: settle('search', false),
          [doneEvent('searchKept')]: settle('searchKept', true),
          [errorEvent('searchKept')]: settle('searchKept', false),
        },
        states: {
          idle: () => expect(snap().context.answer).toBeNull(),
          showing: () => {
            expect(snap().context.answer).not.toBeNull();
            expect(snap().context.active).toBeLessThan(shownResults(snap().context.answer).length);
          },
          searchingKept: () => expect(ctl.lastInput('searchKept')).toEqual({ q: 'peer', lang: 'en' }),
        },
      });
      expect(snap().value).toEqual(path.state.value);
    });
  }
});
