import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { BlogPostRow } from '../../contract/blog';
import { VersionConflict } from '../../contract/versions';
import { blogManagementMachine, blogPostsList, flipped, type PostSearch } from './blog-management.machine';
import { paginationView, type LoadPageInput } from './paged-list.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
  timerEvent,
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

function setup(pageSize = 10) {
  const ctl = controlledActors(['loadPage', 'saveStatus', 'deletePost']);
  const calls = {
    statusUpdated: [] as BlogPostRow[],
    statusFailed: 0,
    overtaken: [] as (string | null)[],
    deleted: [] as number[],
    deleteFailed: 0,
  };
  const actor = createActor(
    blogManagementMachine.provide({
      actors: {
        list: blogPostsList.provide({ actors: { loadPage: ctl.actors.loadPage as never } }),
        saveStatus: ctl.actors.saveStatus as never,
        deletePost: ctl.actors.deletePost as never,
      },
      actions: {
        notifyStatusUpdated: (_, { row }) => void calls.statusUpdated.push(row),
        notifyStatusFailed: () => void calls.statusFailed++,
        notifyOvertaken: (_, { changedBy }) => void calls.overtaken.push(changedBy),
        notifyDeleted: (_, { post: p }) => void calls.deleted.push(p.blog_id),
        notifyDeleteFailed: () => void calls.deleteFailed++,
      },
    }),
    { input: { pageSize } },
  ).start();
  const list = () => actor.getSnapshot().children.list!;
  const rows = () => list().getSnapshot().context.rows;
  return { actor, ctl, calls, list, rows };
}

describe('blog management', () => {
  it("loads the page again when one of this person's changes made offline was sent", async () => {
    const { actor, ctl, rows } = setup();
    ctl.settle('loadPage', page([12, 11], 2));
    await flush();
    actor.getSnapshot().children.queued!.send({ type: 'queued.sent' });
    // the child tells its parent, which loads the page it shows again
    expect(ctl.lastInput('loadPage')).toEqual({ query: { search: '', status: '' }, page: 1, pageSize: 10 });
    ctl.settle('loadPage', page([13, 12], 2));
    await flush();
    expect(rows().map((r) => r.blog_id)).toEqual([13, 12]);
  });

  it('loads the first page of every post, drafts included, with the pager', async () => {
    const { ctl, list, rows } = setup();
    expect(list().getSnapshot().value).toBe('loading');
    ctl.settle('loadPage', page([12, 11], 25));
    await flush();
    expect(rows().map((r) => r.blog_id)).toEqual([12, 11]);
    expect(paginationView(list().getSnapshot().context)).toMatchObject({ shown: true, pageCount: 3 });
    expect(ctl.lastInput('loadPage')).toEqual({ query: { search: '', status: '' }, page: 1, pageSize: 10 });
  });

  describe('search', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('waits 300 ms after the last keystroke, then loads page 1 of the search once', async () => {
      const { actor, ctl, list } = setup();
      ctl.settle('loadPage', page([9, 8], 40));
      await vi.advanceTimersByTimeAsync(0);
      list().send({ type: 'page.select', page: 3 });
      ctl.settle('loadPage', page([7], 40));
      await vi.advanceTimersByTimeAsync(0);
      for (const text of ['a', 'ar', 'arc ']) {
        actor.send({ type: 'search.change', text });
        await vi.advanceTimersByTimeAsync(200);
      }
      expect(actor.getSnapshot().matches({ search: 'debouncing' })).toBe(true);
      expect(list().getSnapshot().matches('ready')).toBe(true);
      await vi.advanceTimersByTimeAsync(99);
      expect(actor.getSnapshot().matches({ search: 'debouncing' })).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      expect(list().getSnapshot().value).toBe('loading');
      expect(ctl.lastInput('loadPage')).toEqual({
        query: { search: 'arc', status: '' },
        page: 1,
        pageSize: 10,
      });
    });

    it('"Clear Search" loads everything again at once', async () => {
      const { actor, ctl, list } = setup();
      ctl.settle('loadPage', []);
      await vi.advanceTimersByTimeAsync(0);
      actor.send({ type: 'search.change', text: 'zzz' });
      await vi.advanceTimersByTimeAsync(300);
      ctl.settle('loadPage', []);
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().context.search).toBe('zzz');
      actor.send({ type: 'search.clear' });
      expect(list().getSnapshot().value).toBe('loading');
      expect(actor.getSnapshot().context).toMatchObject({ search: '', searchText: '' });
      expect(ctl.lastInput('loadPage')).toMatchObject({ query: { search: '' } });
    });
  });

  it('shows page 1 of one status at once, keeping the search, and every post again', async () => {
    const { actor, ctl, list } = setup();
    ctl.settle('loadPage', page([9, 8], 40));
    await flush();
    list().send({ type: 'page.select', page: 2 });
    ctl.settle('loadPage', page([7], 40));
    await flush();
    actor.send({ type: 'filter.change', status: 'Scheduled' });
    expect(ctl.lastInput('loadPage')).toEqual({
      query: { search: '', status: 'Scheduled' },
      page: 1,
      pageSize: 10,
    });
    ctl.settle('loadPage', page([5], 1));
    await flush();
    actor.send({ type: 'filter.change', status: '' });
    expect(ctl.lastInput('loadPage')).toEqual({ query: { search: '', status: '' }, page: 1, pageSize: 10 });
  });

  it("a Scheduled post's badge makes it a Draft again; a Draft's publishes it", () => {
    expect(flipped('Scheduled')).toBe('Draft');
    expect(flipped('Draft')).toBe('Published');
    expect(flipped('Published')).toBe('Draft');
  });

  it('flips a status, updates the card in place and says "Status Updated"', async () => {
    const { actor, ctl, calls, rows } = setup();
    ctl.settle('loadPage', page([2, 1], 2));
    await flush();
    const target = rows()[1];
    actor.send({ type: 'status.toggle', post: target });
    expect(actor.getSnapshot().matches({ changes: 'toggling' })).toBe(true);
    expect(ctl.lastInput('saveStatus')).toEqual({ post: target, status: 'Draft' });
    ctl.settle('saveStatus', { ...target, status: 'Draft' });
    await flush();
    expect(rows().map((r) => r.status)).toEqual(['Published', 'Draft']);
    expect(rows()[0].total_count).toBe(2);
    expect(calls.statusUpdated).toHaveLength(1);
  });

  it('leaves the card unchanged when the status cannot be saved', async () => {
    const { actor, ctl, calls, rows } = setup();
    ctl.settle('loadPage', page([1], 1));
    await flush();
    actor.send({ type: 'status.toggle', post: rows()[0] });
    ctl.fail('saveStatus', new Error('500'));
    await flush();
    expect(actor.getSnapshot().matches({ changes: 'idle' })).toBe(true);
    expect(rows()[0].status).toBe('Published');
    expect(calls.statusFailed).toBe(1);
  });

  it('a badge that lost a race shows the post as someone else left it, and says who', async () => {
    const { actor, ctl, calls, rows } = setup();
    ctl.settle('loadPage', page([1], 1));
    await flush();
    actor.send({ type: 'status.toggle', post: rows()[0] });
    // a colleague renamed the post and took it offline meanwhile
    const theirs = post(1, { title: 'Renamed by Asha', status: 'Draft', version: 3 });
    ctl.fail(
      'saveStatus',
      new VersionConflict({ current: theirs, changedBy: 'asha@example.com', changedAt: null }),
    );
    await flush();
    expect(actor.getSnapshot().matches({ changes: 'idle' })).toBe(true);
    expect(rows()[0]).toMatchObject({ title: 'Renamed by Asha', status: 'Draft', version: 3 });
    expect(calls.overtaken).toEqual(['asha@example.com']);
    expect(calls.statusFailed).toBe(0);
  });

  it('asks before deleting; Cancel keeps the post, confirming deletes it and reloads', async () => {
    const { actor, ctl, calls, list, rows } = setup();
    ctl.settle('loadPage', page([2, 1], 2));
    await flush();
    actor.send({ type: 'delete.ask', post: rows()[0] });
    expect(actor.getSnapshot().matches({ changes: 'confirmingDelete' })).toBe(true);
    actor.send({ type: 'delete.cancel' });
    expect(actor.getSnapshot().matches({ changes: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.target).toBeNull();
    actor.send({ type: 'delete.ask', post: rows()[0] });
    actor.send({ type: 'delete.confirm' });
    expect(ctl.lastInput('deletePost')).toEqual({ post: rows()[0] });
    ctl.settle('deletePost', { message: 'Blog has been deleted.' });
    await flush();
    expect(calls.deleted).toEqual([2]);
    expect(rows().map((r) => r.blog_id)).toEqual([1]);
    expect(list().getSnapshot().value).toBe('loading');
  });

  it('shows the page before when the last post of the last page is deleted', async () => {
    const { actor, ctl, list, rows } = setup(2);
    ctl.settle('loadPage', page([5, 4], 5));
    await flush();
    list().send({ type: 'page.select', page: 3 });
    ctl.settle('loadPage', page([1], 5));
    await flush();
    actor.send({ type: 'delete.ask', post: rows()[0] });
    actor.send({ type: 'delete.confirm' });
    ctl.settle('deletePost', { message: 'Blog has been deleted.' });
    await flush();
    expect(ctl.lastInput('loadPage')).toMatchObject({ page: 3 });
    ctl.settle('loadPage', []);
    await flush();
    expect(ctl.lastInput('loadPage')).toMatchObject({ page: 2 });
  });

  it('puts an edited post in place, and reloads for a new one', async () => {
    const { actor, ctl, list, rows } = setup();
    ctl.settle('loadPage', page([2, 1], 2));
    await flush();
    actor.send({ type: 'post.saved', row: { ...rows()[1], title: 'Renamed' }, created: false });
    expect(rows()[1].title).toBe('Renamed');
    expect(list().getSnapshot().matches('ready')).toBe(true);
    actor.send({ type: 'post.saved', row: post(3), created: true });
    expect(list().getSnapshot().value).toBe('loading');
  });

  it('a failed first load is retried on the list', async () => {
    const failing = blogManagementMachine.provide({
      actors: {
        list: blogPostsList.provide({
          actors: {
            loadPage: fromPromise<BlogPostRow[], LoadPageInput<PostSearch>>(async () => {
              throw new Error('offline');
            }),
          },
        }),
      },
    });
    const actor = createActor(failing, { input: { pageSize: 10 } }).start();
    await flush();
    await flush();
    expect(actor.getSnapshot().children.list!.getSnapshot().matches({ failed: 'settled' })).toBe(true);
  });

  it('flips Draft and Published', () => {
    expect(flipped('Draft')).toBe('Published');
    expect(flipped('Published')).toBe('Draft');
  });
});

describe('blog management paths', () => {
  const events = [
    { type: 'search.change', text: 'arc' },
    { type: timerEvent('searchDebounce') },
    { type: 'search.clear' },
    { type: 'status.toggle', post: post(1) },
    { type: doneEvent('saveStatus'), output: post(1, { status: 'Draft' }) },
    { type: errorEvent('saveStatus'), error: new Error('500') },
    {
      type: errorEvent('saveStatus'),
      error: new VersionConflict({ current: post(1, { status: 'Draft' }), changedBy: null, changedAt: null }),
    },
    { type: 'delete.ask', post: post(1) },
    { type: 'delete.cancel' },
    { type: 'delete.confirm' },
    { type: doneEvent('deletePost'), output: { message: 'Blog has been deleted.' } },
    { type: errorEvent('deletePost'), error: new Error('500') },
    { type: 'post.saved', row: post(2), created: true },
  ];
  // the model has no list child: what is sent to it is checked by the tests above
  const quiet = { showSearch: () => {}, reloadList: () => {}, putRow: () => {}, removeTarget: () => {} };
  const model = createPathModel(blogManagementMachine.provide({ actions: quiet }), {
    events: events as never,
    input: { pageSize: 10 },
    serializeState: (state: { value: unknown; context: { target: unknown; searchText: string } }) =>
      JSON.stringify([state.value, state.context.target !== null, state.context.searchText]),
  } as never);
  const walk = everyTransition(model, 'blog-management.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(10);
  });

  for (const path of walk.paths) {
    it(`a post is the target exactly while it is being changed: ${path.description}`, async () => {
      vi.useFakeTimers();
      try {
        const { actor, ctl } = setup();
        const settle =
          (id: 'saveStatus' | 'deletePost', ok: boolean) =>
          async ({ event }: { event: unknown }) => {
            const e = event as { output?: unknown; error?: unknown };
            if (ok) ctl.settle(id, e.output);
            else ctl.fail(id, e.error);
            await vi.advanceTimersByTimeAsync(0);
          };
        const send = ({ event }: { event: unknown }) => actor.send(event as never);
        const target = () => actor.getSnapshot().context.target;
        await path.test({
          events: {
            ...Object.fromEntries(
              events
                .filter((e) => !e.type.startsWith('xstate.') && !e.type.startsWith('timer.'))
                .map((e) => [e.type, send]),
            ),
            [timerEvent('searchDebounce')]: () => vi.advanceTimersByTimeAsync(300),
            [doneEvent('saveStatus')]: settle('saveStatus', true),
            [errorEvent('saveStatus')]: settle('saveStatus', false),
            [doneEvent('deletePost')]: settle('deletePost', true),
            [errorEvent('deletePost')]: settle('deletePost', false),
          },
        });
        const changes = (actor.getSnapshot().value as { changes: string }).changes;
        expect(target() !== null).toBe(changes !== 'idle');
        expect(actor.getSnapshot().value).toEqual(path.state.value);
      } finally {
        vi.useRealTimers();
      }
    });
  }
});
