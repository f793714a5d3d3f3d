import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../api/client';
import type { JobOpeningRow } from '../api/contract/jobs';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  everyTransition,
} from './testing/test-model';
import { careersMachine, type KeptOpenings } from './careers.machine';

const opening = (id: number, title: string): JobOpeningRow => ({
  job_id: id,
  job_title: title,
  department: 'Engineering',
  location: 'Chennai, India',
  job_type_id: 1,
  job_type_name: 'Full-time',
  description: '<p>d</p>',
  requirement: '<ul><li>r</li></ul>',
  about_role: '<p>a</p>',
  responsibility: '<ul><li>s</li></ul>',
});

/** What the page shows for a state: the texts the page shows for it. */
function screenOf(
  snapshot: ReturnType<ReturnType<typeof createActor<typeof careersMachine>>['getSnapshot']>,
) {
  if (snapshot.matches('loading')) return 'Loading job openings...';
  if (snapshot.matches('failed')) return 'Failed to load job openings.';
  if (snapshot.matches('empty')) return 'No job openings available at the moment.';
  if (snapshot.matches('readingKeptOpenings')) return 'Loading job openings...';
  const titles = snapshot.context.openings.map((o) => o.job_title).join(', ');
  return snapshot.matches('showingKept')
    ? `Showing saved copy from ${snapshot.context.savedAt}: ${titles}`
    : titles;
}

describe('careers page list', () => {
  it('shows "Loading job openings..." first, then the openings', async () => {
    // Arrange
    const actor = createActor(
      careersMachine.provide({
        actors: {
          loadOpenings: fromPromise(async () => [opening(1, 'Technical Writer'), opening(2, 'Intern')]),
        },
      }),
      { input: {} },
    );
    // Act
    actor.start();
    const first = screenOf(actor.getSnapshot());
    await waitFor(actor, (s) => s.matches('listed'));
    // Assert
    expect(first).toBe('Loading job openings...');
    expect(screenOf(actor.getSnapshot())).toBe('Technical Writer, Intern');
  });

  it('shows "No job openings available at the moment." for an empty list', async () => {
    const actor = createActor(
      careersMachine.provide({
        actors: { loadOpenings: fromPromise(async (): Promise<JobOpeningRow[]> => []) },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches('empty'));
    expect(screenOf(actor.getSnapshot())).toBe('No job openings available at the moment.');
  });

  it('shows "Failed to load job openings." on an error and loads again on Retry', async () => {
    // Arrange
    let calls = 0;
    const reported: unknown[] = [];
    const actor = createActor(
      careersMachine.provide({
        actors: {
          loadOpenings: fromPromise(async () => {
            calls += 1;
            if (calls === 1) throw new ApiError(503, 'down');
            return [opening(1, 'Technical Writer')];
          }),
        },
        actions: { reportFailure: (_, params) => reported.push(params.error) },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(screenOf(actor.getSnapshot())).toBe('Failed to load job openings.');
    expect(reported).toHaveLength(1);
    // Act
    actor.send({ type: 'list.retry' });
    // Assert
    expect(screenOf(actor.getSnapshot())).toBe('Loading job openings...');
    await waitFor(actor, (s) => s.matches('listed'));
    expect(calls).toBe(2);
  });

  it('ignores Retry while the list is shown', async () => {
    let calls = 0;
    const actor = createActor(
      careersMachine.provide({
        actors: { loadOpenings: fromPromise(async () => (calls++, [opening(1, 'A')])) },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches('listed'));
    actor.send({ type: 'list.retry' });
    expect(actor.getSnapshot().value).toBe('listed');
    expect(calls).toBe(1);
  });
});

describe('careers page list without network', () => {
  const kept = { rows: [opening(3, 'Copy Editor')], savedAt: '2026-11-20T09:30:00.000Z' };

  it('keeps the openings it showed for a later visit without network', async () => {
    const keptRows: JobOpeningRow[][] = [];
    const actor = createActor(
      careersMachine.provide({
        actors: {
          loadOpenings: fromPromise(async () => [opening(1, 'Technical Writer')]),
          keepOpenings: fromPromise(async ({ input }: { input: { rows: JobOpeningRow[]; page: number } }) => {
            keptRows.push(input.rows);
          }),
        },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches('listed'));
    await flush();
    expect(keptRows).toEqual([[opening(1, 'Technical Writer')]]);
  });

  it('shows the kept openings with the time they were saved when the call fails', async () => {
    const actor = createActor(
      careersMachine.provide({
        actors: {
          loadOpenings: fromPromise(async (): Promise<JobOpeningRow[]> => {
            throw new ApiError(0, 'Failed to fetch');
          }),
          readKeptOpenings: fromPromise<KeptOpenings | null, { page: number }>(async () => kept),
        },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches('showingKept'));
    expect(screenOf(actor.getSnapshot())).toBe(
      'Showing saved copy from 2026-11-20T09:30:00.000Z: Copy Editor',
    );
  });

  it('says "Failed to load job openings." when nothing was kept', async () => {
    const actor = createActor(
      careersMachine.provide({
        actors: {
          loadOpenings: fromPromise(async (): Promise<JobOpeningRow[]> => {
            throw new ApiError(0, 'Failed to fetch');
          }),
          readKeptOpenings: fromPromise<KeptOpenings | null, { page: number }>(async () => null),
        },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(screenOf(actor.getSnapshot())).toBe('Failed to load job openings.');
  });

  it('Retry on the kept copy loads fresh openings', async () => {
    let calls = 0;
    const actor = createActor(
      careersMachine.provide({
        actors: {
          loadOpenings: fromPromise(async () => {
            calls += 1;
            if (calls === 1) throw new ApiError(0, 'Failed to fetch');
            return [opening(1, 'Technical Writer')];
          }),
          readKeptOpenings: fromPromise<KeptOpenings | null, { page: number }>(async () => kept),
        },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches('showingKept'));
    actor.send({ type: 'list.retry' });
    await waitFor(actor, (s) => s.matches('listed'));
    expect(actor.getSnapshot().context.savedAt).toBeNull();
    expect(screenOf(actor.getSnapshot())).toBe('Technical Writer');
  });
});

describe('careers page list pages', () => {
  const page = (n: number, total: number) =>
    Array.from({ length: n }, (_, i) => ({ ...opening(i + 1, `Opening ${i + 1}`), total_count: total }));

  it('loads the page of the address, 20 a page, and tells the pager the total', async () => {
    const asked: { page: number; pageSize: number }[] = [];
    const actor = createActor(
      careersMachine.provide({
        actors: {
          loadOpenings: fromPromise(async ({ input }) => (asked.push(input), page(5, 45))),
        },
      }),
      { input: { page: 3 } },
    ).start();
    await waitFor(actor, (s) => s.matches('listed'));
    await flush();
    expect(asked).toEqual([{ page: 3, pageSize: 20 }]);
    const pager = actor.getSnapshot().children.pagination!.getSnapshot().context;
    expect(pager).toMatchObject({ page: 3, total: 45, pageSize: 20 });
  });

  it('a page chosen on the pager is loaded and written to the address; back/forward follow the address', async () => {
    const asked: number[] = [];
    const written: number[] = [];
    const actor = createActor(
      careersMachine.provide({
        actors: { loadOpenings: fromPromise(async ({ input }) => (asked.push(input.page), page(20, 45))) },
        actions: { writeAddress: (_, { page }) => written.push(page) },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches('listed'));
    await flush();
    actor.getSnapshot().children.pagination!.send({ type: 'page.next' });
    await waitFor(actor, (s) => s.matches('listed') && s.context.page === 2);
    actor.send({ type: 'address.change', page: 1 });
    await waitFor(actor, (s) => s.matches('listed') && s.context.page === 1);
    // the page shown already: nothing to load
    actor.send({ type: 'address.change', page: 1 });
    await flush();
    expect(asked).toEqual([1, 2, 1]);
    expect(written).toEqual([2]);
  });

  it('an address past the last page steps back to the last page there is', async () => {
    const asked: number[] = [];
    const written: number[] = [];
    const actor = createActor(
      careersMachine.provide({
        actors: {
          loadOpenings: fromPromise(
            async ({ input }) => (asked.push(input.page), input.page > 1 ? [] : page(3, 3)),
          ),
        },
        actions: { writeAddress: (_, { page }) => written.push(page) },
      }),
      { input: { page: 9 } },
    ).start();
    await waitFor(actor, (s) => s.matches('listed'));
    expect(asked).toEqual([9, 1]);
    expect(written).toEqual([1]);
    expect(screenOf(actor.getSnapshot())).toBe('Opening 1, Opening 2, Opening 3');
  });
});

describe('careers page list paths', () => {
  const rows = [opening(1, 'Technical Writer')];
  const events = [
    { type: doneEvent('loadOpenings'), output: rows },
    { type: doneEvent('loadOpenings'), output: [] },
    { type: errorEvent('loadOpenings'), error: new ApiError(0, 'offline') },
    {
      type: doneEvent('readKeptOpenings'),
      output: { rows: [opening(3, 'Copy Editor')], savedAt: 'yesterday' },
    },
    { type: doneEvent('readKeptOpenings'), output: null },
    { type: errorEvent('readKeptOpenings'), error: new Error('no IndexedDB') },
    { type: 'list.retry' },
    { type: 'page.changed', page: 2 },
    { type: 'address.change', page: 1 },
  ];
  // the model has no pagination child: the messages to it are checked by the tests above
  const quiet = { tellPagination: () => {}, syncPaginationPage: () => {} };
  const model = createPathModel(careersMachine.provide({ actions: quiet }), {
    events: events as never,
    input: {},
    // a state is its value and its page (rows and totals do not make new states)
    serializeState: (state: { value: unknown; context: { page: number } }) =>
      JSON.stringify([state.value, state.context.page]),
  } as never);
  const walk = everyTransition(model, 'careers.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('visits every state (paths that are prefixes of longer ones are merged into them)', () => {
    const visited = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)]));
    expect([...visited].sort()).toEqual([
      'empty',
      'failed',
      'listed',
      'loading',
      'readingKeptOpenings',
      'showingKept',
    ]);
  });

  for (const path of paths) {
    it(`shows what each state promises: ${path.description}`, async () => {
      const effects = controlledActors(['loadOpenings', 'readKeptOpenings']);
      const actor = createActor(careersMachine.provide({ actors: effects.actors as never }), {
        input: {},
      }).start();
      await path.test({
        events: {
          [doneEvent('loadOpenings')]: async ({ event }: { event: unknown }) => {
            effects.settle('loadOpenings', (event as { output: unknown }).output);
            await flush();
          },
          [errorEvent('loadOpenings')]: async ({ event }: { event: unknown }) => {
            effects.fail('loadOpenings', (event as { error: unknown }).error);
            await flush();
          },
          [doneEvent('readKeptOpenings')]: async ({ event }: { event: unknown }) => {
            effects.settle('readKeptOpenings', (event as { output: unknown }).output);
            await flush();
          },
          [errorEvent('readKeptOpenings')]: async ({ event }: { event: unknown }) => {
            effects.fail('readKeptOpenings', (event as { error: unknown }).error);
            await flush();
          },
          'list.retry': ({ event }) => actor.send(event as { type: 'list.retry' }),
          'page.changed': ({ event }) => actor.send(event as { type: 'page.changed'; page: number }),
          'address.change': ({ event }) => actor.send(event as { type: 'address.change'; page: number }),
        },
        states: {
          loading: () => expect(screenOf(actor.getSnapshot())).toBe('Loading job openings...'),
          listed: () => expect(screenOf(actor.getSnapshot())).toBe('Technical Writer'),
          empty: () => expect(screenOf(actor.getSnapshot())).toBe('No job openings available at the moment.'),
          failed: () => expect(screenOf(actor.getSnapshot())).toBe('Failed to load job openings.'),
          readingKeptOpenings: () => expect(screenOf(actor.getSnapshot())).toBe('Loading job openings...'),
          showingKept: () =>
            expect(screenOf(actor.getSnapshot())).toBe('Showing saved copy from yesterday: Copy Editor'),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
