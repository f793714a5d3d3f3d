// Shared by the fault checks (bench/faults/*.mjs, scripts/test-faults.mjs): the real server as a
// child process, a small PDF, an application sender. Node built-ins and the repo's dependencies.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const tempDir = (tag) => fs.mkdtempSync(path.join(os.tmpdir(), `manna-faults-${tag}-`));
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A real, small PDF (the server checks the content, not the name). */
export function pdf(bytes = 2048) {
  const head = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n';
  const tail = '\ntrailer << /Root 1 0 R >>\n%%EOF\n';
  return Buffer.concat([
    Buffer.from(head),
    Buffer.alloc(Math.max(0, bytes - head.length - tail.length), 0x20),
    Buffer.from(tail),
  ]);
}

/**
 * The real server (`node --import tsx server/index.ts`) on `port` with `env`, on SQLite (PostgreSQL
 * with env.DATABASE_URL); resolves once /api/health answers 200. `stop(signal)` resolves with the
 * exit code and how long it took. `stdoutFile`: the server's
 * standard output (its log) goes straight to that file, as it would to a service manager, instead
 * of through a pipe this process reads (a load generator should not spend its CPU on the log).
 */
export async function startServer({
  port,
  dataDir,
  env = {},
  waitMs = 60_000,
  log = false,
  onOutput,
  stdoutFile,
}) {
  const stdoutFd = stdoutFile ? fs.openSync(stdoutFile, 'a') : null;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: path.join(dataDir, 'no-build'),
      SECRET: 'fault-checks-secret-of-at-least-32-characters',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_PUBLIC_PER_MIN: '1000000',
      RATE_LIMIT_PAGE_RENDERS_PER_MIN: '1000000',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      ...env,
    },
    stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
  });
  if (stdoutFd !== null) fs.closeSync(stdoutFd);
  let output = '';
  const keep = (d) => {
    output += d;
    if (output.length > 200_000) output = output.slice(-100_000);
    if (log) process.stderr.write(d);
    onOutput?.(String(d));
  };
  child.stdout?.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + waitMs;
  let up = false;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) {
        up = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(`the server did not start:\n${output.slice(-3000)}`);
  }
  return {
    base,
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      const started = Date.now();
      child.kill(signal);
      const result = await exited;
      return { ...result, ms: Date.now() - started };
    },
  };
}

export async function firstOpenJobId(base) {
  const rows = await (
    await fetch(`${base}/api/bind-job-openings?jobid=0&search=&pagenum=1&pagesize=20`)
  ).json();
  if (!Array.isArray(rows) || rows.length === 0) throw new Error('no job opening to apply to');
  return rows[0].job_id;
}

/** POSTs one application; resolves { status, email } (status 0: no answer) and never throws. */
export async function apply(base, jobId, email, { bytes = 2048, timeoutMs = 15_000 } = {}) {
  const form = new FormData();
  form.set('job_id', String(jobId));
  form.set('full_name', 'Fault Check');
  form.set('email', email);
  form.set('contact_number', '9876543210');
  form.set('address', '1 Test Street, Kochi');
  form.set('consent', 'true');
  form.set('resume', new Blob([pdf(bytes)], { type: 'application/pdf' }), 'Fault Check CV.pdf');
  try {
    const res = await fetch(`${base}/api/manage-job-applications`, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await res.text();
    return { status: res.status, email, body };
  } catch (err) {
    return { status: 0, email, error: err.cause?.code ?? err.name ?? String(err) };
  }
}

/** Every stored file under DATA_DIR/files (keys), besides the temporary folder. */
export function storedFiles(dataDir) {
  const root = path.join(dataDir, 'files');
  const out = [];
  if (!fs.existsSync(root)) return out;
  for (const prefix of fs.readdirSync(root, { withFileTypes: true })) {
    if (!prefix.isDirectory() || prefix.name === '.tmp') continue;
    for (const name of fs.readdirSync(path.join(root, prefix.name))) out.push(`${prefix.name}/${name}`);
  }
  return out;
}

/** A tiny reporter: check(name, ok, detail) and a summary. */
export function reporter(title) {
  const results = [];
  return {
    check(name, ok, detail = '') {
      results.push({ name, ok });
      console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
    },
    figure(text) {
      console.log(`       ${text}`);
    },
    get results() {
      return results;
    },
    title() {
      console.log(`\n${title}`);
    },
  };
}
