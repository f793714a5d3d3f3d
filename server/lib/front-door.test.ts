import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { signInAs } from './auth-testing';
import { createTestApp, createTestOpening } from '../testing';

// The front door only answers on a real socket (app.inject goes straight to Fastify).
const LIST = '/api/bind-job-openings?jobid=0&search=&pagenum=1&pagesize=20';

describe('the front door (repeated public reads answered before Fastify)', () => {
  let app: FastifyInstance;
  let base: string;
  let lines: Record<string, unknown>[];
  afterEach(() => app.close());

  async function start(env: Record<string, string> = {}) {
    lines = [];
    app = await createTestApp(
      { PUBLIC_READ_CACHE_MS: '60000', LOG_LEVEL: 'info', ...env },
      { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }
  const opening = (title: string) => createTestOpening(app, title);
  const titles = async () =>
    ((await (await fetch(base + LIST)).json()) as { job_title: string }[]).map((r) => r.job_title);
  const requestLines = () => lines.filter((line) => line.msg === 'request');
  const headersOf = (res: Response) => {
    const out = Object.fromEntries(res.headers);
    delete out.date;
    delete out['x-request-id'];
    return out;
  };

  it('repeats the route answer byte for byte, with its own request id and one log line each', async () => {
    await start();
    await opening('Copy Editor');
    const first = await fetch(base + LIST);
    const firstBody = await first.text();
    expect(app.frontDoor.size).toBe(1);
    const second = await fetch(base + LIST);
    expect(await second.text()).toBe(firstBody);
    expect(headersOf(second)).toEqual(headersOf(first));
    expect(second.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(second.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));

    const logged = requestLines();
    expect(logged).toHaveLength(2);
    expect(logged.map((line) => line.reqId)).toEqual([
      first.headers.get('x-request-id'),
      second.headers.get('x-request-id'),
    ]);
    for (const line of logged) {
      expect(line).toMatchObject({ route: '/api/bind-job-openings', status: 200, user: null });
      // the search is personal data: redacted on both paths
      expect((line.req as { url: string }).url).toContain('search=[redacted]');
    }
  });

  it('answers 304 on a matching ETag and brotli when the client takes it', async () => {
    await start();
    for (let i = 0; i < 6; i++) await opening(`Editor ${i}`);
    const plain = await fetch(base + LIST);
    const etag = plain.headers.get('etag')!;
    const repeat = await fetch(base + LIST, { headers: { 'if-none-match': etag } });
    expect(repeat.status).toBe(304);
    expect(await repeat.text()).toBe('');
    // fetch would unpack it: read the bytes as they came
    const packed = await new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
      http
        .get(base + LIST, { headers: { 'accept-encoding': 'br' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    });
    expect(packed.encoding).toBe('br');
    expect(brotliDecompressSync(packed.bytes).toString()).toBe(await plain.text());
    expect(requestLines().map((line) => line.status)).toEqual([200, 304, 200]);
  });

  it('stops repeating an answer as soon as an admin save forgets it', async () => {
    await start();
    const { headers } = await signInAs(app, { role: 'recruiter' });
    const first = await opening('Copy Editor');
    expect(await titles()).toEqual(['Copy Editor']);
    expect(await titles()).toEqual(['Copy Editor']);
    const res = await fetch(`${base}/api/manage-job-openings`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 3, job_id: first.job_id }),
    });
    expect(res.status).toBe(200);
    expect(await titles()).toEqual([]);
  });

  it('never repeats a refused address, and leaves other methods to Fastify', async () => {
    await start();
    const bad = `${LIST}&pagesize=100000`;
    expect((await fetch(base + bad)).status).toBe(400);
    expect((await fetch(base + bad)).status).toBe(400);
    expect(app.frontDoor.size).toBe(0);
    await fetch(base + LIST);
    const head = await fetch(base + LIST, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(requestLines().at(-1)).toMatchObject({ route: '/api/bind-job-openings', status: 200 });
  });

  it('keeps nothing when public reads are not kept (PUBLIC_READ_CACHE_MS=0)', async () => {
    await start({ PUBLIC_READ_CACHE_MS: '0' });
    await opening('Copy Editor');
    expect(await titles()).toEqual(['Copy Editor']);
    await opening('Proofreader');
    expect(await titles()).toEqual(['Proofreader', 'Copy Editor']);
    expect(app.frontDoor.size).toBe(0);
  });
});
