import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, type AnyActorRef } from 'xstate';
import type { ContactMessageRow } from '../api/contract/admin-messages';
import { messagesListMachine, type MessagesListEvent } from './messages-list.machine';
import { paginationView, type PaginationContext } from './pagination.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  timerEvent,
  everyTransition,
} from './testing/test-model';

function message(id: number, over: Partial<ContactMessageRow> = {}): ContactMessageRow {
  return {
    message_id: id,
    name: `Sender ${id}`,
    email: `s${id}@example.com`,
    company: '',
    message: 'Hello',
    lang: 'en',
    handled: false,
    created_at: '2025-05-01T08:00:00.000Z',
    ...over,
  };
}
const page = (ids: number[], total: number) =>
  ids.map((id, i) => (i === 0 ? message(id, { total_count: total }) : message(id)));

function setup() {
  const ctl = controlledActors(['loadMessages', 'saveHandled']);
  const calls = { failures: 0, saved: [] as ContactMessageRow[], saveFailed: 0 };
  const actor = createActor(
    messagesListMachine.provide({
      actors: ctl.actors as never,
      actions: {
        reportLoadFailure: () => void calls.failures++,
        notifyHandledSaved: (_, { row }) => void calls.saved.push(row),
        notifyHandledFailed: () => void calls.saveFailed++,
      },
    }),
    { input: { pageSize: 20 } },
  ).start();
  const pagination = () => actor.getSnapshot().children.pagination as AnyActorRef;
  const pager = () => paginationView(pagination().getSnapshot().context as PaginationContext);
  const load = async (rows: ContactMessageRow[]) => {
    ctl.settle('loadMessages', rows);
    await vi.advanceTimersByTimeAsync(0);
  };
  return {
    actor,
    ctl,
    calls,
    pagination,
    pager,
    load,
    value: () => actor.getSnapshot().value,
    ctx: () => actor.getSnapshot().context,
  };
}

afterEach(() => vi.useRealTimers());

describe('the Messages screen', () => {
  it('loads the newest page of every message', async () => {
    vi.useFakeTimers();
    const { ctl, load, value, ctx, pager } = setup();
    expect(value()).toBe('loading');
    expect(ctl.lastInput('loadMessages')).toEqual({ search: '', page: 1, pageSize: 20, show: 'all' });
    await load(page([30, 29, 28], 43));
    expect(value()).toBe('ready');
    expect(ctx().total).toBe(43);
    expect(pager()).toMatchObject({ pageCount: 3, shown: true });
  });

  it('searches 300 ms after the last keystroke, from page 1', async () => {
    vi.useFakeTimers();
    const { actor, ctl, load, value, pagination } = setup();
    await load(page([30], 43));
    pagination().send({ type: 'page.select', page: 2 });
    await load(page([10], 43));
    actor.send({ type: 'search.change', text: 'jat' });
    await vi.advanceTimersByTimeAsync(200);
    actor.send({ type: 'search.change', text: 'jats ' });
    await vi.advanceTimersByTimeAsync(299);
    expect(value()).toBe('debouncing');
    await vi.advanceTimersByTimeAsync(1);
    expect(ctl.lastInput('loadMessages')).toEqual({ search: 'jats', page: 1, pageSize: 20, show: 'all' });
    actor.send({ type: 'search.clear' });
    expect(ctl.lastInput('loadMessages')).toMatchObject({ search: '', page: 1 });
  });

  it('shows open or handled messages only, from page 1', async () => {
    vi.useFakeTimers();
    const { actor, ctl, load } = setup();
    await load(page([30], 43));
    actor.send({ type: 'show.change', show: 'open' });
    expect(ctl.lastInput('loadMessages')).toMatchObject({ show: 'open', page: 1 });
  });

  it('goes through the pages with the shared pagination', async () => {
    vi.useFakeTimers();
    const { ctl, load, pagination, pager } = setup();
    await load(page([30], 43));
    pagination().send({ type: 'page.next' });
    expect(ctl.lastInput('loadMessages')).toMatchObject({ page: 2 });
    await load(page([10], 43));
    expect(pager()).toMatchObject({ page: 2, hasPrevious: true, hasNext: true });
  });

  it('marks a message handled in place and says so; a failure leaves it as it was', async () => {
    vi.useFakeTimers();
    const { actor, ctl, load, ctx, calls, value } = setup();
    await load(page([2, 1], 2));
    actor.send({ type: 'handled.toggle', row: ctx().rows[1] });
    expect(value()).toBe('saving');
    expect(ctl.lastInput('saveHandled')).toEqual({ messageId: 1, handled: true });
    ctl.settle('saveHandled', message(1, { handled: true }));
    await vi.advanceTimersByTimeAsync(0);
    expect(ctx().rows.map((r) => r.handled)).toEqual([false, true]);
    expect(ctx().rows[0].total_count).toBe(2);
    expect(calls.saved).toHaveLength(1);
    actor.send({ type: 'handled.toggle', row: ctx().rows[1] });
    expect(ctl.lastInput('saveHandled')).toEqual({ messageId: 1, handled: false });
    ctl.fail('saveHandled', new Error('down'));
    await vi.advanceTimersByTimeAsync(0);
    expect(ctx().rows[1].handled).toBe(true);
    expect(calls.saveFailed).toBe(1);
    expect(value()).toBe('ready');
  });

  it('fails visibly and retries', async () => {
    vi.useFakeTimers();
    const { actor, ctl, value, calls } = setup();
    ctl.fail('loadMessages', new Error('down'));
    await vi.advanceTimersByTimeAsync(0);
    expect(value()).toBe('failed');
    expect(calls.failures).toBe(1);
    actor.send({ type: 'list.retry' });
    expect(value()).toBe('loading');
  });
});

describe('Messages paths', () => {
  const ROWS = page([2, 1], 2);
  const events = [
    { type: doneEvent('loadMessages'), output: ROWS },
    { type: errorEvent('loadMessages') },
    { type: 'search.change', text: 'acme' },
    { type: timerEvent('searchDebounce') },
    { type: 'search.clear' },
    { type: 'show.change', show: 'handled' },
    { type: 'list.retry' },
    { type: 'handled.toggle', row: ROWS[1] },
    { type: doneEvent('saveHandled'), output: { ...ROWS[1], handled: true } },
    { type: errorEvent('saveHandled') },
  ];
  // the model has no pagination child: the messages to it are checked by the tests above
  const quiet = { tellPagination: () => {}, resetPagination: () => {} };
  const model = createPathModel(messagesListMachine.provide({ actions: quiet }), {
    events: events as never,
    input: { pageSize: 20 },
    serializeState: (state: { value: unknown; context: { search: string; show: string } }) =>
      JSON.stringify([state.value, state.context.search, state.context.show]),
  } as never);
  const walk = everyTransition(model, 'messages-list.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state', () => {
    const seen = new Set(
      paths
        .flatMap((p) => [...p.steps.map((s) => s.state.value), p.state.value])
        .map((v) => JSON.stringify(v)),
    );
    expect(seen).toEqual(new Set(['"loading"', '"ready"', '"failed"', '"debouncing"', '"saving"']));
  });

  for (const path of paths) {
    it(`shows what each state promises: ${path.description}`, async () => {
      vi.useFakeTimers();
      const { actor, ctl, ctx } = setup();
      const send = ({ event }: { event: unknown }) => actor.send(event as MessagesListEvent);
      await path.test({
        events: {
          [doneEvent('loadMessages')]: async () => {
            ctl.settle('loadMessages', ROWS);
            await vi.advanceTimersByTimeAsync(0);
          },
          [errorEvent('loadMessages')]: async () => {
            ctl.fail('loadMessages', new Error('down'));
            await vi.advanceTimersByTimeAsync(0);
          },
          [timerEvent('searchDebounce')]: async () => {
            await vi.advanceTimersByTimeAsync(300);
          },
          [doneEvent('saveHandled')]: async () => {
            ctl.settle('saveHandled', { ...ROWS[1], handled: true });
            await vi.advanceTimersByTimeAsync(0);
          },
          [errorEvent('saveHandled')]: async () => {
            ctl.fail('saveHandled', new Error('down'));
            await vi.advanceTimersByTimeAsync(0);
          },
          'search.change': send,
          'search.clear': send,
          'show.change': send,
          'list.retry': send,
          'handled.toggle': send,
        },
        states: {
          loading: () =>
            expect(ctl.lastInput('loadMessages')).toMatchObject({ search: ctx().search, show: ctx().show }),
          debouncing: () => expect(ctx().searchText).toBe('acme'),
          ready: () => expect(ctx().rows).toHaveLength(2),
          saving: () => expect(ctx().target?.message_id).toBe(1),
          failed: () => expect(ctx().target).toBeNull(),
        },
      });
      vi.useRealTimers();
    });
  }
});
