import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STAFF_STREAM_HEARTBEAT_MS, StaffEvent } from '../../contract/staff-events';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

/**
 * The staff event stream over real HTTP (docs/decisions/035-staff-stream.md): each person hears of
 * the records they may read, a signed-out session's stream ends at once (one ended elsewhere at the
 * next heartbeat), and the app's close ends every stream. SQLite, and PostgreSQL with TEST_DATABASE_URL.
 */

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '1000' });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

/** Opens the stream with `cookie`; collects its events; `ended` resolves when the server ends it. */
function open(cookie?: string, at = base) {
  const events: StaffEvent[] = [];
  let text = '';
  let status = 0;
  let contentType = '';
  let request!: http.ClientRequest;
  let closed = false;
  const ended = new Promise<void>((resolve, reject) => {
    // a stream this test closed itself ends with the abort it caused
    const failed = (err: Error) => (closed ? resolve() : reject(err));
    request = http.get(`${at}/api/admin/events`, { headers: cookie ? { cookie } : {} }, (res) => {
      status = res.statusCode ?? 0;
      contentType = String(res.headers['content-type']);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        for (const block of text.split('\n\n').slice(0, -1)) {
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data) events.push(StaffEvent.parse(JSON.parse(data)));
        }
        text = text.slice(text.lastIndexOf('\n\n') + 2);
      });
      res.on('end', resolve);
      res.on('error', failed);
    });
    request.on('error', failed);
  });
  return {
    events,
    ended,
    status: () => status,
    contentType: () => contentType,
    close: () => {
      closed = true;
      request.destroy();
    },
  };
}

const contact = (name: string) =>
  app.inject({
    method: 'POST',
    url: '/api/contact-messages',
    payload: { name, email: 'writer@revista.example', company: '', message: 'Hola' },
  });

describe('the staff event stream', () => {
  it('refuses a visitor without a session', async () => {
    const res = await fetch(`${base}/api/admin/events`);
    expect(res.status).toBe(401);
  });

  it('tells each person of the records they may read, and nobody of the others', async () => {
    const recruiter = await signInAs(app, { role: 'recruiter' });
    const editor = await signInAs(app, { role: 'editor' });
    const theirs = open(recruiter.cookie);
    const others = open(editor.cookie);
    await vi.waitFor(() => expect(app.staffStream.size()).toBe(2));
    expect(theirs.status()).toBe(200);
    expect(theirs.contentType()).toBe('text/event-stream; charset=utf-8');

    const res = await contact('José Martínez');
    const id = res.json<{ message_id: number }>().message_id;
    await vi.waitFor(() => expect(theirs.events).toContainEqual({ type: 'message.received', ids: [id] }));
    // the writer's words and address are never in the stream, and the mail queue is not theirs
    expect(JSON.stringify(theirs.events)).not.toContain('José');
    expect(theirs.events.map((e) => e.type)).not.toContain('mail.queued');
    expect(others.events).toEqual([]);

    // a colleague deletes it: the recruiter hears, the one who deleted it does not (their screen knows)
    const owner = await signInAs(app, { role: 'owner' });
    const ownStream = open(owner.cookie);
    await vi.waitFor(() => expect(app.staffStream.size()).toBe(3));
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/admin/contact-messages/${id}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(200);
    await vi.waitFor(() => expect(theirs.events).toContainEqual({ type: 'message.deleted', ids: [id] }));
    await contact('Someone else'); // an event after it, to know the owner's stream is up to date
    await vi.waitFor(() => expect(ownStream.events.map((e) => e.type)).toContain('message.received'));
    expect(ownStream.events.map((e) => e.type)).not.toContain('message.deleted');
    for (const s of [theirs, others, ownStream]) s.close();
    await vi.waitFor(() => expect(app.staffStream.size()).toBe(0));
  });

  it("tells those who manage users of each mail's delivery (the Mail screen), and no one else", async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const recruiter = await signInAs(app, { role: 'recruiter' });
    const mailScreen = open(owner.cookie);
    const inbox = open(recruiter.cookie);
    await vi.waitFor(() => expect(app.staffStream.size()).toBe(2));
    // what the sender announces after an attempt (mail/sender.ts; mail.test.ts sends real mail)
    app.events.publish({ type: 'mail.delivery', mail_id: 41, status: 'sent' });
    app.events.publish({ type: 'message.received', message_id: 7 });
    await vi.waitFor(() => expect(inbox.events).toEqual([{ type: 'message.received', ids: [7] }]));
    await vi.waitFor(() => expect(mailScreen.events).toHaveLength(2));
    expect(mailScreen.events[0]).toEqual({ type: 'mail.delivery', ids: [41] });
    mailScreen.close();
    inbox.close();
    await vi.waitFor(() => expect(app.staffStream.size()).toBe(0));
  });

  it('ends at once when its session signs out', async () => {
    const owner = await signInAs(app, { role: 'owner' });
    const stream = open(owner.cookie);
    await vi.waitFor(() => expect(app.staffStream.size()).toBe(1));
    const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: owner.headers });
    expect(out.statusCode).toBe(200);
    await stream.ended; // no heartbeat needed
    expect(app.staffStream.size()).toBe(0);
  });

  it('ends at the next heartbeat once its session ended elsewhere, without keeping it alive', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const owner = await signInAs(app, { role: 'owner' });
      const stream = open(owner.cookie);
      await vi.waitFor(() => expect(app.staffStream.size()).toBe(1));
      await vi.advanceTimersByTimeAsync(STAFF_STREAM_HEARTBEAT_MS);
      expect(app.staffStream.size()).toBe(1); // still signed in: a heartbeat, and on
      // its session is deleted the way another process's sign-out or a reset does
      await app.db.deleteFrom('admin_session').where('user_id', '=', owner.userId).execute();
      await vi.advanceTimersByTimeAsync(STAFF_STREAM_HEARTBEAT_MS);
      await stream.ended;
      expect(app.staffStream.size()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not hold up the app when it closes', async () => {
    const other = await createTestApp();
    const address = await other.listen({ host: '127.0.0.1', port: 0 });
    const owner = await signInAs(other, { role: 'owner' });
    const response = await fetch(`${address}/api/admin/events`, { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    const reading = response.text();
    await other.close();
    await expect(reading).resolves.toContain('retry: 5000');
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('the staff event stream across processes (needs TEST_REDIS_URL)', () => {
  it('a change made in one process reaches the streams another process serves', async () => {
    const shared = {
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: `staff-events-test-${Date.now()}:`,
    };
    const one = await createTestApp(shared);
    const other = await createTestApp(shared);
    try {
      const address = await other.listen({ host: '127.0.0.1', port: 0 });
      const recruiter = await signInAs(other, { role: 'recruiter' });
      const stream = open(recruiter.cookie, address);
      await vi.waitFor(() => expect(other.staffStream.size()).toBe(1));
      one.events.publish({ type: 'message.deleted', message_id: 12 });
      await vi.waitFor(() => expect(stream.events).toEqual([{ type: 'message.deleted', ids: [12] }]));
      stream.close();
    } finally {
      await one.close();
      await other.close();
    }
  });
});
