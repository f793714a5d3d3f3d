import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';

// A spec's OWN server process (the same build, a free port, its own data folder), for specs that
// stop and start the server (pwa.spec.ts), need a fresh site (first-run.spec.ts), or fill the
// database with data that would disturb the shared e2e server (openings-pages.spec.ts).

const ROOT = path.resolve('.');
const SECRET = 'e2e-only-secret-0123456789abcdef0123456789abcdef';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export class OwnServer {
  private child: ChildProcess | null = null;
  private log = '';
  readonly origin: string;
  constructor(
    readonly port: number,
    readonly dist: string,
    readonly dataDir: string,
    /** Settings over the defaults below (e.g. ADMIN_EMAIL for a signed-in test). */
    readonly env: Record<string, string> = {},
  ) {
    this.origin = `http://127.0.0.1:${port}`;
  }

  /** Starts it (no-op when running) and resolves once /api/health answers. */
  async start(): Promise<void> {
    if (this.child) return;
    this.child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DIST_DIR: this.dist,
        DATA_DIR: this.dataDir,
        SEED_DEMO: 'true',
        NODE_ENV: 'production',
        PUBLIC_URL: this.origin,
        SECRET,
        RATE_LIMIT_PUBLIC_PER_MIN: '10000',
        RATE_LIMIT_PAGE_RENDERS_PER_MIN: '10000',
        // the request log (one "request" line per answered request) lets a test count the POSTs
        LOG_LEVEL: 'info',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (d) => (this.log += d));
    this.child.stderr?.on('data', (d) => (this.log += d));
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`server exited:\n${this.log}`);
      try {
        const res = await fetch(`${this.origin}/api/health`);
        if (res.ok) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`server did not start in 90 s:\n${this.log}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  /** The first match of `pattern` in what the server prints, waiting up to `ms` for it. */
  async waitForOutput(pattern: RegExp, ms = 10_000): Promise<RegExpExecArray> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = pattern.exec(this.log);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`the server never printed ${pattern}:\n${this.log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * How many POST requests to `url` reached the server since it started, read from the server's
   * own request log: a double send counts twice here even when the Idempotency-Key keeps the
   * database at one row.
   */
  posts(url: string): number {
    let n = 0;
    for (const line of this.log.split('\n')) {
      if (!line.includes('"msg":"request"')) continue;
      try {
        const entry = JSON.parse(line) as { req?: { method?: string; url?: string } };
        if (entry.req?.method === 'POST' && entry.req.url === url) n++;
      } catch {
        // a line cut by the pipe's chunking is completed by the next chunk; it is counted then
      }
    }
    return n;
  }

  db() {
    return new Database(path.join(this.dataDir, 'manna.sqlite'), { readonly: true, fileMustExist: true });
  }

  count(table: 'contact_message' | 'job_application', email: string): number {
    const db = this.db();
    try {
      return (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE email = ?`).get(email) as { n: number }).n;
    } finally {
      db.close();
    }
  }
}
