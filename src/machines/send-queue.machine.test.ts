import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  timerEvent,
} from './testing/test-model';
import { RETRY_DELAYS_MS, sendQueueMachine, type SendQueueEvent } from './send-queue.machine';
import type { FlushResult } from '../offline/send-queue';

const done = (remaining: number): FlushResult => ({ sent: 1, rejected: 0, remaining });

function start(overrides: { pending?: number; flushes?: FlushResult[]; offline?: () => boolean } = {}) {
  const flushes = [...(overrides.flushes ?? [done(0)])];
  const flushQueue = vi.fn(async () => flushes.shift() ?? done(0));
  const actor = createActor(
    sendQueueMachine.provide({
      actors: {
        countPending: fromPromise(async () => overrides.pending ?? 0),
        flushQueue: fromPromise(flushQueue),
      },
      guards: { isOffline: overrides.offline ?? (() => false) },
    }),
  ).start();
  return { actor, flushQueue };
}

describe('sending what the queue keeps', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends what was kept from an earlier visit as soon as the app starts', async () => {
    const { actor, flushQueue } = start({ pending: 2 });
    await vi.advanceTimersByTimeAsync(0);
    expect(flushQueue).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('does nothing on start when nothing waits', async () => {
    const { actor, flushQueue } = start({ pending: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(flushQueue).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('sends at once when a form adds an entry', async () => {
    const { actor, flushQueue } = start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'queue.added' });
    await vi.advanceTimersByTimeAsync(0);
    expect(flushQueue).toHaveBeenCalledTimes(1);
  });

  it('tries again after 5 s, 15 s, 30 s while the server cannot be reached', async () => {
    const { actor, flushQueue } = start({ pending: 1, flushes: [done(1), done(1), done(1), done(0)] });
    await vi.advanceTimersByTimeAsync(0);
    expect(flushQueue).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('waiting');
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0] - 1);
    expect(flushQueue).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(flushQueue).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[1]);
    expect(flushQueue).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[2]);
    expect(flushQueue).toHaveBeenCalledTimes(4);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('waits for the connection instead of retrying while the browser is offline', async () => {
    let offline = true;
    const { actor, flushQueue } = start({ pending: 1, flushes: [done(1), done(0)], offline: () => offline });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('offline');
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(flushQueue).toHaveBeenCalledTimes(1);
    offline = false;
    actor.send({ type: 'connection.online' });
    await vi.advanceTimersByTimeAsync(0);
    expect(flushQueue).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('sends at once when the connection comes back, without waiting out the pause', async () => {
    const { actor, flushQueue } = start({ pending: 1, flushes: [done(1), done(1), done(1), done(0)] });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0] + RETRY_DELAYS_MS[1]);
    expect(actor.getSnapshot().context.attempt).toBe(3);
    actor.send({ type: 'connection.online' });
    await vi.advanceTimersByTimeAsync(0);
    expect(flushQueue).toHaveBeenCalledTimes(4);
    expect(actor.getSnapshot().context.attempt).toBe(0);
  });

  it('keeps trying when reading the queue fails in the middle of a send', async () => {
    const actor = createActor(
      sendQueueMachine.provide({
        actors: {
          countPending: fromPromise(async () => 1),
          flushQueue: fromPromise<FlushResult>(async () => {
            throw new Error('IndexedDB is closing');
          }),
        },
        guards: { isOffline: () => false },
      }),
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context.attempt).toBe(1);
  });
});

describe('send queue paths', () => {
  const events = [
    { type: doneEvent('countPending'), output: 1 },
    { type: doneEvent('countPending'), output: 0 },
    { type: errorEvent('countPending'), error: new Error('no IndexedDB') },
    { type: doneEvent('flushQueue'), output: done(0) },
    { type: doneEvent('flushQueue'), output: done(1) },
    { type: errorEvent('flushQueue'), error: new Error('closed') },
    { type: timerEvent('retryDelay') },
    { type: 'queue.added' },
    { type: 'connection.online' },
    { type: 'connection.offline' },
    {
      type: 'queue.sent',
      kind: 'contact',
      label: 'Message from Asha',
      message: 'Your message has been sent.',
    },
    { type: 'queue.refused', kind: 'application', label: 'Application for: Copy Editor', message: 'Refused' },
  ];
  // The retry count grows without bound: states are told apart by their value alone.
  const model = createPathModel(sendQueueMachine.provide({ guards: { isOffline: () => false } }), {
    events: events as never,
    serializeState: (state) => JSON.stringify(state.value),
  });
  const walk = everyTransition(model, 'send-queue.machine', events);
  const paths = walk.paths;

  it('walks every transition of every state', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    const reached = new Set(
      paths.flatMap((p) => [p.state.value, ...p.steps.map((step) => step.state.value)]),
    );
    expect([...reached].sort()).toEqual(['checking', 'idle', 'offline', 'sending', 'waiting']);
    // a retry, a new entry and the connection coming back are all walked, from every state that takes them
    const taken = new Set(paths.flatMap((p) => p.steps.map((step) => step.event.type)));
    for (const type of [
      timerEvent('retryDelay'),
      'queue.added',
      'connection.online',
      errorEvent('flushQueue'),
    ])
      expect(taken).toContain(type);
  });

  for (const path of paths) {
    it(`tries to send exactly when something waits: ${path.description}`, async () => {
      vi.useFakeTimers();
      const control = controlledActors(['countPending', 'flushQueue']);
      const notices: string[] = [];
      const actor = createActor(
        sendQueueMachine.provide({
          actors: control.actors as never,
          guards: { isOffline: () => false },
          actions: {
            notifySent: (_, notice: { label: string }) => void notices.push(`sent: ${notice.label}`),
            notifyRefused: (_, notice: { label: string }) => void notices.push(`refused: ${notice.label}`),
          },
        }),
      ).start();
      /** A sent or refused entry is told to the page whatever the queue is doing. */
      const notice = ({ event }: { event: { type: string; label?: string } }) => {
        const before = notices.length;
        actor.send(event as SendQueueEvent);
        expect(notices.slice(before)).toEqual([
          `${event.type === 'queue.sent' ? 'sent' : 'refused'}: ${event.label}`,
        ]);
      };
      const outcome =
        (kind: 'settle' | 'fail', id: 'countPending' | 'flushQueue') =>
        async ({ event }: { event: { output?: unknown; error?: unknown } }) => {
          if (kind === 'settle') control.settle(id, event.output);
          else control.fail(id, event.error);
          await vi.advanceTimersByTimeAsync(0);
        };
      await path.test({
        events: {
          [doneEvent('countPending')]: outcome('settle', 'countPending'),
          [errorEvent('countPending')]: outcome('fail', 'countPending'),
          [doneEvent('flushQueue')]: outcome('settle', 'flushQueue'),
          [errorEvent('flushQueue')]: outcome('fail', 'flushQueue'),
          [timerEvent('retryDelay')]: async () => {
            await vi.advanceTimersByTimeAsync(Math.max(...RETRY_DELAYS_MS));
          },
          'queue.added': ({ event }) => actor.send(event as SendQueueEvent),
          'connection.online': ({ event }) => actor.send(event as SendQueueEvent),
          'connection.offline': ({ event }) => actor.send(event as SendQueueEvent),
          'queue.sent': notice,
          'queue.refused': notice,
        },
        states: {
          checking: () => expect(actor.getSnapshot().children.countPending).toBeDefined(),
          idle: () => expect(actor.getSnapshot().context.attempt).toBe(0),
          sending: () => expect(actor.getSnapshot().children.flushQueue).toBeDefined(),
          waiting: () => {
            expect(actor.getSnapshot().context.attempt).toBeGreaterThan(0);
            expect(actor.getSnapshot().children.flushQueue).toBeUndefined();
          },
          offline: () => expect(actor.getSnapshot().children.flushQueue).toBeUndefined(),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
      vi.useRealTimers();
    });
  }
});
