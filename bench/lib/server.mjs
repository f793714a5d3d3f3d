// Starts the real server (server/index.ts) on a free port against a built dist folder, with a
// throw-away data folder, for the benchmarks. Node built-ins only.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, displayPath, distDir, freePort, log, runBuild } from '../../scripts/lib/common.mjs';

/**
 * Build into MANNA_DIST (default ./dist) unless `noBuild` is set and a build exists there.
 * Returns the dist folder; exits the process when the build fails.
 */
export async function ensureBuilt(prefix, { noBuild }) {
  const dist = distDir();
  const rel = displayPath(dist);
  if (noBuild && fs.existsSync(path.join(dist, 'client'))) {
    log(prefix, `using the existing build in ${rel} (--no-build)`);
    return dist;
  }
  log(prefix, `building into ${rel} (pass --no-build to reuse an existing build)`);
  const code = await runBuild(dist);
  if (code !== 0) {
    console.error(`[${prefix}] the build failed (exit code ${code})`);
    process.exit(code || 1);
  }
  return dist;
}

/**
 * Starts the server and waits for GET /api/health to answer 200.
 * Returns { origin, stop(), logFile }.
 */
export async function startServer({ dist, env = {}, prefix = 'bench' }) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-bench-data-'));
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    stdio: ['ignore', out, out],
    detached: true, // own process group: stop() ends the server and anything it started
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: dist,
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
      PUBLIC_URL: origin,
      SECRET: randomBytes(32).toString('hex'), // throw-away database, throw-away secret
      RATE_LIMIT_PUBLIC_PER_MIN: '100000',
      RATE_LIMIT_PAGE_RENDERS_PER_MIN: '100000',
      ...env,
    },
  });
  fs.closeSync(out);

  let exited = false;
  child.on('exit', () => (exited = true));

  const stop = async () => {
    if (!exited) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // gone
      }
      const deadline = Date.now() + 5000;
      while (!exited && Date.now() < deadline) await sleep(50);
      if (!exited) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const onExit = () => {
    if (!exited) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  };
  process.on('exit', onExit);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, async () => {
      await stop();
      process.exit(130);
    });
  }

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`the server exited during start-up:\n${tail}`);
    }
    try {
      const res = await fetch(`${origin}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer ${origin}/api/health within 60 s`);
    }
    await sleep(200);
  }
  log(prefix, `server running at ${origin} (dist ${displayPath(dist)})`);
  return { origin, stop, logFile };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
