import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { post } from './sender';

const RULES = { httpsOnly: false, allowPrivate: true };
const servers: http.Server[] = [];

/** A receiver on loopback that answers each request with `handle`. */
async function receiver(handle: http.RequestListener) {
  const server = http.createServer(handle);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("a delivery's POST", () => {
  it("answers the receiver's status", async () => {
    const url = await receiver((_req, res) => res.writeHead(204).end());
    await expect(post(url, '{}', {}, { ...RULES, timeoutMs: 2000 })).resolves.toEqual({ status: 204 });
  });

  it('fails at the timeout when the receiver never answers', async () => {
    const url = await receiver(() => {}); // reads the request, says nothing
    await expect(post(url, '{}', {}, { ...RULES, timeoutMs: 300 })).rejects.toThrow('No answer within 0.3 s');
  });

  it('fails at the timeout when the receiver trickles its answer, each byte in time for a socket timeout', async () => {
    const url = await receiver((_req, res) => {
      res.writeHead(200);
      const drip = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(drip));
    });
    await expect(post(url, '{}', {}, { ...RULES, timeoutMs: 400 })).rejects.toThrow('No answer within 0.4 s');
  });
});
