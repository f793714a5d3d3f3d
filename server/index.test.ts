// @vitest-environment node
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from './testing';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('graceful shutdown', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('lets an in-flight request finish when the app closes, and then stops listening', async () => {
    app = await createTestApp();
    let started!: () => void;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    app.get('/api/test/slow', async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { done: true };
    });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });

    const inFlight = fetch(`${address}/api/test/slow`);
    await requestStarted;
    const closed = app.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closed;
    app = undefined;
    await expect(fetch(`${address}/api/health`)).rejects.toThrow();
  });
});

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs `node --import tsx server/index.ts` as `npm start` does (scripts/start.mjs), collecting its
 * output. (Not the tsx CLI: it relays SIGTERM to its child only once the child has told it, over
 * IPC, that it handles the signal, and on a loaded machine that message can come too late.)
 */
/** Whether this process may start this Node as uid 10001 (it is root, and that Node is reachable). */
function canRunAsAnother(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = spawnSync(process.execPath, ['-e', '0'], {
    uid: 10001,
    gid: 10001,
    cwd: root,
    timeout: 10_000,
  });
  return probe.status === 0;
}

function startServer(env: Record<string, string>, as?: { uid: number; gid: number }) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...as,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    // not started at all (a binary this account may not run): no exit comes, so say so at once
    child.on('error', (err) => {
      output += String(err);
      resolve(-1);
    });
  });
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (output.includes(text) ? resolve() : undefined);
      child.stdout.on('data', check);
      child.on('exit', () => reject(new Error(`exited before printing "${text}":\n${output}`)));
      check();
    });
  return { child, exited, printed, output: () => output };
}

describe('server/index.ts', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-start-'));
    dirs.push(dir);
    return dir;
  };

  // root can give the folder away and start the server as another account (CI runs as root),
  // when that account may run this Node (one installed under root's home, as Node 24 is for its
  // CI stage, it may not)
  it.runIf(canRunAsAnother())(
    'says in one line what to do when DATA_DIR belongs to another account (a bind mount), in production and not',
    async () => {
      const settings: Record<string, string>[] = [
        { NODE_ENV: 'production', SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://manna.example' },
        { NODE_ENV: 'development', HOME: os.tmpdir() },
      ];
      for (const env of settings) {
        const dir = tempDir(); // root's, 0700
        const server = startServer({ ...env, DATA_DIR: dir, PORT: '45991' }, { uid: 10001, gid: 10001 });
        expect(await server.exited).toBe(1);
        const lines = server.output().trim().split('\n');
        expect(lines).toEqual([
          `DATA_DIR ${dir} is not this server's to use (it belongs to uid 0); the server runs as uid 10001. ` +
            `Give the folder to that user and start again: chown -R 10001 ${dir}, or on the host for a bind ` +
            'mount such as -v /srv/manna:/data, chown -R 10001 /srv/manna.',
        ]);
      }
    },
    40_000,
  );

  it('refuses to start on a bad setting, naming it', async () => {
    const server = startServer({ PORT: '99999', DATA_DIR: tempDir() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid setting PORT: expected a whole number between 1 and 65535');
  }, 20_000);

  /** The server on a free port and a new data folder, once it has printed its address. */
  const startedServer = async (env: Record<string, string> = {}) => {
    const dataDir = tempDir();
    const port = await freePort();
    const server = startServer({
      PORT: String(port),
      DATA_DIR: dataDir,
      DIST_DIR: path.join(dataDir, 'dist'),
      ...env,
    });
    await server.printed(`Manna is running at http://localhost:${port}`);
    return { ...server, dataDir, port };
  };

  it('makes the first owner from ADMIN_EMAIL once, and at a later start warns while the password is still set', async () => {
    const owner = {
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'a long owner passphrase 2026',
      LOG_LEVEL: 'info',
    };
    const first = await startedServer(owner);
    expect(first.output()).toContain('Owner account created from ADMIN_EMAIL');
    expect(first.output()).not.toContain('ADMIN_PASSWORD is still set');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const again = startServer({
      PORT: String(first.port),
      DATA_DIR: first.dataDir,
      DIST_DIR: path.join(first.dataDir, 'dist'),
      ...owner,
    });
    await again.printed('Manna is running at');
    expect(again.output()).toContain(
      'ADMIN_PASSWORD is still set, though accounts exist and it does nothing',
    );
    expect(again.output()).not.toContain('a long owner passphrase 2026');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 40_000);

  it('migrates, prints its address, answers, and exits 0 on SIGTERM', async () => {
    const { dataDir, port, ...server } = await startedServer({ LOG_LEVEL: 'warn' });
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok' });
    expect(fs.existsSync(path.join(dataDir, 'manna.sqlite'))).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 20_000);

  it('keeps DATA_DIR private: 0700, the database, its WAL and the secret 0600, and an existing folder put right', async () => {
    const { dataDir, port, ...server } = await startedServer({ LOG_LEVEL: 'warn' });
    await fetch(`http://127.0.0.1:${port}/api/health`);
    const modes = () =>
      Object.fromEntries(
        ['', 'manna.sqlite', 'manna.sqlite-wal', 'manna.sqlite-shm', 'secret']
          .filter((name) => fs.existsSync(path.join(dataDir, name)))
          .map((name) => [name || '.', fs.statSync(path.join(dataDir, name)).mode & 0o777]),
      );
    expect(modes()).toEqual({
      '.': 0o700,
      'manna.sqlite': 0o600,
      'manna.sqlite-wal': 0o600,
      'manna.sqlite-shm': 0o600,
      secret: 0o600,
    });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // a folder made before the rule: readable by all, fixed at the next start with one line
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'manna.sqlite'), 0o644);
    const again = startServer({
      PORT: String(port),
      DATA_DIR: dataDir,
      DIST_DIR: path.join(dataDir, 'dist'),
      LOG_LEVEL: 'warn',
    });
    await again.printed(`Manna is running at http://localhost:${port}`);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'manna.sqlite')).mode & 0o777).toBe(0o600);
    expect(again.output().match(/made it 0700 and its files 0600/g)).toHaveLength(1);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 40_000);

  it('refuses to start in production without PUBLIC_URL when it listens beyond this machine', async () => {
    const server = startServer({
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      SECRET: 'x'.repeat(40),
      DATA_DIR: tempDir(),
    });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid setting PUBLIC_URL: required when NODE_ENV=production');
  }, 20_000);

  it('logs one line per request at the default level, every one of them written out by the time it has exited', async () => {
    const { port, ...server } = await startedServer();
    // 200 requests, 20 at a time, so lines are logged while earlier writes are still under way
    const ids: string[] = [];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${port}/api/health`)),
      );
      for (const res of answers) ids.push(res.headers.get('x-request-id') ?? 'none');
    }
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; reqId?: string; route?: string; status?: number });
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(200);
    expect(requests.map((line) => line.reqId).sort()).toEqual([...ids].sort());
    expect(requests.every((line) => line.route === '/api/health' && line.status === 200)).toBe(true);
    // the shutdown's own lines come after them, so nothing was cut off at exit
    expect(lines.at(-1)?.msg).not.toBe('request');
  }, 30_000);
});
