#!/usr/bin/env node
// Database unavailable, at start and during requests: PostgreSQL behind a small TCP proxy that
// this check cuts and restores (the machine's PostgreSQL itself is never stopped). While it is
// cut, requests get 503 with a message and /api/health says so; once restored, the same process
// serves again. At start, the server waits for the database (DATABASE_WAIT_SECONDS).
//
//   node bench/faults/db-down.mjs     # TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test
import net from 'node:net';
import fs from 'node:fs';
import pg from 'pg';
import { freePort, reporter, sleep, startServer, tempDir } from './lib.mjs';

/** A TCP proxy to `target` that can refuse connections and cut the open ones. */
async function tcpProxy(target) {
  const port = await freePort();
  const sockets = new Set();
  let server = null;
  const listen = () =>
    new Promise((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', resolve);
    });
  return {
    port,
    up: listen,
    async down() {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (server) await new Promise((resolve) => server.close(resolve));
      server = null;
    },
  };
}

export async function dbDownCheck({
  url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
} = {}) {
  const r = reporter('Database unavailable: PostgreSQL cut and restored behind a proxy');
  r.title();
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
  } catch (err) {
    // A check that cannot run has checked nothing: it fails, saying why, instead of passing.
    r.check(
      'the check can run (it needs PostgreSQL)',
      false,
      `no PostgreSQL at ${url} (${err.message}); set TEST_DATABASE_URL`,
    );
    return r.results;
  }
  const schema = `faults_${Date.now().toString(36)}`;
  await admin.query(`create schema ${schema}`);
  const target = new URL(url);
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  viaProxy.searchParams.set('options', `-c search_path=${schema}`);
  const dataDir = tempDir('db');
  let server;
  try {
    // at start: the database is not there for 2 s
    const port = await freePort();
    // the database comes once the server has said it is waiting for it
    let sawWaiting;
    const waiting = new Promise((resolve) => (sawWaiting = resolve));
    const starting = startServer({
      port,
      dataDir,
      log: !!process.env.FAULTS_LOG,
      onOutput: (text) => text.includes('The database is not reachable yet') && sawWaiting(),
      env: { DATABASE_URL: viaProxy.href, DATABASE_WAIT_SECONDS: '30', SEED_DEMO: 'true' },
    });
    await Promise.race([waiting, sleep(25_000)]);
    await proxy.up();
    const t0 = Date.now();
    server = await starting;
    const waited = (server.output().match(/The database is not reachable yet/g) ?? []).length;
    r.check(
      'start-up waits for the database and starts once it answers',
      waited > 0,
      `${waited} waiting messages, up ${Date.now() - t0} ms after the database`,
    );

    // a new search each time: an answer the public read cache (PUBLIC_READ_CACHE_MS) has not kept
    let n = 0;
    const list = () =>
      fetch(`${server.base}/api/bind-job-openings?jobid=0&search=check${++n}&pagenum=1&pagesize=20`, {
        signal: AbortSignal.timeout(15_000),
      });
    r.check('serves with the database', (await list()).status === 200);

    await proxy.down();
    const t1 = Date.now();
    const down = await list().catch((err) => {
      throw new Error(`the list while cut: ${err.cause?.code ?? err.cause?.message ?? err}`);
    });
    const downBody = await down.json().catch(() => ({}));
    const health = await fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(15_000) });
    r.figure(
      `while cut: ${down.status} in ${Date.now() - t1} ms, "${downBody.message}"; health ${health.status}`,
    );
    r.check(
      'requests get 503 with a message (not 500, not a hang)',
      down.status === 503 && typeof downBody.message === 'string' && down.headers.get('retry-after') === '30',
    );
    r.check('/api/health says the database is unavailable', health.status === 503);

    await proxy.up();
    let back = 0;
    const t2 = Date.now();
    while (Date.now() - t2 < 15_000) {
      back = await list().then(
        (res) => res.status,
        () => 0,
      );
      if (back === 200) break;
      await sleep(200);
    }
    r.check(
      'serves again once the database is back, without a restart',
      back === 200,
      `${Date.now() - t2} ms`,
    );
    const { code } = await server.stop('SIGTERM');
    server = undefined;
    r.check('stops cleanly afterwards', code === 0, `code ${code}`);

    // at start, a database that never comes: a clear message and exit 1
    await proxy.down();
    const failing = startServer({
      port: await freePort(),
      dataDir,
      env: { DATABASE_URL: viaProxy.href, DATABASE_WAIT_SECONDS: '2' },
      waitMs: 10_000,
    });
    const failure = await failing.then(
      (s) => {
        server = s;
        return '';
      },
      (err) => String(err.message),
    );
    r.check(
      'a database that never answers stops start-up with a message naming DATABASE_URL',
      /did not answer within 2 s.*DATABASE_URL/s.test(failure),
      failure.split('\n').find((l) => l.includes('could not start')) ?? '',
    );
  } finally {
    if (server) await server.stop('SIGKILL');
    await proxy.down();
    await admin.query(`drop schema ${schema} cascade`).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return r.results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await dbDownCheck();
  process.exit(results.every((x) => x.ok) ? 0 : 1);
}
