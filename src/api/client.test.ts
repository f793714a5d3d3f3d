// @vitest-environment node
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { ApiError, fetchJson, isSessionEnded, onSessionEnded } from './client';

// A real HTTP server on loopback answering with the status the path names: /status/401 and so on.
let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const status = Number(/^\/status\/(\d{3})/.exec(req.url ?? '')?.[1] ?? 200);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        status === 200 ? { ok: true } : { message: `answer ${status}`, errors: { field: 'bad' } },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const Ok = z.object({ ok: z.boolean() });

describe('the transport reports an ended session once, for every caller', () => {
  it('tells every listener of each 401, and the error says so; other failures tell nobody', async () => {
    const heard: string[] = [];
    const stopA = onSessionEnded(() => heard.push('a'));
    const stopB = onSessionEnded(() => heard.push('b'));
    try {
      const ended = await fetchJson(Ok, `${base}/status/401`).catch((e: unknown) => e);
      expect(ended).toBeInstanceOf(ApiError);
      expect(isSessionEnded(ended)).toBe(true);
      expect((ended as ApiError).message).toBe('answer 401');
      expect((ended as ApiError).errors).toEqual({ field: 'bad' });
      expect(heard).toEqual(['a', 'b']);

      for (const status of [400, 403, 404, 409, 429, 500]) {
        const error = await fetchJson(Ok, `${base}/status/${status}`).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(status);
        expect(isSessionEnded(error)).toBe(false);
      }
      expect(await fetchJson(Ok, `${base}/`)).toEqual({ ok: true });
      expect(heard).toEqual(['a', 'b']);
    } finally {
      stopA();
      stopB();
    }
  });

  it('a listener that unsubscribed hears nothing more', async () => {
    const heard: number[] = [];
    const stop = onSessionEnded(() => heard.push(1));
    await fetchJson(Ok, `${base}/status/401`).catch(() => undefined);
    stop();
    await fetchJson(Ok, `${base}/status/401`).catch(() => undefined);
    expect(heard).toEqual([1]);
  });

  it('a network failure is status 0, not an ended session', async () => {
    const heard: number[] = [];
    const stop = onSessionEnded(() => heard.push(1));
    try {
      const error = await fetchJson(Ok, 'http://127.0.0.1:9/nothing-listens-here').catch((e: unknown) => e);
      expect((error as ApiError).isNetwork).toBe(true);
      expect(isSessionEnded(error)).toBe(false);
      expect(heard).toEqual([]);
    } finally {
      stop();
    }
  });
});
