import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { createPathModel, errorEvent, timerEvent, everyTransition } from './testing/test-model';
import {
  SW_UPDATE_DELAYS,
  swUpdateMachine,
  type SwCommand,
  type SwReport,
  type SwUpdateEvent,
} from './sw-update.machine';

/** A fake service worker: the test reports what the worker does and reads what the page asked. */
function fakeWorker() {
  const commands: SwCommand['type'][] = [];
  let report: ((e: SwReport) => void) | null = null;
  const serviceWorker = fromCallback<SwCommand>(({ sendBack, receive }) => {
    report = sendBack as (e: SwReport) => void;
    receive((cmd) => commands.push(cmd.type));
  });
  return {
    serviceWorker,
    commands,
    report: (e: SwReport) => {
      if (!report) throw new Error('the worker actor is not running');
      report(e);
    },
  };
}

function start() {
  const worker = fakeWorker();
  const reloadPage = vi.fn();
  const actor = createActor(
    swUpdateMachine.provide({ actors: { serviceWorker: worker.serviceWorker }, actions: { reloadPage } }),
  ).start();
  const prompt = () => (actor.getSnapshot().value as { prompt: string }).prompt;
  const checks = () => (actor.getSnapshot().value as { checks: string }).checks;
  return { actor, worker, reloadPage, prompt, checks };
}

describe('new versions and the offline note', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows the 'offline ready' note after the first install, for 8 s", () => {
    const { worker, prompt } = start();
    worker.report({ type: 'sw.registered' });
    worker.report({ type: 'sw.offlineReady' });
    expect(prompt()).toBe('offlineReady');
    vi.advanceTimersByTime(SW_UPDATE_DELAYS.offlineReadyDisplay - 1);
    expect(prompt()).toBe('offlineReady');
    vi.advanceTimersByTime(1);
    expect(prompt()).toBe('idle');
  });

  it("shows 'A new version is available' while a new worker waits, and Reload hands over and reloads", () => {
    const { actor, worker, reloadPage, prompt } = start();
    worker.report({ type: 'sw.registered' });
    worker.report({ type: 'sw.updateWaiting' });
    expect(prompt()).toBe('updateAvailable');
    actor.send({ type: 'update.reload' });
    expect(worker.commands).toEqual(['sw.activate']);
    expect(reloadPage).not.toHaveBeenCalled();
    worker.report({ type: 'sw.controlling' });
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('reloads after 4 s even if the new worker never reports that it took over', () => {
    const { actor, worker, reloadPage } = start();
    worker.report({ type: 'sw.updateWaiting' });
    actor.send({ type: 'update.reload' });
    vi.advanceTimersByTime(SW_UPDATE_DELAYS.reloadFallback);
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('Later hides the toast until yet another version waits', () => {
    const { actor, worker, prompt } = start();
    worker.report({ type: 'sw.updateWaiting' });
    actor.send({ type: 'update.dismiss' });
    expect(prompt()).toBe('dismissed');
    worker.report({ type: 'sw.offlineReady' });
    expect(prompt()).toBe('dismissed');
    worker.report({ type: 'sw.updateWaiting' });
    expect(prompt()).toBe('updateAvailable');
  });

  it('a new version replaces the offline note at once', () => {
    const { worker, prompt } = start();
    worker.report({ type: 'sw.offlineReady' });
    worker.report({ type: 'sw.updateWaiting' });
    expect(prompt()).toBe('updateAvailable');
  });

  it('checks for a new version every hour once registered', () => {
    const { worker, checks } = start();
    vi.advanceTimersByTime(3 * SW_UPDATE_DELAYS.updateCheckInterval);
    expect(worker.commands).toEqual([]);
    worker.report({ type: 'sw.registered' });
    expect(checks()).toBe('scheduled');
    vi.advanceTimersByTime(SW_UPDATE_DELAYS.updateCheckInterval - 1);
    expect(worker.commands).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(worker.commands).toEqual(['sw.check']);
    vi.advanceTimersByTime(2 * SW_UPDATE_DELAYS.updateCheckInterval);
    expect(worker.commands).toEqual(['sw.check', 'sw.check', 'sw.check']);
  });

  it('does not check where there is no service worker or registering failed', () => {
    for (const report of [
      { type: 'sw.unsupported' },
      { type: 'sw.failed', error: new Error('SecurityError') },
    ] as SwReport[]) {
      const { worker, checks } = start();
      worker.report(report);
      vi.advanceTimersByTime(2 * SW_UPDATE_DELAYS.updateCheckInterval);
      expect(checks()).toBe('off');
      expect(worker.commands).toEqual([]);
    }
  });

  it('stays quiet when the worker actor itself breaks', () => {
    const actor = createActor(
      swUpdateMachine.provide({
        actors: {
          serviceWorker: fromCallback(() => {
            throw new Error('navigator.serviceWorker is not available');
          }),
        },
      }),
    ).start();
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().value).toEqual({ prompt: 'idle', checks: 'off' });
  });
});

/** Timers fired one by one: in a parallel machine, a path's timer step must not fire the others. */
function manualClock() {
  const timers = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  return {
    clock: {
      setTimeout: (fn: (...args: unknown[]) => void, ms: number) => {
        timers.set(++next, { fn, ms });
        return next;
      },
      clearTimeout: (id: unknown) => {
        timers.delete(id as number);
      },
    },
    fire(ms: number) {
      for (const [id, timer] of timers) {
        if (timer.ms !== ms) continue;
        timers.delete(id);
        timer.fn();
        return;
      }
      throw new Error(`no timer of ${ms} ms is running`);
    },
  };
}

describe('update prompt paths', () => {
  const events = [
    { type: 'sw.registered' },
    { type: 'sw.unsupported' },
    { type: 'sw.failed', error: new Error('x') },
    { type: 'sw.offlineReady' },
    { type: 'sw.updateWaiting' },
    { type: 'sw.controlling' },
    { type: 'update.reload' },
    { type: 'update.dismiss' },
    { type: 'ready.dismiss' },
    { type: timerEvent('offlineReadyDisplay') },
    { type: timerEvent('reloadFallback') },
    { type: timerEvent('updateCheckInterval') },
    { type: errorEvent('serviceWorker'), error: new Error('broken') },
  ];
  // The model has no invoked worker to send commands to; the replay below checks them.
  const model = createPathModel(
    swUpdateMachine.provide({ actions: { checkForUpdate: () => {}, activateUpdate: () => {} } }),
    { events: events as never },
  );
  const walk = everyTransition(model, 'sw-update.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state of both regions', () => {
    const values = paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)]) as {
      prompt: string;
      checks: string;
    }[];
    expect([...new Set(values.map((v) => v.prompt))].sort()).toEqual([
      'dismissed',
      'idle',
      'offlineReady',
      'reloading',
      'updateAvailable',
      'updating',
    ]);
    expect([...new Set(values.map((v) => v.checks))].sort()).toEqual(['off', 'scheduled', 'unregistered']);
  });

  for (const path of paths) {
    it(`shows the right prompt and reloads only on request: ${path.description}`, async () => {
      const time = manualClock();
      const worker = fakeWorker();
      const serviceWorker = worker.serviceWorker;
      const reloadPage = vi.fn();
      const actor = createActor(
        swUpdateMachine.provide({ actors: { serviceWorker }, actions: { reloadPage } }),
        {
          clock: time.clock,
        },
      ).start();
      const send = ({ event }: { event: unknown }) => actor.send(event as SwUpdateEvent);
      const report = ({ event }: { event: unknown }) => worker.report(event as SwReport);
      const advance = (ms: number) => () => time.fire(ms);
      await path.test({
        events: {
          'sw.registered': report,
          'sw.unsupported': report,
          'sw.failed': report,
          'sw.offlineReady': report,
          'sw.updateWaiting': report,
          'sw.controlling': report,
          'update.reload': send,
          'update.dismiss': send,
          'ready.dismiss': send,
          [timerEvent('offlineReadyDisplay')]: advance(SW_UPDATE_DELAYS.offlineReadyDisplay),
          [timerEvent('reloadFallback')]: advance(SW_UPDATE_DELAYS.reloadFallback),
          [timerEvent('updateCheckInterval')]: advance(SW_UPDATE_DELAYS.updateCheckInterval),
          // the callback actor failing: what the machine does with it is the same as sw.failed
          [errorEvent('serviceWorker')]: () => {
            actor.send({ type: errorEvent('serviceWorker'), error: new Error('broken') } as never);
          },
        },
        states: {
          'prompt.idle': () => expect(reloadPage).not.toHaveBeenCalled(),
          'prompt.offlineReady': () => expect(reloadPage).not.toHaveBeenCalled(),
          'prompt.updateAvailable': () => expect(reloadPage).not.toHaveBeenCalled(),
          'prompt.updating': () => expect(worker.commands).toContain('sw.activate'),
          'prompt.reloading': () => expect(reloadPage).toHaveBeenCalledTimes(1),
          'prompt.dismissed': () => expect(reloadPage).not.toHaveBeenCalled(),
        },
      });
      const value = actor.getSnapshot().value as { prompt: string; checks: string };
      expect(value).toEqual(path.state.value);
    });
  }
});
