import pino from 'pino';

/** What each destination still holds, handed over when the process exits (one listener for all). */
const waiting = new Set<WeakRef<() => void>>();
function handOverAtExit(handOver: () => void) {
  if (waiting.size === 0) {
    // before pino's own exit handler (registered when a destination is made), which writes what
    // sonic-boom holds
    process.prependOnceListener('exit', () => {
      for (const ref of waiting) ref.deref()?.();
    });
  }
  waiting.add(new WeakRef(handOver));
}

/**
 * Where the server's JSON log lines go when nobody reads them at a terminal: standard output,
 * asynchronously, through pino's own destination (sonic-boom). A line is handed over without
 * blocking the request that logged it; lines logged while a write is under way go out together in
 * the next one; what is left is written when the process exits (also on process.exit; only a
 * SIGKILL can lose the lines of the last moment). A reader that stalls does not grow memory past
 * `maxBytes` of waiting lines: later lines are dropped until it reads again.
 *
 * The lines of one turn of the event loop reach sonic-boom as one string: sonic-boom measures the
 * whole string of waiting lines again for every string it is given, so it is given one per turn,
 * not one per line (bench/README.md has the figures).
 */
export function logDestination(fd = 1, maxBytes = 16 * 1024 * 1024) {
  let lines: string[] = [];
  const handOver = () => {
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    out.write(text);
  };
  handOverAtExit(handOver);
  const out = pino.destination({ dest: fd, sync: false, maxLength: maxBytes });
  return {
    write(line: string) {
      if (lines.push(line) === 1) setImmediate(handOver);
      return true;
    },
  };
}
