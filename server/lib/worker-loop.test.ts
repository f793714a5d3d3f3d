import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { workerLoop } from './worker-loop';

/** A loop whose rounds are counted and, while `hold` is set, wait until released. */
function counted(o: { startOnPoke?: boolean } = {}) {
  let rounds = 0;
  let release: (() => void) | undefined;
  let hold = false;
  const loop = workerLoop({
    pollMs: 1000,
    onError: () => {},
    ...o,
    round: () => {
      rounds++;
      return hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    },
  });
  return {
    loop,
    rounds: () => rounds,
    hold: () => (hold = true),
    release: () => {
      hold = false;
      release?.();
    },
  };
}

describe('a queue sender loop', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs a round at start and every poll, and one more round for pokes during a round', async () => {
    const w = counted();
    w.loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.rounds()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(w.rounds()).toBe(2);
    w.hold();
    await vi.advanceTimersByTimeAsync(1000);
    expect(w.rounds()).toBe(3);
    w.loop.poke();
    w.loop.poke(); // two pokes while busy: one more round, not two
    w.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.rounds()).toBe(4);
    await w.loop.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(w.rounds()).toBe(4);
  });

  it('with startOnPoke, polls nothing until the first poke, and a poke after stop starts nothing', async () => {
    const w = counted({ startOnPoke: true });
    await vi.advanceTimersByTimeAsync(5000);
    expect(w.rounds()).toBe(0);
    w.loop.poke();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.rounds()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(w.rounds()).toBe(2);
    await w.loop.stop();
    w.loop.poke();
    await vi.advanceTimersByTimeAsync(5000);
    expect(w.rounds()).toBe(2);
  });

  it('without startOnPoke, a poke before start runs nothing', async () => {
    const w = counted();
    w.loop.poke();
    await vi.advanceTimersByTimeAsync(5000);
    expect(w.rounds()).toBe(0);
  });
});
