import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  everyTransition,
} from './testing/test-model';
import { outboxMachine, type OutboxEntry, type OutboxEvent } from './outbox.machine';

const entry = (id: string, label: string, status: OutboxEntry['status'] = 'waiting'): OutboxEntry => ({
  id,
  kind: 'contact',
  label,
  status,
  createdAt: 1_700_000_000_000,
});

/** What the list shows: 'Waiting to send' entries, or nothing. */
const screenOf = (entries: OutboxEntry[]) => entries.map((e) => `${e.label}: ${e.status}`);

describe("the 'Waiting to send' list", () => {
  it('shows the kept entries once read, and nothing while there are none', async () => {
    const actor = createActor(
      outboxMachine.provide({ actors: { loadEntries: fromPromise(async () => [entry('a', 'Asha')]) } }),
    ).start();
    expect(screenOf(actor.getSnapshot().context.entries)).toEqual([]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(screenOf(actor.getSnapshot().context.entries)).toEqual(['Asha: waiting']);
  });

  it('reads the list again when the queue changes anywhere (another tab, the worker)', async () => {
    let notify!: () => void;
    const lists = [[entry('a', 'Asha')], []];
    const actor = createActor(
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise(async () => lists.shift() ?? []),
          outboxEvents: fromCallback(({ sendBack }) => {
            notify = () => sendBack({ type: 'outbox.changed' });
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    notify();
    await flush();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.entries).toEqual([]);
  });

  it('Cancel removes the entry and says so', async () => {
    const cancelled: string[] = [];
    const notices: string[] = [];
    let list = [entry('a', 'Asha'), entry('b', 'Ben')];
    const actor = createActor(
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise(async () => list),
          cancelEntry: fromPromise(async ({ input }: { input: { id: string } }) => {
            cancelled.push(input.id);
            list = list.filter((e) => e.id !== input.id);
            return true;
          }),
        },
        actions: { notifyCancelled: () => notices.push('Cancelled. It will not be sent.') },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'item.cancel', id: 'a' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(cancelled).toEqual(['a']);
    expect(notices).toEqual(['Cancelled. It will not be sent.']);
    expect(screenOf(actor.getSnapshot().context.entries)).toEqual(['Ben: waiting']);
  });

  it('takes Cancel while the list is being read again', async () => {
    const cancel = vi.fn(async () => true);
    let release!: () => void;
    const actor = createActor(
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise(
            () => new Promise<OutboxEntry[]>((resolve) => (release = () => resolve([]))),
          ),
          cancelEntry: fromPromise(cancel),
        },
      }),
    ).start();
    actor.send({ type: 'item.cancel', id: 'a' });
    expect(actor.getSnapshot().value).toBe('cancelling');
    await flush();
    expect(cancel).toHaveBeenCalledTimes(1);
    release();
  });

  it('says an entry being sent right now cannot be cancelled', async () => {
    const notices: string[] = [];
    const actor = createActor(
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise(async () => [entry('a', 'Asha', 'sending')]),
          cancelEntry: fromPromise(async () => false),
        },
        actions: { notifyInFlight: () => notices.push('in flight') },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'item.cancel', id: 'a' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(notices).toEqual(['in flight']);
    expect(screenOf(actor.getSnapshot().context.entries)).toEqual(['Asha: sending']);
  });

  it('shows nothing when this browser cannot read the queue', async () => {
    const actor = createActor(
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise<OutboxEntry[]>(async () => {
            throw new Error('IndexedDB is blocked');
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('unavailable'));
    expect(actor.getSnapshot().context.entries).toEqual([]);
  });
});

describe("'Waiting to send' paths", () => {
  const rows = [entry('a', 'Asha')];
  const events = [
    { type: doneEvent('loadEntries'), output: rows },
    { type: errorEvent('loadEntries'), error: new Error('blocked') },
    { type: doneEvent('cancelEntry'), output: true },
    { type: doneEvent('cancelEntry'), output: false },
    { type: errorEvent('cancelEntry'), error: new Error('closing') },
    { type: 'outbox.changed' },
    { type: 'item.cancel', id: 'a' },
  ];
  const model = createPathModel(outboxMachine, { events: events as never });
  const walk = everyTransition(model, 'outbox.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('visits every state', () => {
    const visited = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)]));
    expect([...visited].sort()).toEqual(['cancelling', 'loading', 'ready', 'unavailable']);
  });

  for (const path of paths) {
    it(`lists what is kept and cancels on request: ${path.description}`, async () => {
      const effects = controlledActors(['loadEntries', 'cancelEntry']);
      const notices: string[] = [];
      const actor = createActor(
        outboxMachine.provide({
          actors: effects.actors as never,
          actions: {
            notifyCancelled: () => notices.push('cancelled'),
            notifyInFlight: () => notices.push('in flight'),
            notifyCancelFailed: () => notices.push('failed'),
          },
        }),
      ).start();
      const outcome =
        (kind: 'settle' | 'fail', id: 'loadEntries' | 'cancelEntry') =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (kind === 'settle') effects.settle(id, e.output);
          else effects.fail(id, e.error);
          await flush();
        };
      await path.test({
        events: {
          [doneEvent('loadEntries')]: outcome('settle', 'loadEntries'),
          [errorEvent('loadEntries')]: outcome('fail', 'loadEntries'),
          [doneEvent('cancelEntry')]: outcome('settle', 'cancelEntry'),
          [errorEvent('cancelEntry')]: outcome('fail', 'cancelEntry'),
          'outbox.changed': ({ event }) => actor.send(event as OutboxEvent),
          'item.cancel': ({ event }) => actor.send(event as OutboxEvent),
        },
        states: {
          loading: () => expect(actor.getSnapshot().children.loadEntries).toBeDefined(),
          ready: () => expect(screenOf(actor.getSnapshot().context.entries)).toEqual(['Asha: waiting']),
          cancelling: () => expect(effects.lastInput('cancelEntry')).toEqual({ id: 'a' }),
          unavailable: () => expect(actor.getSnapshot().children.loadEntries).toBeUndefined(),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
