import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebhookAnswer, WebhookDeliveries, WebhookRows, type WebhookDelivery } from '../../contract/webhooks';
import { multipart } from '../../tests/fixtures/multipart';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';
import { checkEndpointUrl, isPublicAddress } from '../webhooks/address';

/**
 * Webhooks against a real receiver on loopback (allowed here by WEBHOOKS_ALLOW_PRIVATE): each
 * delivery verifies with the Standard Webhooks library and the endpoint's secret, a receiver that
 * was down gets the delivery once it is back, "Send again" sends the same message id again, and
 * nothing a public page would not show leaves the site.
 */

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver that records each POST and answers with `status()` (or is not listening at all). */
async function startReceiver() {
  const received: Received[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = status;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/manna`,
    received,
    answer: (code: number) => (status = code),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    listen: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

let app: FastifyInstance;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let staff: Record<string, string>;
let writer: Record<string, string>;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SECONDS: '1' });
  staff = (await signInAs(app, { permissions: ['webhooks.manage'] })).headers;
  writer = (await signInAs(app, { permissions: ['blog.manage'] })).headers;
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const addEndpoint = (payload: object, headers = staff) =>
  app.inject({ method: 'POST', url: '/api/admin/webhooks', headers, payload });
const deliveriesOf = async (id: number): Promise<WebhookDelivery[]> =>
  WebhookDeliveries.parse(
    (await app.inject({ url: `/api/admin/webhooks/${id}/deliveries`, headers: staff })).json(),
  );
const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
    type: string;
    data: Record<string, unknown>;
  };

async function publishPost(title: string) {
  const fields = {
    mode: '1',
    blog_id: '0',
    company_id: '2',
    title,
    excerpt: 'What the entries say.',
    content: '<p>Registers record baptisms, marriages and burials.</p>',
    publication_date: 'August 6, 2025',
    read_time: '5 min read',
    featured_image_url: 'https://images.example.org/register.png',
    cover_alt: 'A page of a parish register',
    status: 'Published',
  };
  const { body, contentType } = multipart(Object.entries(fields).map(([name, value]) => ({ name, value })));
  const res = await app.inject({
    method: 'POST',
    url: '/api/manage-company-blog',
    headers: { ...writer, 'content-type': contentType },
    payload: body,
  });
  expect(res.statusCode).toBe(200);
  return res.json().row as { blog_id: number; slug: string };
}

describe('webhook endpoints', () => {
  it('are for staff with webhooks.manage only', async () => {
    expect((await app.inject({ url: '/api/admin/webhooks', headers: writer })).statusCode).toBe(403);
    expect((await addEndpoint({ url: receiver.url, events: ['post.published'] }, writer)).statusCode).toBe(
      403,
    );
    expect((await app.inject({ url: '/api/admin/webhooks' })).statusCode).toBe(401);
  });

  it('refuse a form without an event, an address that is not http(s), or one with a password in it', async () => {
    for (const [payload, code] of [
      [{ url: receiver.url, events: [] }, 'eventsRequired'],
      [{ url: 'ftp://files.example.com/in', events: ['post.published'] }, 'urlInvalid'],
      [{ url: 'https://user:pw@hooks.example.com/in', events: ['post.published'] }, 'urlInvalid'],
      [{ url: '', events: ['post.published'] }, 'urlRequired'],
    ] as const) {
      const res = await addEndpoint(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.values(res.json().codes)).toContain(code);
    }
  });

  it('deliver a published post signed per Standard Webhooks, with only what its public page shows', async () => {
    const added = WebhookAnswer.parse(
      (await addEndpoint({ url: receiver.url, events: ['post.published'], description: 'Zapier' })).json(),
    );
    expect(added.row.secret).toMatch(/^whsec_/);
    const before = receiver.received.length;
    const post = await publishPost('Reading a parish register, Côte d’Ivoire');
    await vi.waitFor(() => expect(receiver.received.length).toBe(before + 1), { timeout: 10_000 });
    const got = receiver.received.at(-1)!;
    expect(got.headers['webhook-id']).toMatch(/^msg_/);
    const event = verify(added.row.secret, got);
    expect(event.type).toBe('post.published');
    expect(event.data).toEqual({
      blog_id: post.blog_id,
      slug: post.slug,
      title: 'Reading a parish register, Côte d’Ivoire',
      url: `${app.config.PUBLIC_URL}/blog/${post.slug}`,
    });
    // another endpoint's secret does not verify it: the signature is this endpoint's
    expect(() =>
      verify(`whsec_${Buffer.from('another secret of 24 bytes').toString('base64')}`, got),
    ).toThrow();
    await vi.waitFor(async () => expect((await deliveriesOf(added.row.endpoint_id))[0]?.status).toBe('sent'));
    const [delivery] = await deliveriesOf(added.row.endpoint_id);
    expect(delivery!.attempts).toEqual([expect.objectContaining({ status_code: 200, error: null })]);
    const [listed] = WebhookRows.parse(
      (await app.inject({ url: '/api/admin/webhooks', headers: staff })).json(),
    ).filter((r) => r.endpoint_id === added.row.endpoint_id);
    expect(listed).toMatchObject({ description: 'Zapier', last_status: 'sent', enabled: true });
  });

  it('try again after a receiver that was down comes back, each attempt listed; "Send again" repeats the message id', async () => {
    const added = WebhookAnswer.parse(
      (await addEndpoint({ url: receiver.url, events: ['message.received'] })).json(),
    );
    const id = added.row.endpoint_id;
    await receiver.close();
    expect(
      (await app.inject({ method: 'POST', url: `/api/admin/webhooks/${id}/test`, headers: staff }))
        .statusCode,
    ).toBe(200);
    await vi.waitFor(
      async () => expect((await deliveriesOf(id))[0]?.attempts.length).toBeGreaterThanOrEqual(1),
      {
        timeout: 10_000,
      },
    );
    const [failed] = await deliveriesOf(id);
    expect(failed).toMatchObject({ status: 'pending', event_type: 'webhook.test' });
    expect(failed!.attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
    const before = receiver.received.length;
    await receiver.listen();
    // the next try, a second after the first failure (WEBHOOK_RETRY_SECONDS), at the sender's next look
    await vi.waitFor(async () => expect((await deliveriesOf(id))[0]?.status).toBe('sent'), {
      timeout: 15_000,
    });
    expect(receiver.received.length).toBe(before + 1);
    const event = verify(added.row.secret, receiver.received.at(-1)!);
    expect(event).toMatchObject({ type: 'webhook.test', data: { endpoint_id: id } });

    const [sent] = await deliveriesOf(id);
    const resend = await app.inject({
      method: 'POST',
      url: `/api/admin/webhooks/${id}/deliveries/${sent!.delivery_id}/resend`,
      headers: staff,
    });
    expect(resend.statusCode).toBe(200);
    await vi.waitFor(() => expect(receiver.received.length).toBe(before + 2), { timeout: 10_000 });
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(sent!.msg_id);
    // a delivery still waiting is not "sent again": it is already in line
    receiver.answer(500);
    await app.inject({ method: 'POST', url: `/api/admin/webhooks/${id}/test`, headers: staff });
    await vi.waitFor(async () => expect((await deliveriesOf(id))[0]?.attempts[0]?.status_code).toBe(500), {
      timeout: 10_000,
    });
    const [waiting] = await deliveriesOf(id);
    expect(waiting!.attempts[0]!.error).toBe('Answered 500');
    receiver.answer(200);
  });

  it('are changed at the version they were read at: a stale change is 409 with the endpoint as it is', async () => {
    const added = WebhookAnswer.parse(
      (await addEndpoint({ url: receiver.url, events: ['post.published'] })).json(),
    );
    const url = `/api/admin/webhooks/${added.row.endpoint_id}`;
    const change = (version: number, events: string[]) =>
      app.inject({
        method: 'PATCH',
        url,
        headers: { ...staff, 'if-match': `"${version}"` },
        payload: { url: receiver.url, events, enabled: true },
      });
    expect((await change(1, ['post.published', 'post.unpublished'])).statusCode).toBe(200);
    const stale = await change(1, ['application.received']);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current.events).toEqual(['post.published', 'post.unpublished']);
    expect((await app.inject({ method: 'DELETE', url, headers: staff })).statusCode).toBe(200);
    expect((await app.inject({ url: `${url}/deliveries`, headers: staff })).statusCode).toBe(404);
  });
});

describe('where webhooks may go', () => {
  let strict: FastifyInstance;
  let owner: Record<string, string>;
  beforeAll(async () => {
    strict = await createTestApp();
    owner = (await signInAs(strict, { permissions: ['webhooks.manage'] })).headers;
  });
  afterAll(() => strict.close());

  it('never to a loopback, private, link-local or metadata address, by number or by name', async () => {
    for (const url of [
      'http://127.0.0.1:8080/in',
      'http://localhost/in',
      'http://10.0.0.7/in',
      'http://192.168.1.20/in',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/in',
      'http://[fd00::1]/in',
      'http://[::ffff:127.0.0.1]/in',
      'http://0.0.0.0/in',
    ]) {
      const res = await strict.inject({
        method: 'POST',
        url: '/api/admin/webhooks',
        headers: owner,
        payload: { url, events: ['post.published'] },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().codes.url, url).toBe('urlPrivate');
    }
  });

  it('asks https:// of a public address in production; a private one, where allowed, may be http', async () => {
    const production = { httpsOnly: true, allowPrivate: false };
    expect(await checkEndpointUrl('http://93.184.216.34/in', production)).toBe('urlHttps');
    expect(await checkEndpointUrl('https://93.184.216.34/in', production)).toBeNull();
    expect(await checkEndpointUrl('http://10.1.2.3:8080/in', production)).toBe('urlPrivate');
    expect(await checkEndpointUrl('http://10.1.2.3:8080/in', { httpsOnly: true, allowPrivate: true })).toBeNull();
    expect(await checkEndpointUrl('https://no-such-host.invalid/in', production)).toBe('urlInvalid');
  });

  it('reads a public address as public and every other range as not', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:2800:220:1:248:1893:25c8:1946')).toBe(true);
    for (const ip of [
      '100.64.0.1',
      '172.16.0.1',
      'fe80::1',
      '224.0.0.1',
      '::ffff:10.0.0.1',
      'not an address',
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
  });
});
