import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
} from './testing/test-model';
import {
  pageBefore,
  pageCount,
  pagedList,
  pageWindow,
  paginationView,
  refusalOf,
} from './paged-list.machine';

interface Row {
  id: number;
  title: string;
  total_count?: number;
}
interface Query {
  search: string;
}

const rows = (ids: number[], total: number): Row[] =>
  ids.map((id, i) => ({ id, title: `Row ${id}`, ...(i === 0 ? { total_count: total } : {}) }));

/** A server of `total` rows numbered 1..total (search keeps the ids containing its text). */
function server(total: number, pageSize = 10) {
  return vi.fn(async ({ query, page }: { query: Query; page: number }) => {
    const all = Array.from({ length: total }, (_, i) => i + 1).filter((id) =>
      String(id).includes(query.search),
    );
    return rows(all.slice((page - 1) * pageSize, page * pageSize), all.length);
  });
}

const list = pagedList<Row, Query>({ keyOf: (r) => r.id });

function start(
  load: ReturnType<typeof server>,
  input: Partial<Parameters<typeof createActor<typeof list>>[1] & object> = {},
) {
  const shown: number[] = [];
  const kept: number[] = [];
  const failures: unknown[] = [];
  const actor = createActor(
    list.provide({
      actors: { loadPage: fromPromise(({ input }) => load(input)) },
      actions: {
        showPage: (_, { page }) => void shown.push(page),
        keepCopy: (_, { page }) => void kept.push(page),
        reportFailure: (_, { error }) => void failures.push(error),
      },
    }),
    { input: { pageSize: 10, query: { search: '' } }, ...input },
  ).start();
  const ready = () => waitFor(actor, (s) => s.matches('ready'));
  const ids = () => actor.getSnapshot().context.rows.map((r) => r.id);
  const view = () => paginationView(actor.getSnapshot().context);
  return { actor, shown, kept, failures, ready, ids, view };
}

describe('page arithmetic', () => {
  it.each([
    [0, 10, 0],
    [1, 10, 1],
    [10, 10, 1],
    [11, 10, 2],
    [10_000, 10, 1000],
  ])('%i items of %i per page make %i pages', (total, size, pages) => {
    expect(pageCount(total, size)).toBe(pages);
  });

  it.each([
    [1, 3, [1, 2, 3]],
    [1, 10, [1, 2, 3, 4, 5]],
    [2, 10, [1, 2, 3, 4, 5]],
    [5, 10, [3, 4, 5, 6, 7]],
    [10, 10, [6, 7, 8, 9, 10]],
    [1, 0, []],
  ])('page %i of %i shows the buttons %j (at most 5)', (page, count, buttons) => {
    expect(pageWindow(page, count)).toEqual(buttons);
  });

  it('steps back to the last page the known total has, at least 1', () => {
    expect(pageBefore({ page: 5, total: 31, pageSize: 10 })).toBe(4);
    expect(pageBefore({ page: 9, total: 31, pageSize: 10 })).toBe(4);
    expect(pageBefore({ page: 3, total: 0, pageSize: 10 })).toBe(1);
  });

  it("keeps the server's words only for a refusal (4xx)", () => {
    expect(refusalOf({ status: 400, message: 'Start Date must be on or before End Date' })).toBe(
      'Start Date must be on or before End Date',
    );
    expect(refusalOf({ status: 503, message: 'down' })).toBeNull();
    expect(refusalOf(new Error('offline'))).toBeNull();
  });
});

describe('a paged list', () => {
  it('loads the first page and its total; no pager for one page', async () => {
    const load = server(7);
    const { actor, ready, ids, view, kept } = start(load);
    expect(actor.getSnapshot().value).toBe('loading');
    await ready();
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(actor.getSnapshot().context.total).toBe(7);
    expect(view().shown).toBe(false);
    expect(kept).toEqual([1]);
  });

  it('shows Previous, Next and up to 5 page buttons, and loads the page chosen', async () => {
    const load = server(95);
    const { actor, ready, ids, view, shown } = start(load);
    await ready();
    expect(view()).toMatchObject({ shown: true, pageCount: 10, pages: [1, 2, 3, 4, 5], hasPrevious: false });
    actor.send({ type: 'page.next' });
    await ready();
    actor.send({ type: 'page.select', page: 7 });
    await ready();
    actor.send({ type: 'page.select', page: 7 }); // already there
    actor.send({ type: 'page.select', page: 11 }); // no such page
    actor.send({ type: 'page.select', page: 0 });
    actor.send({ type: 'page.previous' });
    await ready();
    expect(shown).toEqual([2, 7, 6]);
    expect(ids()[0]).toBe(51);
    expect(view().pages).toEqual([4, 5, 6, 7, 8]);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('ignores Previous on the first page and Next on the last', async () => {
    const { actor, ready, shown } = start(server(20));
    await ready();
    actor.send({ type: 'page.previous' });
    actor.send({ type: 'page.next' });
    await ready();
    actor.send({ type: 'page.next' });
    expect(shown).toEqual([2]);
  });

  it('a page chosen while loading starts the load again; the earlier answer is dropped', async () => {
    const answers: Array<(rows: Row[]) => void> = [];
    const actor = createActor(
      list.provide({
        actors: { loadPage: fromPromise(() => new Promise<Row[]>((resolve) => answers.push(resolve))) },
      }),
      { input: { pageSize: 10, query: { search: '' }, rows: rows([1], 30) } },
    ).start();
    expect(actor.getSnapshot().matches('ready')).toBe(true); // came with the page
    actor.send({ type: 'page.select', page: 2 });
    actor.send({ type: 'page.select', page: 3 });
    answers[1](rows([21], 30));
    answers[0](rows([11], 30)); // too late
    await waitFor(actor, (s) => s.matches('ready'));
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual([21]);
    expect(actor.getSnapshot().context.page).toBe(3);
  });

  it('steps back from a page that came back empty (its last row went meanwhile) and says so', async () => {
    let total = 31;
    const load = vi.fn(async ({ page }: { page: number }) =>
      page <= Math.ceil(total / 10) ? rows([page * 10 - 9], total) : [],
    );
    const { actor, ready, shown } = start(load as never);
    await ready();
    actor.send({ type: 'page.select', page: 4 });
    await ready();
    total = 30;
    actor.send({ type: 'list.reload' });
    await waitFor(actor, (s) => s.matches('ready') && load.mock.calls.length === 4);
    expect(load.mock.calls.map(([i]) => i.page)).toEqual([1, 4, 4, 3]);
    expect(shown).toEqual([4, 3]);
    expect(actor.getSnapshot().context.page).toBe(3);
  });

  it('an old address past the end steps back to page 1 when no total is known', async () => {
    const { ready, actor, shown } = start(server(5), {
      input: { pageSize: 10, query: { search: '' }, page: 40 },
    });
    await ready();
    expect(actor.getSnapshot().context.page).toBe(1);
    expect(shown).toEqual([1]);
  });

  it('shows a new query from page 1 and tells the screen; follows an address quietly; ignores the same view', async () => {
    const load = server(40);
    const { actor, ready, ids, shown } = start(load);
    await ready();
    actor.send({ type: 'page.select', page: 3 });
    await ready();
    actor.send({ type: 'list.show', query: { search: '1' } });
    await ready();
    expect(ids()).toEqual([1, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect(actor.getSnapshot().context.page).toBe(1);
    actor.send({ type: 'list.show', query: { search: '1' } }); // what is shown
    actor.send({ type: 'list.follow', query: { search: '' }, page: 2 });
    await ready();
    expect(ids()[0]).toBe(11);
    expect(shown).toEqual([3, 1]);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('replaces a saved row in place, puts a new one first or reloads, and reloads after a removal', async () => {
    const load = server(12);
    const { actor, ready, ids } = start(load);
    await ready();
    actor.send({ type: 'row.saved', row: { id: 2, title: 'Renamed' }, absent: 'reload' });
    expect(actor.getSnapshot().context.rows[1]).toEqual({ id: 2, title: 'Renamed' });
    expect(actor.getSnapshot().context.rows[0].total_count).toBe(12);
    actor.send({ type: 'row.saved', row: { id: 99, title: 'New' }, absent: 'prepend' });
    expect(ids()[0]).toBe(99);
    expect(actor.getSnapshot().context.total).toBe(13);
    expect(load).toHaveBeenCalledTimes(1);
    actor.send({ type: 'row.saved', row: { id: 50, title: 'Elsewhere' }, absent: 'reload' });
    expect(actor.getSnapshot().value).toBe('loading');
    await ready();
    actor.send({ type: 'row.removed', row: { id: 3, title: 'Row 3' } });
    expect(ids()).not.toContain(3);
    await ready();
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('keeps the rows shown after a failure, reads the device copy, and retries', async () => {
    let fail = false;
    const actor = createActor(
      list.provide({
        actors: {
          loadPage: fromPromise(async ({ input }) => {
            if (fail) throw Object.assign(new Error('Bad dates'), { status: 400 });
            return rows([input.page], 20);
          }),
          loadKept: fromPromise(async ({ input }) => ({
            rows: rows([input.page * 100], 20),
            savedAt: '2026-11-01T09:00:00Z',
          })),
        },
      }),
      { input: { pageSize: 10, query: { search: '' } } },
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    fail = true;
    actor.send({ type: 'page.next' });
    await waitFor(actor, (s) => s.matches({ failed: 'settled' }));
    const { context } = actor.getSnapshot();
    expect(context.rows.map((r) => r.id)).toEqual([1]);
    expect(context.kept?.map((r) => r.id)).toEqual([200]);
    expect(context.keptAt).toBe('2026-11-01T09:00:00Z');
    expect(context.loadError).toBe('Bad dates');
    fail = false;
    actor.send({ type: 'list.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ page: 2, loadError: null });
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual([2]);
  });

  it('a page that failed without a connection loads again when the connection is back', async () => {
    let online = false;
    let tell: ((e: { type: 'connection.online' | 'connection.offline' }) => void) | undefined;
    const actor = createActor(
      list.provide({
        actors: {
          loadPage: fromPromise(async ({ input }) => {
            if (!online) throw Object.assign(new Error('Failed to fetch'), { status: 0 });
            return rows([input.page], 20);
          }),
          connectionEvents: fromCallback(({ sendBack }) => {
            tell = sendBack;
          }),
        },
      }),
      { input: { pageSize: 10, query: { search: '' } } },
    ).start();
    await waitFor(actor, (s) => s.matches({ failed: 'settled' }));
    // going offline again changes nothing; back online, the page loads by itself
    tell!({ type: 'connection.offline' });
    expect(actor.getSnapshot().matches('failed')).toBe(true);
    online = true;
    tell!({ type: 'connection.online' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual([1]);
  });

  it('reads the page again quietly when the records change elsewhere: the rows stay shown until the new ones come', async () => {
    let tell: ((event: { type: 'list.changed' }) => void) | undefined;
    const control = controlledActors(['loadPage']);
    const actor = createActor(
      list.provide({
        actors: {
          ...(control.actors as object),
          changeEvents: fromCallback(({ sendBack }) => {
            tell = sendBack;
            return () => {};
          }),
        } as never,
      }),
      { input: { pageSize: 10, query: { search: '' } } },
    ).start();
    control.settle('loadPage', rows([1, 2], 2));
    await flush();
    tell!({ type: 'list.changed' });
    tell!({ type: 'list.changed' }); // a second change meanwhile: one read, started again
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual([1, 2]);
    control.settle('loadPage', rows([2], 1)); // a colleague deleted row 1
    await flush();
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual([2]);
    expect(actor.getSnapshot().context.total).toBe(1);
    // a read that fails keeps what is shown
    tell!({ type: 'list.changed' });
    control.fail('loadPage', new Error('offline'));
    await flush();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual([2]);
  });

  it('never lets a quiet read that began before a save undo it: the read starts again', async () => {
    let tell: ((event: { type: 'list.changed' }) => void) | undefined;
    const reads: Array<(rows: Row[]) => void> = [];
    const actor = createActor(
      list.provide({
        actors: {
          loadPage: fromPromise(() => new Promise<Row[]>((resolve) => reads.push(resolve))),
          changeEvents: fromCallback(({ sendBack }) => {
            tell = sendBack;
            return () => {};
          }),
        } as never,
      }),
      { input: { pageSize: 10, query: { search: '' } } },
    ).start();
    reads[0]!(rows([1, 2], 2));
    await flush();
    tell!({ type: 'list.changed' }); // a colleague changed row 1: a quiet read starts
    expect(reads).toHaveLength(2);
    // my save answers first, with their change and mine merged
    actor.send({ type: 'row.saved', row: { id: 1, title: 'Theirs and mine' }, absent: 'reload' });
    expect(actor.getSnapshot().context.rows[0]!.title).toBe('Theirs and mine');
    expect(reads).toHaveLength(3); // read again, after the save
    reads[1]!([{ id: 1, title: 'Theirs only', total_count: 2 }, { id: 2, title: 'Row 2' }]);
    await flush();
    expect(actor.getSnapshot().context.rows[0]!.title).toBe('Theirs and mine');
    reads[2]!([{ id: 1, title: 'Theirs and mine', total_count: 2 }, { id: 2, title: 'Row 2' }]);
    await flush();
    expect(actor.getSnapshot().matches({ ready: 'shown' })).toBe(true);
    expect(actor.getSnapshot().context.rows.map((r) => r.title)).toEqual(['Theirs and mine', 'Row 2']);
  });

  it('keeps what a load answers besides the rows', async () => {
    const withMeta = pagedList<Row, null, { configured: boolean }>({ keyOf: (r) => r.id });
    const actor = createActor(
      withMeta.provide({
        actors: {
          loadPage: fromPromise(async () => ({ rows: rows([1], 1), meta: { configured: false as boolean } })),
        },
      }),
      { input: { pageSize: 20, query: null } },
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.meta).toEqual({ configured: false });
    expect(actor.getSnapshot().context.total).toBe(1);
  });
});

describe('paged list paths', () => {
  const full = rows([1, 2], 30);
  const events = [
    { type: doneEvent('loadPage'), output: full },
    { type: doneEvent('loadPage'), output: [] },
    { type: errorEvent('loadPage'), error: new Error('offline') },
    { type: doneEvent('loadKept'), output: null },
    { type: 'page.select', page: 3 },
    { type: 'page.next' },
    { type: 'page.previous' },
    { type: 'list.show', query: { search: '1' } },
    { type: 'list.follow', query: { search: '' }, page: 2 },
    { type: 'list.reload' },
    { type: 'list.retry' },
    { type: 'row.saved', row: { id: 9, title: 'New' }, absent: 'prepend' },
    { type: 'row.removed', row: { id: 1, title: 'Row 1' } },
    { type: 'list.changed' },
    { type: doneEvent('refreshPage'), output: full },
    { type: doneEvent('refreshPage'), output: [] },
    { type: errorEvent('refreshPage'), error: new Error('offline') },
  ];
  const model = createPathModel(list, {
    events: events as never,
    input: { pageSize: 10, query: { search: '' } },
    serializeState: (state: { value: unknown; context: { page: number; total: number; query: Query } }) =>
      JSON.stringify([state.value, state.context.page, state.context.total > 0, state.context.query.search]),
  } as never);
  const walk = everyTransition(model, 'paged-list.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(20);
  });

  for (const path of walk.paths) {
    it(`stays on a page that exists, with a load under way exactly while loading: ${path.description}`, async () => {
      const control = controlledActors(['loadPage', 'loadKept']);
      const actor = createActor(list.provide({ actors: control.actors as never }), {
        input: { pageSize: 10, query: { search: '' } },
      }).start();
      const settle =
        (id: 'loadPage' | 'loadKept', ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) control.settle(id, e.output);
          else control.fail(id, e.error);
          await flush();
        };
      const send = ({ event }: { event: unknown }) => actor.send(event as never);
      const ctx = () => actor.getSnapshot().context;
      const pageExists = () => {
        expect(ctx().page).toBeGreaterThanOrEqual(1);
        expect(ctx().page).toBeLessThanOrEqual(Math.max(1, pageCount(ctx().total, ctx().pageSize)));
      };
      await path.test({
        events: {
          ...Object.fromEntries(
            events.filter((e) => !e.type.startsWith('xstate.')).map((e) => [e.type, send]),
          ),
          [doneEvent('loadPage')]: settle('loadPage', true),
          [errorEvent('loadPage')]: settle('loadPage', false),
          [doneEvent('loadKept')]: settle('loadKept', true),
          // the quiet read is a load of the page like any other
          [doneEvent('refreshPage')]: settle('loadPage', true),
          [errorEvent('refreshPage')]: settle('loadPage', false),
        },
        states: {
          loading: () => expect(() => control.lastInput('loadPage')).not.toThrow(),
          'ready.shown': pageExists,
          // the rows stay shown while the page is read again
          'ready.refreshing': () => {
            pageExists();
            expect(() => control.lastInput('loadPage')).not.toThrow();
          },
          'failed.readingKept': () => expect(ctx().kept).toBeNull(),
          'failed.settled': () => expect(ctx().keptAt).toBeNull(),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
