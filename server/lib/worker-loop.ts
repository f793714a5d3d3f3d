/**
 * A queue's sender in this process (the mail outbox, the webhook deliveries): one round at a time,
 * every `pollMs` (a retry's time, another process's work) and at once when a change pokes it. A
 * poke during a round makes one more round when it ends. `stop` lets the round in progress finish
 * (`stopped()` tells it to take no more work) and starts no other.
 */
export function workerLoop(o: {
  round(stopped: () => boolean): Promise<unknown>;
  pollMs: number;
  onError(err: unknown): void;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let again = false;
  let stopped = true;
  const isStopped = () => stopped;

  const run = () => {
    if (stopped) return;
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
        if (stopped) return;
        if (again) {
          again = false;
          setImmediate(run);
        } else timer = setTimeout(run, o.pollMs).unref();
      });
  };

  return {
    poke: run,
    start() {
      stopped = false;
      timer = setTimeout(run, 0).unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
