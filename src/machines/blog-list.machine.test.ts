import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, type AnyActorRef } from 'xstate';
import type { BlogPostRow } from '../api/contract/blog';
import { blogListMachine, flipped, type BlogListEvent } from './blog-list.machine';
import { paginationView, type PaginationContext } from './pagination.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  timerEvent,
  everyTransition,
} from './testing/test-model';

function post(id: number, over: Partial<BlogPostRow> = {}): BlogPostRow {
  return {
    blog_id: id,
    title: `Post ${id}`,
    excerpt: 'Excerpt',
    content: '<p>Content</p>',
    publication_date: 'August 6, 2025',
    read_time: '5 min read',
    featured_image_url: 'https://example.org/a.png',
    status: 'Published',
    slug: `post-${id}`,
    ...over,
  };
}
const page = (ids: number[], total: number) =>
  ids.map((id, i) => (i === 0 ? post(id, { total_count: total }) : post(id)));

function setup(input: { pageSize: number; initialRows?: BlogPostRow[]; slug?: string } = { pageSize: 10 }) {
  const ctl = controlledActors(['loadPosts', 'saveStatus', 'deletePost', 'loadKeptCopy']);
  const calls = {
    remembered: [] as { page: number; rows: BlogPostRow[] }[],
    failures: 0,
    statusUpdated: [] as BlogPostRow[],
    statusFailed: 0,
    deleted: [] as number[],
    deleteFailed: 0,
  };
  const actor = createActor(
    blogListMachine.provide({
      actors: ctl.actors as never,
      actions: {
        rememberCopy: (_, { rows, page: p }) => void calls.remembered.push({ page: p, rows }),
        reportLoadFailure: () => void calls.failures++,
        notifyStatusUpdated: (_, { row }) => void calls.statusUpdated.push(row),
        notifyStatusFailed: () => void calls.statusFailed++,
        notifyDeleted: (_, { post: p }) => void calls.deleted.push(p.blog_id),
        notifyDeleteFailed: () => void calls.deleteFailed++,
      },
    }),
    { input },
  ).start();
  const pagination = () => actor.getSnapshot().children.pagination as AnyActorRef;
  const pager = () => paginationView(pagination().getSnapshot().context as PaginationContext);
  return { actor, ctl, calls, pagination, pager, ctx: () => actor.getSnapshot().context };
}

describe('blog list', () => {
  it('shows Loading... first, then the posts with the total from the first row', async () => {
    const { actor, ctl, ctx, pager } = setup();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(ctl.lastInput('loadPosts')).toEqual({ search: '', page: 1, pageSize: 10, slug: undefined });
    ctl.settle('loadPosts', page([30, 29, 28], 23));
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(ctx().rows.map((r) => r.blog_id)).toEqual([30, 29, 28]);
    expect(ctx().total).toBe(23);
    expect(pager()).toMatchObject({ shown: true, pageCount: 3, pages: [1, 2, 3] });
  });

  it('is ready and empty when there are no posts (no pagination)', async () => {
    const { actor, ctl, ctx, pager } = setup();
    ctl.settle('loadPosts', []);
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(ctx().rows).toEqual([]);
    expect(pager().shown).toBe(false);
  });

  it('keeps every page for later visits, but not a search', async () => {
    vi.useFakeTimers();
    try {
      const { actor, ctl, calls, pagination } = setup();
      ctl.settle('loadPosts', page([3, 2, 1], 30));
      await vi.advanceTimersByTimeAsync(0);
      pagination().send({ type: 'page.next' });
      await vi.advanceTimersByTimeAsync(0);
      expect(ctl.lastInput('loadPosts')).toMatchObject({ page: 2 });
      ctl.settle('loadPosts', page([9], 30));
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().value).toBe('ready');
      actor.send({ type: 'search.change', text: 'archive' });
      await vi.advanceTimersByTimeAsync(300);
      ctl.settle('loadPosts', page([7], 1));
      await vi.advanceTimersByTimeAsync(0);
      expect(calls.remembered.map(({ page: p, rows }) => [p, rows.map((r) => r.blog_id)])).toEqual([
        [1, [3, 2, 1]],
        [2, [9]],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('on a failed load reports it, keeps what was shown, offers the kept copy and retries', async () => {
    const { actor, ctl, calls, ctx, pagination } = setup();
    ctl.settle('loadPosts', page([5, 4], 15));
    await flush();
    pagination().send({ type: 'page.next' });
    await flush();
    ctl.fail('loadPosts', new Error('offline'));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(calls.failures).toBe(1);
    expect(ctx().rows.map((r) => r.blog_id)).toEqual([5, 4]);
    expect(ctl.lastInput('loadKeptCopy')).toMatchObject({ page: 2, search: '' });
    ctl.settle('loadKeptCopy', { rows: [post(1)], savedAt: '2026-11-20T09:30:00.000Z' });
    await flush();
    expect(ctx().kept?.map((r) => r.blog_id)).toEqual([1]);
    expect(ctx().keptAt).toBe('2026-11-20T09:30:00.000Z');
    actor.send({ type: 'list.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(ctl.lastInput('loadPosts')).toMatchObject({ page: 2 });
  });

  describe('search', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('waits 300 ms after the last keystroke, then loads page 1 of the search once', async () => {
      const { actor, ctl, pagination } = setup();
      ctl.settle('loadPosts', page([9, 8], 40));
      await vi.advanceTimersByTimeAsync(0);
      pagination().send({ type: 'page.select', page: 3 });
      ctl.settle('loadPosts', page([7], 40));
      await vi.advanceTimersByTimeAsync(0);
      for (const text of ['a', 'ar', 'arc']) {
        actor.send({ type: 'search.change', text });
        await vi.advanceTimersByTimeAsync(200);
      }
      expect(actor.getSnapshot().value).toBe('debouncing');
      await vi.advanceTimersByTimeAsync(99);
      expect(actor.getSnapshot().value).toBe('debouncing');
      await vi.advanceTimersByTimeAsync(1);
      expect(actor.getSnapshot().value).toBe('loading');
      expect(ctl.lastInput('loadPosts')).toEqual({ search: 'arc', page: 1, pageSize: 10, slug: undefined });
      expect((pagination().getSnapshot().context as PaginationContext).page).toBe(1);
    });

    it('"Clear Search" loads everything again at once', async () => {
      const { actor, ctl, ctx } = setup();
      ctl.settle('loadPosts', []);
      await vi.advanceTimersByTimeAsync(0);
      actor.send({ type: 'search.change', text: 'zzz' });
      await vi.advanceTimersByTimeAsync(300);
      ctl.settle('loadPosts', []);
      await vi.advanceTimersByTimeAsync(0);
      expect(ctx().search).toBe('zzz');
      actor.send({ type: 'search.clear' });
      expect(actor.getSnapshot().value).toBe('loading');
      expect(ctx()).toMatchObject({ search: '', searchText: '' });
      expect(ctl.lastInput('loadPosts')).toMatchObject({ search: '' });
    });
  });

  it('flips a status, updates the card in place and says "Status Updated"', async () => {
    const { actor, ctl, calls, ctx } = setup();
    ctl.settle('loadPosts', page([2, 1], 2));
    await flush();
    const target = ctx().rows[1];
    actor.send({ type: 'status.toggle', post: target });
    expect(actor.getSnapshot().value).toBe('toggling');
    expect(ctl.lastInput('saveStatus')).toEqual({ post: target, status: 'Draft' });
    ctl.settle('saveStatus', { ...target, status: 'Draft' });
    await flush();
    expect(ctx().rows.map((r) => r.status)).toEqual(['Published', 'Draft']);
    expect(ctx().rows[0].total_count).toBe(2);
    expect(calls.statusUpdated).toHaveLength(1);
  });

  it('leaves the card unchanged when the status cannot be saved', async () => {
    const { actor, ctl, calls, ctx } = setup();
    ctl.settle('loadPosts', page([1], 1));
    await flush();
    actor.send({ type: 'status.toggle', post: ctx().rows[0] });
    ctl.fail('saveStatus', new Error('500'));
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(ctx().rows[0].status).toBe('Published');
    expect(calls.statusFailed).toBe(1);
  });

  it('asks before deleting; Cancel keeps the post, confirming deletes it and reloads', async () => {
    const { actor, ctl, calls, ctx } = setup();
    ctl.settle('loadPosts', page([2, 1], 2));
    await flush();
    actor.send({ type: 'delete.ask', post: ctx().rows[0] });
    expect(actor.getSnapshot().value).toBe('confirmingDelete');
    actor.send({ type: 'delete.cancel' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(ctx().target).toBeNull();
    actor.send({ type: 'delete.ask', post: ctx().rows[0] });
    actor.send({ type: 'delete.confirm' });
    expect(ctl.lastInput('deletePost')).toEqual({ post: ctx().rows[0] });
    ctl.settle('deletePost', { message: 'Blog has been deleted.' });
    await flush();
    expect(calls.deleted).toEqual([2]);
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it('shows the page before when the last post of the last page is gone', async () => {
    const { actor, ctl, pagination, ctx } = setup({ pageSize: 2 });
    ctl.settle('loadPosts', page([5, 4], 5));
    await flush();
    pagination().send({ type: 'page.select', page: 3 });
    ctl.settle('loadPosts', page([1], 5));
    await flush();
    actor.send({ type: 'delete.ask', post: ctx().rows[0] });
    actor.send({ type: 'delete.confirm' });
    ctl.settle('deletePost', { message: 'Blog has been deleted.' });
    await flush();
    expect(ctl.lastInput('loadPosts')).toMatchObject({ page: 3 });
    ctl.settle('loadPosts', []);
    await flush();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(ctl.lastInput('loadPosts')).toMatchObject({ page: 2 });
  });

  it('puts an edited post in place, and reloads for a new one', async () => {
    const { actor, ctl, ctx } = setup();
    ctl.settle('loadPosts', page([2, 1], 2));
    await flush();
    actor.send({ type: 'post.saved', row: { ...ctx().rows[1], title: 'Renamed' }, created: false });
    expect(ctx().rows[1].title).toBe('Renamed');
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'post.saved', row: post(3), created: true });
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it('starts ready with rows rendered on the server (a permalink), without loading', () => {
    const { actor, ctx } = setup({ pageSize: 1, slug: 'post-1', initialRows: [post(1)] });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(ctx().rows).toHaveLength(1);
  });

  it('flips Draft and Published', () => {
    expect(flipped('Draft')).toBe('Published');
    expect(flipped('Published')).toBe('Draft');
  });
});

describe('blog list paths', () => {
  const ROWS = page([3, 2, 1], 3);
  const events = [
    { type: doneEvent('loadPosts'), output: ROWS },
    { type: errorEvent('loadPosts') },
    { type: 'search.change', text: 'letter' },
    { type: timerEvent('searchDebounce') },
    { type: 'search.clear' },
    { type: 'list.retry' },
    { type: 'status.toggle', post: ROWS[0] },
    { type: doneEvent('saveStatus'), output: { ...ROWS[0], status: 'Draft' } },
    { type: errorEvent('saveStatus') },
    { type: 'delete.ask', post: ROWS[0] },
    { type: 'delete.confirm' },
    { type: 'delete.cancel' },
    { type: doneEvent('deletePost') },
    { type: errorEvent('deletePost') },
    { type: 'post.saved', row: { ...ROWS[1], title: 'Renamed' }, created: false },
    { type: 'list.reload' },
    { type: 'page.changed', page: 1 },
  ];
  // the model has no pagination child: the messages to it are checked by the tests above
  const quiet = { tellPagination: () => {}, resetPagination: () => {}, showPreviousPage: () => {} };
  // one path to each state (the context would multiply the states past counting)
  const model = createPathModel(blogListMachine.provide({ actions: quiet }), {
    events: events as never,
    serializeState: (snapshot: { value: unknown }) => JSON.stringify(snapshot.value),
  } as never);
  const walk = everyTransition(model, 'blog-list.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state', () => {
    const reached = new Set(
      paths
        .flatMap((p) => [p.state, ...p.steps.map((step) => step.state)].map((st) => JSON.stringify(st.value)))
        .filter((value) => value !== '"starting"'), // transient: settles into loading or ready at once
    );
    expect(reached).toEqual(
      new Set([
        '"loading"',
        '"ready"',
        '"debouncing"',
        '"failed"',
        '"toggling"',
        '"confirmingDelete"',
        '"deleting"',
      ]),
    );
  });

  for (const path of paths) {
    it(`shows what each state promises: ${path.description}`, async () => {
      vi.useFakeTimers();
      const { actor, ctl, ctx } = setup();
      const send = ({ event }: { event: unknown }) => actor.send(event as BlogListEvent);
      await path.test({
        events: {
          [doneEvent('loadPosts')]: async () => {
            ctl.settle('loadPosts', ROWS);
            await vi.advanceTimersByTimeAsync(0);
          },
          [errorEvent('loadPosts')]: async () => {
            ctl.fail('loadPosts', new Error('down'));
            await vi.advanceTimersByTimeAsync(0);
          },
          [timerEvent('searchDebounce')]: async () => {
            await vi.advanceTimersByTimeAsync(300);
          },
          [doneEvent('saveStatus')]: async () => {
            ctl.settle('saveStatus', { ...ROWS[0], status: 'Draft' });
            await vi.advanceTimersByTimeAsync(0);
          },
          [errorEvent('saveStatus')]: async () => {
            ctl.fail('saveStatus', new Error('down'));
            await vi.advanceTimersByTimeAsync(0);
          },
          [doneEvent('deletePost')]: async () => {
            ctl.settle('deletePost', { message: 'Blog has been deleted.' });
            await vi.advanceTimersByTimeAsync(0);
          },
          [errorEvent('deletePost')]: async () => {
            ctl.fail('deletePost', new Error('down'));
            await vi.advanceTimersByTimeAsync(0);
          },
          'search.change': send,
          'search.clear': send,
          'list.retry': send,
          'status.toggle': send,
          'delete.ask': send,
          'delete.confirm': send,
          'delete.cancel': send,
          'post.saved': send,
          'list.reload': send,
          'page.changed': send,
        },
        states: {
          loading: () => expect(actor.getSnapshot().value).toBe('loading'),
          ready: () => {
            expect(actor.getSnapshot().value).toBe('ready');
            expect(ctx().target).toBeNull();
          },
          debouncing: () => expect(ctx().searchText).toBe('letter'),
          failed: () => expect(actor.getSnapshot().value).toBe('failed'),
          toggling: () => expect(ctx().target?.blog_id).toBe(3),
          confirmingDelete: () => expect(ctx().target?.blog_id).toBe(3),
          deleting: () => expect(ctl.lastInput('deletePost')).toEqual({ post: ctx().target }),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
      vi.useRealTimers();
    });
  }
});
