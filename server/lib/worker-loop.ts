/**
 * A queue's sender in this process (the mail outbox, the webhook deliveries): one round at a time,
 * every `pollMs` (a retry's time, another process's work) and at once when a change pokes it. A
 * poke during a round makes one more round when it ends. `stop` lets the round in progress finish
 * (`stopped()` tells it to take no more work) and starts no other. With `startOnPoke`, the first poke
 * starts it (a queue that may stay empty for good polls nothing until it gets work); a poke after
 * `stop` starts nothing.
 */
export function workerLoop(o: {
  round(stopped: () => boolean): Promise<unknown>;
  pollMs: number;
  onError(err: unknown): void;
  startOnPoke?: boolean;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let again = false;
  let state: 'idle' | 'started' | 'stopped' = 'idle';
  const isStopped = () => state !== 'started';

  const run = () => {
    if (state !== 'started') return;
    if (running) {
      again = true; // a poke while working: go round once more when this round ends
      return;
    }
    clearTimeout(timer);
    running = o
      .round(isStopped)
      .catch(o.onError)
      .finally(() => {
        running = undefined;
        if (state !== 'started') return;
        if (again) {
          again = false;
          setImmediate(run);
        } else timer = setTimeout(run, o.pollMs).unref();
      });
  };

  const start = () => {
    state = 'started';
    timer = setTimeout(run, 0).unref();
  };

  return {
    poke() {
      if (state === 'idle' && o.startOnPoke) start();
      else run();
    },
    start,
    async stop() {
      state = 'stopped';
      clearTimeout(timer);
      await running;
    },
  };
}
