import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { ContactMessageRow } from '../../contract/admin-messages';
import { VersionConflict } from '../../contract/versions';
import { messagesList, messagesListMachine } from './messages-list.machine';
import { paginationView } from './paged-list.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  timerEvent,
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

function setup(input: { message?: number } = {}) {
  const ctl = controlledActors(['loadPage', 'saveHandled', 'deleteMessage', 'saveAssignee', 'loadAssignees']);
  const calls = {
    failures: 0,
    saved: [] as ContactMessageRow[],
    saveFailed: 0,
    overtaken: [] as (string | null)[],
    deleted: 0,
    deleteFailed: 0,
  };
  const actor = createActor(
    messagesListMachine.provide({
      actors: {
        list: messagesList.provide({
          actors: { loadPage: ctl.actors.loadPage as never },
          actions: { reportFailure: () => void calls.failures++ },
        }),
        saveHandled: ctl.actors.saveHandled as never,
        deleteMessage: ctl.actors.deleteMessage as never,
        saveAssignee: ctl.actors.saveAssignee as never,
        loadAssignees: ctl.actors.loadAssignees as never,
      },
      actions: {
        notifyDeleted: () => void calls.deleted++,
        notifyDeleteFailed: () => void calls.deleteFailed++,
        notifyHandledSaved: (_, { row }) => void calls.saved.push(row),
        notifyHandledFailed: () => void calls.saveFailed++,
        notifyOvertaken: (_, { changedBy }) => void calls.overtaken.push(changedBy),
      },
    }),
    { input: { pageSize: 20, ...input } },
  ).start();
  const list = () => actor.getSnapshot().children.list!;
  const load = async (rows: ContactMessageRow[]) => {
    ctl.settle('loadPage', rows);
    await vi.advanceTimersByTimeAsync(0);
  };
  return {
    actor,
    ctl,
    calls,
    list,
    load,
    rows: () => list().getSnapshot().context.rows,
    pager: () => paginationView(list().getSnapshot().context),
    listState: () => {
      const value = list().getSnapshot().value;
      return typeof value === 'string' ? value : Object.keys(value)[0];
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the Messages screen', () => {
  it('loads the newest page of every message', async () => {
    const { ctl, load, listState, list, pager } = setup();
    expect(listState()).toBe('loading');
    expect(ctl.lastInput('loadPage')).toEqual({
      query: { search: '', show: 'all', assignee: '', message: 0 },
      page: 1,
      pageSize: 20,
    });
    await load(page([30, 29, 28], 43));
    expect(listState()).toBe('ready');
    expect(list().getSnapshot().context.total).toBe(43);
    expect(pager()).toMatchObject({ pageCount: 3, shown: true });
  });

  it("shows one message alone from a notice's link, and every message after 'Show all' or any filter", async () => {
    const { actor, ctl, load } = setup({ message: 12 });
    expect(ctl.lastInput('loadPage')).toMatchObject({ query: { message: 12 }, page: 1 });
    await load(page([12], 1));
    actor.send({ type: 'message.clear' });
    expect(actor.getSnapshot().context.message).toBe(0);
    expect(ctl.lastInput('loadPage')).toMatchObject({
      query: { search: '', show: 'all', assignee: '', message: 0 },
    });
    await load(page([30, 29], 43));
    // a filter changed while one message is shown: the list, filtered
    const again = setup({ message: 12 });
    await again.load(page([12], 1));
    again.actor.send({ type: 'show.change', show: 'open' });
    expect(again.ctl.lastInput('loadPage')).toMatchObject({ query: { show: 'open', message: 0 } });
  });

  it('searches 300 ms after the last keystroke, from page 1', async () => {
    const { actor, ctl, load, list } = setup();
    await load(page([30], 43));
    list().send({ type: 'page.select', page: 2 });
    await load(page([10], 43));
    actor.send({ type: 'search.change', text: 'jat' });
    await vi.advanceTimersByTimeAsync(200);
    actor.send({ type: 'search.change', text: 'jats ' });
    await vi.advanceTimersByTimeAsync(299);
    expect(actor.getSnapshot().matches({ search: 'debouncing' })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(ctl.lastInput('loadPage')).toEqual({
      query: { search: 'jats', show: 'all', assignee: '', message: 0 },
      page: 1,
      pageSize: 20,
    });
    await load(page([5], 1));
    actor.send({ type: 'search.clear' });
    expect(ctl.lastInput('loadPage')).toMatchObject({ query: { search: '' }, page: 1 });
  });

  it('shows open or handled messages only, from page 1', async () => {
    const { actor, ctl, load, list } = setup();
    await load(page([30], 43));
    list().send({ type: 'page.next' });
    await load(page([10], 43));
    actor.send({ type: 'show.change', show: 'open' });
    expect(ctl.lastInput('loadPage')).toMatchObject({ query: { show: 'open' }, page: 1 });
  });

  it('a flag that lost a race shows the message as a colleague left it, and who', async () => {
    const { actor, ctl, load, rows, calls } = setup();
    await load(page([2, 1], 2));
    actor.send({ type: 'handled.toggle', row: rows()[1] });
    ctl.fail(
      'saveHandled',
      new VersionConflict({
        current: message(1, { handled: true, version: 2 }),
        changedBy: 'lena@example.com',
        changedAt: null,
      }),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(rows()[1]).toMatchObject({ handled: true, version: 2 });
    expect(calls.overtaken).toEqual(['lena@example.com']);
    expect(calls.saveFailed).toBe(0);
    expect(actor.getSnapshot().matches({ changes: 'idle' })).toBe(true);
  });

  it('marks a message handled in place and says so; a failure leaves it as it was', async () => {
    const { actor, ctl, load, rows, calls } = setup();
    await load(page([2, 1], 2));
    actor.send({ type: 'handled.toggle', row: rows()[1] });
    expect(actor.getSnapshot().matches({ changes: 'saving' })).toBe(true);
    expect(ctl.lastInput('saveHandled')).toEqual({ messageId: 1, handled: true, version: 1 });
    ctl.settle('saveHandled', message(1, { handled: true }));
    await vi.advanceTimersByTimeAsync(0);
    expect(rows().map((r) => r.handled)).toEqual([false, true]);
    expect(rows()[0].total_count).toBe(2);
    expect(calls.saved).toHaveLength(1);
    actor.send({ type: 'handled.toggle', row: rows()[1] });
    expect(ctl.lastInput('saveHandled')).toEqual({ messageId: 1, handled: false, version: 1 });
    ctl.fail('saveHandled', new Error('down'));
    await vi.advanceTimersByTimeAsync(0);
    expect(rows()[1].handled).toBe(true);
    expect(calls.saveFailed).toBe(1);
    expect(actor.getSnapshot().matches({ changes: 'idle' })).toBe(true);
  });

  it('asks before deleting a message; Cancel keeps it, Delete removes it and reloads the page', async () => {
    const { actor, ctl, load, rows, calls, listState } = setup();
    await load(page([3, 2, 1], 3));
    actor.send({ type: 'delete.ask', row: rows()[1] });
    expect(actor.getSnapshot().matches({ changes: 'confirmingDelete' })).toBe(true);
    expect(actor.getSnapshot().context.target?.message_id).toBe(2);
    actor.send({ type: 'handled.toggle', row: rows()[0] }); // the question is open: nothing else starts
    expect(actor.getSnapshot().matches({ changes: 'confirmingDelete' })).toBe(true);
    actor.send({ type: 'delete.cancel' });
    expect(actor.getSnapshot().matches({ changes: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.target).toBeNull();

    actor.send({ type: 'delete.ask', row: rows()[1] });
    actor.send({ type: 'delete.confirm' });
    expect(actor.getSnapshot().matches({ changes: 'deleting' })).toBe(true);
    expect(ctl.lastInput('deleteMessage')).toEqual({ messageId: 2 });
    ctl.settle('deleteMessage', { message: 'Message deleted' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.deleted).toBe(1);
    expect(listState()).toBe('loading'); // the page again, without it
    await load(page([3, 1], 2));
    expect(rows().map((r) => r.message_id)).toEqual([3, 1]);
    expect(actor.getSnapshot().context.target).toBeNull();
  });

  it('a failed deletion leaves the message where it was; one a colleague deleted meanwhile is gone', async () => {
    const { actor, ctl, load, rows, calls, listState } = setup();
    await load(page([3, 2, 1], 3));
    actor.send({ type: 'delete.ask', row: rows()[0] });
    actor.send({ type: 'delete.confirm' });
    ctl.fail('deleteMessage', Object.assign(new Error('down'), { status: 503 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.deleteFailed).toBe(1);
    expect(listState()).toBe('ready');
    expect(rows()).toHaveLength(3);
    actor.send({ type: 'delete.ask', row: rows()[0] });
    actor.send({ type: 'delete.confirm' });
    ctl.fail('deleteMessage', Object.assign(new Error('Message not found'), { status: 404 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.deleted).toBe(1);
    expect(listState()).toBe('loading');
  });

  it('fails visibly and retries', async () => {
    const { ctl, list, listState, calls } = setup();
    ctl.fail('loadPage', new Error('down'));
    await vi.advanceTimersByTimeAsync(0);
    expect(list().getSnapshot().matches('failed')).toBe(true);
    expect(calls.failures).toBe(1);
    list().send({ type: 'list.retry' });
    expect(listState()).toBe('loading');
  });
});

describe('Messages paths', () => {
  const events = [
    { type: 'search.change', text: 'jats' },
    { type: timerEvent('searchDebounce') },
    { type: 'search.clear' },
    { type: 'show.change', show: 'open' },
    { type: 'handled.toggle', row: message(1) },
    { type: doneEvent('saveHandled'), output: message(1, { handled: true }) },
    { type: errorEvent('saveHandled'), error: new Error('down') },
    { type: 'delete.ask', row: message(2) },
    { type: 'delete.cancel' },
    { type: 'delete.confirm' },
    { type: doneEvent('deleteMessage'), output: { message: 'Message deleted' } },
    { type: errorEvent('deleteMessage'), error: new Error('down') },
    { type: 'assignee.filter', assignee: 'me' },
    { type: 'message.clear' },
    { type: 'assignee.change', row: message(3), userId: 5 },
    { type: doneEvent('saveAssignee'), output: message(3, { assignee_id: 5, assignee: 'Ravi' }) },
    { type: errorEvent('saveAssignee'), error: new Error('down') },
    { type: doneEvent('loadAssignees'), output: [{ user_id: 5, name: 'Ravi' }] },
    { type: errorEvent('loadAssignees'), error: new Error('down') },
  ];
  // the model has no list child: what is sent to it is checked by the tests above
  const quiet = { showQuery: () => {}, putRow: () => {}, reloadList: () => {} };
  const model = createPathModel(messagesListMachine.provide({ actions: quiet }), {
    events: events as never,
    input: { pageSize: 20 },
    serializeState: (state: {
      value: unknown;
      context: { target: unknown; searchText: string; show: string; assignee: string };
    }) =>
      JSON.stringify([
        state.value,
        state.context.target !== null,
        state.context.searchText,
        state.context.show,
        state.context.assignee,
      ]),
  } as never);
  const walk = everyTransition(model, 'messages-list.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(8);
  });

  for (const path of walk.paths) {
    it(`a message is the target exactly while its flag or assignee is saved or it is deleted: ${path.description}`, async () => {
      const { actor, ctl } = setup();
      const settle =
        (name: 'saveHandled' | 'deleteMessage' | 'saveAssignee' | 'loadAssignees', ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) ctl.settle(name, e.output);
          else ctl.fail(name, e.error);
          await vi.advanceTimersByTimeAsync(0);
        };
      const send = ({ event }: { event: unknown }) => actor.send(event as never);
      await path.test({
        events: {
          ...Object.fromEntries(
            events
              .filter((e) => !e.type.startsWith('xstate.') && !e.type.startsWith('timer.'))
              .map((e) => [e.type, send]),
          ),
          [timerEvent('searchDebounce')]: () => vi.advanceTimersByTimeAsync(300),
          [doneEvent('saveHandled')]: settle('saveHandled', true),
          [errorEvent('saveHandled')]: settle('saveHandled', false),
          [doneEvent('deleteMessage')]: settle('deleteMessage', true),
          [errorEvent('deleteMessage')]: settle('deleteMessage', false),
          [doneEvent('saveAssignee')]: settle('saveAssignee', true),
          [errorEvent('saveAssignee')]: settle('saveAssignee', false),
          [doneEvent('loadAssignees')]: settle('loadAssignees', true),
          [errorEvent('loadAssignees')]: settle('loadAssignees', false),
        },
      });
      const changes = (actor.getSnapshot().value as { changes: string }).changes;

      expect(actor.getSnapshot().context.target !== null).toBe(changes !== 'idle');
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
