import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../testing';
import { HEALTH_RESERVE } from './connection-limits';

/**
 * Slow clients (docs/decisions/009-security-model.md): a body that arrives one byte at a time is
 * answered 408 once the request time is over, and while the connections are taken the health checks
 * still answer from the reserve.
 */

const MAX = 16;
const TOKEN = 'metrics-token-for-the-test';
let app: FastifyInstance;
let port: number;

beforeEach(async () => {
  app = await createTestApp({
    REQUEST_TIMEOUT_SECONDS: '2',
    HEADERS_TIMEOUT_SECONDS: '1',
    KEEP_ALIVE_TIMEOUT_SECONDS: '1',
    MAX_CONNECTIONS: String(MAX),
    METRICS_TOKEN: TOKEN,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterEach(async () => {
  await app.close();
});

/** A client that sends a contact form's headers and then one byte of its body every 300 ms. */
function trickler() {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<{ received: string }>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ received });
    });
  });
  socket.on('error', () => {});
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.on('connect', () => {
    socket.write(
      'POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{',
    );
    timer = setInterval(() => socket.write(' '), 300);
  });
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, ended, connected };
}

/** A GET on a new connection (no keep-alive), with its status, or 'closed' when none came. */
function get(path: string): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
    );
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve(status ? Number(status) : 'closed');
    });
  });
}

describe('one client', () => {
  it('holds at most MAX_CONNECTIONS_PER_CLIENT connections; the next is closed at once', async () => {
    await app.close();
    app = await createTestApp({
      MAX_CONNECTIONS_PER_CLIENT: '4',
      METRICS_TOKEN: TOKEN,
      REQUEST_TIMEOUT_SECONDS: '2',
      HEADERS_TIMEOUT_SECONDS: '1',
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
    const held = Array.from({ length: 4 }, () => trickler());
    await Promise.all(held.map((c) => c.connected));
    expect(await get('/api/health')).toBe('closed');
    await Promise.all(held.map((c) => c.ended));
    expect(await get('/api/health')).toBe(200);
    const text = await (
      await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    expect(
      Number(/manna_connections_refused_total\{kind="client"\} (\d+)/.exec(text)?.[1]),
    ).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('serves an office of 60 browsers behind one address, each keeping 6 connections open', async () => {
    await app.close();
    app = await createTestApp({ METRICS_TOKEN: TOKEN }); // MAX_CONNECTIONS_PER_CLIENT at its default
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
    expect(app.config.MAX_CONNECTIONS_PER_CLIENT).toBeLessThan(60 * 6);
    const browsers = Array.from({ length: 60 }, () => new http.Agent({ keepAlive: true, maxSockets: 6 }));
    const ask = (agent: http.Agent) =>
      new Promise<number | string>((resolve) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/api/health', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      });
    const six = (agent: http.Agent) => Promise.all(Array.from({ length: 6 }, () => ask(agent)));
    try {
      // one after another, each browser opens its six connections and keeps them (360 in all)
      const first: (number | string)[] = [];
      for (const agent of browsers) first.push(...(await six(agent)));
      expect(first.filter((s) => s !== 200)).toEqual([]);
      // then all at once, as the office's tabs poll: on the connections kept or on new ones
      const again = (await Promise.all(browsers.map(six))).flat();
      expect(again.filter((s) => s !== 200)).toEqual([]);
      const text = await (
        await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).text();
      expect(Number(/manna_connections_refused_total\{kind="client"\} (\d+)/.exec(text)?.[1] ?? 0)).toBe(0);
    } finally {
      for (const agent of browsers) agent.destroy();
    }
  }, 60_000);

  it('near the cap, reclaims an idle keep-alive connection for a new one instead of sending it to the reserve', async () => {
    // the cap's worth of connections, each answered once and kept open (keep-alive), idle
    const kept = await Promise.all(
      Array.from(
        { length: MAX },
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            const socket = net.connect(port, '127.0.0.1', () =>
              socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n'),
            );
            socket.on('error', () => {});
            socket.once('data', (chunk) =>
              /^HTTP\/1\.1 200/.test(chunk.toString('latin1'))
                ? resolve(socket)
                : reject(new Error('not 200')),
            );
          }),
      ),
    );
    try {
      // a visitor's new connection is served (404 for this address), not sent to the reserve (503)
      expect(await get('/api/no-such-thing')).toBe(404);
      expect(kept.filter((socket) => socket.destroyed || socket.readableEnded).length).toBeGreaterThanOrEqual(
        1,
      );
    } finally {
      for (const socket of kept) socket.destroy();
    }
  });

  it('closes the connection of a rate-limited request instead of holding it', async () => {
    await app.close();
    app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '1' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
    const send = () =>
      new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.write(
            'POST /api/contact-messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{',
          ),
        );
        let text = '';
        // the body never comes: only the server closing the connection ends this
        socket.on('data', (chunk) => (text += chunk.toString('latin1')));
        socket.on('error', () => {});
        socket.on('close', () => resolve(text));
      });
    // the minute's one request, whole
    await fetch(`http://127.0.0.1:${port}/api/contact-messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const limited = await send();
    expect(limited).toMatch(/^HTTP\/1\.1 429/);
    expect(limited).toMatch(/\r\nconnection: close\r\n/i);
  }, 15_000);
});

describe('slow clients', () => {
  it('answers 408 and closes a body that trickles in, once the request time is over', async () => {
    // the limit is 2 s and Node looks every second; the test's time is only a backstop
    const client = trickler();
    const { received } = await client.ended;
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);

  // This test failed about one full run in five and passed on a retry (the retry hid it). It took
  // the first connection the server accepted after its own connect as its own; any other client
  // connecting then (a keep-alive connection of an earlier test being reopened) could be that one,
  // and the test watched the wrong socket. It now watches the connection whose remote port is its
  // client's, and runs without a retry: a failure now is a real one.
  it('closes a connection that never sends a byte', { timeout: 45_000 }, async () => {
    const accepted: net.Socket[] = [];
    const onConnection = (socket: net.Socket) => void accepted.push(socket);
    app.server.on('connection', onConnection);
    const client = net.connect(port, '127.0.0.1');
    client.on('error', () => {});
    client.resume(); // it reads, as a browser does; it never writes
    const clientClosed = new Promise<true>((resolve) => client.on('close', () => resolve(true)));
    try {
      await new Promise((resolve) => client.once('connect', resolve));
      const server = await vi.waitFor(
        () => {
          const mine = accepted.find((s) => s.remotePort === client.localPort);
          if (!mine) throw new Error('the server has not accepted this client yet');
          return mine;
        },
        { timeout: 10_000 },
      );
      if (!server.destroyed) await new Promise((resolve) => server.once('close', resolve));
      expect(await clientClosed, 'the client heard it').toBe(true);
    } finally {
      app.server.off('connection', onConnection);
      client.destroy();
    }
  });

  it('closes a connection that never finishes its headers', async () => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /api/health HTTP/1.1\r\nHost: x'));
    socket.on('error', () => {});
    const received = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
    });
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  }, 30_000);

  it('keeps answering health checks while every connection is taken by slow clients', async () => {
    const slow = Array.from({ length: MAX }, () => trickler());
    await Promise.all(slow.map((c) => c.connected));
    // every connection of the cap is held: a page read waits for none of them and is refused
    expect(await get('/api/bind-company-blog')).toBe(503);
    expect(await get('/api/health')).toBe(200);
    expect(await get('/api/ready')).toBe(200);
    // past the reserve, new connections are closed at once (they send nothing; the reserve's wait)
    const flood = Array.from({ length: HEALTH_RESERVE + 8 }, () => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => {});
      return new Promise<void>((resolve) => socket.on('close', () => resolve()));
    });
    await Promise.all(flood);
    // the slow clients are let go with a 408, and the site is whole again
    for (const { received } of await Promise.all(slow.map((c) => c.ended))) {
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    }
    expect(await get('/api/health')).toBe(200);
    expect(await get('/api/bind-company-blog')).not.toBe(503);
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const text = await metrics.text();
    expect(
      Number(/manna_connections_refused_total\{kind="closed"\} (\d+)/.exec(text)?.[1]),
    ).toBeGreaterThanOrEqual(8);
    expect(Number(/manna_connections_refused_total\{kind="reserve"\} (\d+)/.exec(text)?.[1])).toBe(1);
  }, 60_000);
});
