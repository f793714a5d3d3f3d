import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  pageCount,
  pageWindow,
  paginationMachine,
  paginationView,
  type PaginationEvent,
} from './pagination.machine';
import { createPathModel, everyTransition } from './testing/test-model';

function start(input = { pageSize: 10 }) {
  const changes: number[] = [];
  const actor = createActor(
    paginationMachine.provide({ actions: { notifyChange: (_, { page }) => void changes.push(page) } }),
    { input },
  ).start();
  return { actor, changes, view: () => paginationView(actor.getSnapshot().context) };
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
    [9, 10, [6, 7, 8, 9, 10]],
    [10, 10, [6, 7, 8, 9, 10]],
    [1, 0, []],
  ])('page %i of %i shows the buttons %j (at most 5)', (page, count, buttons) => {
    expect(pageWindow(page, count)).toEqual(buttons);
  });
});

describe('pagination', () => {
  it('shows no controls for one page or none', () => {
    const { actor, view } = start();
    expect(actor.getSnapshot().value).toBe('single');
    actor.send({ type: 'total.update', total: 10 });
    expect(view().shown).toBe(false);
    expect(actor.getSnapshot().value).toBe('single');
  });

  it('shows Previous, Next and up to 5 page buttons for more than one page', () => {
    const { actor, view } = start();
    actor.send({ type: 'total.update', total: 95 });
    expect(actor.getSnapshot().value).toBe('multiple');
    expect(view()).toMatchObject({
      shown: true,
      pageCount: 10,
      pages: [1, 2, 3, 4, 5],
      hasPrevious: false,
      hasNext: true,
    });
  });

  it('tells the owner about each page the person chooses, and nothing else', () => {
    const { actor, changes, view } = start();
    actor.send({ type: 'total.update', total: 95 });
    actor.send({ type: 'page.next' });
    actor.send({ type: 'page.select', page: 7 });
    actor.send({ type: 'page.select', page: 7 }); // already there
    actor.send({ type: 'page.select', page: 11 }); // no such page
    actor.send({ type: 'page.select', page: 0 });
    actor.send({ type: 'page.previous' });
    expect(changes).toEqual([2, 7, 6]);
    expect(view().pages).toEqual([4, 5, 6, 7, 8]);
  });

  it('ignores Next on the last page and Previous on the first', () => {
    const { actor, changes } = start();
    actor.send({ type: 'total.update', total: 20 });
    actor.send({ type: 'page.previous' });
    actor.send({ type: 'page.next' });
    actor.send({ type: 'page.next' });
    expect(changes).toEqual([2]);
  });

  it('moves to the last page when the current one no longer exists', () => {
    const { actor, changes, view } = start();
    actor.send({ type: 'total.update', total: 31 });
    actor.send({ type: 'page.select', page: 4 });
    actor.send({ type: 'total.update', total: 30 });
    expect(changes).toEqual([4, 3]);
    expect(view()).toMatchObject({ page: 3, pageCount: 3 });
  });

  it('goes back to page 1 quietly on reset', () => {
    const { actor, changes, view } = start();
    actor.send({ type: 'total.update', total: 50 });
    actor.send({ type: 'page.select', page: 3 });
    actor.send({ type: 'page.reset' });
    expect(view().page).toBe(1);
    expect(changes).toEqual([3]);
  });

  it('starts from its input', () => {
    const { actor, view } = start({ pageSize: 20, page: 2 } as never);
    actor.send({ type: 'total.update', total: 45 });
    expect(view()).toMatchObject({ page: 2, pageCount: 3, shown: true });
  });
});

describe('pagination paths', () => {
  const events: PaginationEvent[] = [
    { type: 'total.update', total: 35 },
    { type: 'total.update', total: 5 },
    { type: 'page.next' },
    { type: 'page.previous' },
    { type: 'page.select', page: 4 },
    { type: 'page.reset' },
  ];
  const model = createPathModel(paginationMachine, { events: events as never });
  const walk = everyTransition(model, 'pagination.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches both states', () => {
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['single', 'multiple']));
  });

  for (const path of paths) {
    it(`keeps the page within the pages that exist: ${path.description}`, async () => {
      const { actor, view } = start();
      await path.test({
        events: Object.fromEntries(
          events.map((e) => [e.type, ({ event }: { event: PaginationEvent }) => actor.send(event)]),
        ),
        states: {
          single: () => expect(view().shown).toBe(false),
          multiple: () => {
            const v = view();
            expect(v.shown).toBe(true);
            expect(v.page).toBeGreaterThanOrEqual(1);
            expect(v.page).toBeLessThanOrEqual(v.pageCount);
            expect(v.pages).toContain(v.page);
          },
        },
      });
    });
  }
});
