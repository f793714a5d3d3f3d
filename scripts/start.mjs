#!/usr/bin/env node
// `npm start`: install what is missing, build when the sources changed, then run the server.
//
//   npm start                 install if needed, build if stale, serve on $PORT (default 8080)
//   npm start -- --rebuild    build even when dist/ looks up to date
//
// The server migrates and seeds the database itself and prints the address. Every environment
// variable is passed through to it (PORT, HOST, DATA_DIR, DIST_DIR, SEED_DEMO, ...). MANNA_DIST
// chooses the build folder (default ./dist) and becomes the server's DIST_DIR unless that is set.
import { spawn } from 'node:child_process';
import {
  ROOT,
  buildFreshness,
  displayPath,
  distDir,
  ensureInstall,
  log,
  runBuild,
  c,
} from './lib/common.mjs';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log('Usage: npm start [-- --rebuild]');
  process.exit(0);
}
const unknown = args.filter((a) => a !== '--rebuild');
if (unknown.length) {
  console.error(`start: unknown argument(s): ${unknown.join(' ')} (known: --rebuild)`);
  process.exit(2);
}

if (!(await ensureInstall('start'))) process.exit(1);

const dist = distDir();
const rel = displayPath(dist);
const { fresh, reason } = buildFreshness(dist);
if (args.includes('--rebuild') || !fresh) {
  log('start', `building into ${rel} (${args.includes('--rebuild') ? '--rebuild' : reason})`);
  const code = await runBuild(dist);
  if (code !== 0) {
    console.error(c.red(`[start] the build failed (exit code ${code}); not starting the server`));
    process.exit(code || 1);
  }
} else {
  log('start', `${rel}: ${reason} (npm start -- --rebuild to force a build)`);
}

// Run the server in its own process group so that Ctrl-C in a terminal reaches it once, through
// us, rather than twice (once from the terminal and once forwarded).
const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  detached: true,
  env: { ...process.env, DIST_DIR: process.env.DIST_DIR ?? dist },
});

// npm forwards signals to its child as well, so one Ctrl-C may arrive twice in a few ms; pass on
// the first and ignore repeats within a second (a later one is forwarded: the user insists).
const lastForwarded = new Map();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    const now = Date.now();
    if (now - (lastForwarded.get(signal) ?? 0) < 1000) return;
    lastForwarded.set(signal, now);
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  });
}

// `kill <npm pid>` ends npm and its `sh -c` but does not reach us: when our parent goes away
// (we are re-parented), stop the server as if we had been sent SIGTERM.
const parentPid = process.ppid;
if (parentPid > 1) {
  const timer = setInterval(() => {
    if (process.ppid === parentPid) return;
    clearInterval(timer);
    process.emit('SIGTERM', 'SIGTERM');
  }, 1000);
  timer.unref();
}

// If we die unexpectedly, do not leave the server running in its own process group.
process.on('exit', () => {
  if (child.exitCode === null && child.signalCode === null) {
    try {
      child.kill('SIGTERM');
    } catch {
      // already gone
    }
  }
});

child.on('error', (err) => {
  console.error(`[start] could not start the server: ${err.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // exit the way the child did (128 + signal number), e.g. 143 for SIGTERM
    const num = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1, SIGKILL: 9 }[signal] ?? 1;
    process.exit(128 + num);
  }
  process.exit(code ?? 1);
});
