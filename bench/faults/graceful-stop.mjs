#!/usr/bin/env node
// Graceful stop: SIGTERM while applications (with CVs) are being sent. In-flight requests finish,
// new ones are refused cleanly (503, or no connection), nothing hangs or is cut, every accepted
// application is stored, and the process exits 0 within 10 s.
//
//   node bench/faults/graceful-stop.mjs                    # full size: 40 at a time, 1 MB CVs
//   node bench/faults/graceful-stop.mjs --concurrency 12 --kb 256
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { apply, firstOpenJobId, freePort, reporter, sleep, startServer, tempDir } from './lib.mjs';

/** A GET on a new connection (no keep-alive reuse): { status } or { status: 0, error }. */
function freshGet(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 12_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (err) => resolve({ status: 0, error: err.code ?? String(err) }));
  });
}

export async function gracefulStopCheck({ concurrency = 40, kb = 1024 } = {}) {
  const r = reporter(`Graceful stop: SIGTERM under load (${concurrency} senders, ${kb} KB CVs)`);
  r.title();
  const dataDir = tempDir('stop');
  const port = await freePort();
  const server = await startServer({ port, dataDir });
  const jobId = await firstOpenJobId(server.base);
  let stopped = false;
  let n = 0;
  const results = [];
  const sender = async () => {
    while (!stopped) {
      const res = await apply(server.base, jobId, `stop.${n++}@example.com`, {
        bytes: kb * 1024,
        timeoutMs: 12_000,
      });
      results.push({ ...res, afterStop: stopped });
      if (res.status === 0 || res.status === 503) {
        if (stopped) break;
      }
    }
  };
  const senders = Array.from({ length: concurrency }, sender);
  await sleep(1500);
  const stopping = server.stop('SIGTERM');
  stopped = true;
  // new requests (on new connections) while it closes: answered 503 or refused, never hanging
  const late = Array.from({ length: 10 }, (_, i) =>
    sleep(i * 5)
      .then(() => freshGet(`${server.base}/api/bind-job-openings?jobid=0&search=&pagenum=1&pagesize=20`))
      .then((res) => results.push({ ...res, late: true })),
  );
  const { code, ms } = await stopping;
  await Promise.all([...senders, ...late]);

  const accepted = results.filter((x) => x.status >= 200 && x.status < 300);
  const refused503 = results.filter((x) => x.status === 503);
  const noConnection = results.filter((x) => x.status === 0 && x.error === 'ECONNREFUSED');
  // the senders' requests: none may be cut; a new connection the closing server accepted but never
  // read is reset (ECONNRESET), which a client or load balancer treats as refused and retries
  const cut = results.filter((x) => !x.late && x.status === 0 && x.error !== 'ECONNREFUSED');
  const otherErrors = results.filter((x) => x.status >= 400 && x.status !== 503);
  const db = new Database(path.join(dataDir, 'manna.sqlite'), { readonly: true });
  const rows = db.prepare('select count(*) as n from job_application').get().n;
  db.close();

  r.figure(
    `${results.length} requests: ${accepted.length} accepted, ${refused503.length} answered 503 while closing, ${noConnection.length} refused (no connection), ${cut.length} cut or timed out, ${otherErrors.length} other errors`,
  );
  r.check('exit code 0', code === 0, `code ${code}`);
  r.check('exits within 10 s of SIGTERM', ms <= 10_000, `${ms} ms`);
  r.check(
    'no request cut, hung or failed with another error',
    cut.length === 0 && otherErrors.length === 0,
    cut
      .map((x) => x.error)
      .slice(0, 3)
      .join(', '),
  );
  r.check(
    'every accepted application is stored (in-flight ones finished)',
    rows >= accepted.length,
    `${rows} rows, ${accepted.length} accepted`,
  );
  r.check(
    'requests were in flight when it stopped',
    accepted.length > 0 && results.some((x) => x.afterStop && !x.late),
    '',
  );
  const lateResults = results.filter((x) => x.late);
  r.check(
    'requests sent after SIGTERM are refused cleanly (503 or no connection) or served',
    lateResults.every(
      (x) =>
        x.status === 503 ||
        x.error === 'ECONNREFUSED' ||
        x.error === 'ECONNRESET' ||
        (x.status >= 200 && x.status < 300),
    ),
    lateResults.map((x) => x.status || x.error).join(' '),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
  return r.results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, d) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : d;
  };
  const results = await gracefulStopCheck({ concurrency: arg('concurrency', 40), kb: arg('kb', 1024) });
  process.exit(results.every((x) => x.ok) ? 0 : 1);
}
