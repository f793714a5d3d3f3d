import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CLAIM_MS,
  cancelOutboxItem,
  claimOutboxItem,
  closeOutbox,
  deliverWithFetch,
  enqueue,
  flushOutbox,
  getOutboxItem,
  listOutbox,
  onOutboxMessage,
  pendingCount,
  requestFor,
  type Deliver,
  type OutboxMessage,
} from './send-queue';

const contact = (name = 'Asha Menon') => ({
  kind: 'contact' as const,
  label: name,
  url: '/api/contact-messages',
  body: { type: 'json' as const, data: { name, email: 'asha@example.com', message: 'Hello' } },
});

const application = () => ({
  kind: 'application' as const,
  label: 'Copy Editor',
  url: '/api/manage-job-applications',
  body: {
    type: 'form' as const,
    fields: { job_id: '7', full_name: 'Asha Menon' },
    files: { resume: { blob: new Blob(['%PDF-1.4 cv'], { type: 'application/pdf' }), name: 'asha-cv.pdf' } },
  },
});

async function reset() {
  await closeOutbox();
  await new Promise<void>((resolve, reject) => {
    const req = indexedDB.deleteDatabase('manna-outbox');
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
    req.onblocked = () => resolve();
  });
}

/** A fake server that honours Idempotency-Key like server/lib/idempotency.ts. */
function fakeServer() {
  const stored = new Map<string, unknown>();
  let reachable = true;
  const deliver: Deliver = async (item) => {
    if (!reachable) return { outcome: 'retry', reason: 'Failed to fetch' };
    if (!stored.has(item.id)) stored.set(item.id, item.body);
    return { outcome: 'sent', message: 'Thank you!' };
  };
  return {
    deliver,
    stored,
    down: () => {
      reachable = false;
    },
    up: () => {
      reachable = true;
    },
  };
}

describe('the send queue', () => {
  beforeEach(reset);
  afterEach(reset);

  it('keeps a message on the device, with its key, until it is sent', async () => {
    const item = await enqueue(contact());
    expect(item.id).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    const [kept] = await listOutbox();
    expect(kept).toMatchObject({
      id: item.id,
      kind: 'contact',
      label: 'Asha Menon',
      status: 'waiting',
      attempts: 0,
    });
    expect(await pendingCount()).toBe(1);
  });

  it('keeps the CV of an application as a Blob with its name', async () => {
    await enqueue(application());
    const [kept] = await listOutbox('application');
    expect(kept.body.type).toBe('form');
    if (kept.body.type !== 'form') return;
    const cv = kept.body.files.resume;
    expect(cv.name).toBe('asha-cv.pdf');
    expect(cv.blob).toBeInstanceOf(Blob);
    expect(await cv.blob.text()).toBe('%PDF-1.4 cv');
  });

  it('lists the entries oldest first and by kind', async () => {
    await enqueue(contact('second'), 2000);
    await enqueue(contact('first'), 1000);
    await enqueue(application(), 1500);
    expect((await listOutbox()).map((i) => i.label)).toEqual(['first', 'Copy Editor', 'second']);
    expect((await listOutbox('contact')).map((i) => i.label)).toEqual(['first', 'second']);
  });

  it('keeps the key the submission already used', async () => {
    const item = await enqueue({ ...contact(), id: 'key-of-the-first-attempt' });
    expect(item.id).toBe('key-of-the-first-attempt');
  });

  it('sends each entry once and removes it', async () => {
    const server = fakeServer();
    await enqueue(contact());
    await enqueue(application());
    const result = await flushOutbox(server.deliver);
    expect(result).toEqual({ sent: 2, rejected: 0, remaining: 0 });
    expect(server.stored.size).toBe(2);
    expect(await listOutbox()).toEqual([]);
  });

  it('keeps entries waiting while the server cannot be reached, then sends them', async () => {
    const server = fakeServer();
    server.down();
    await enqueue(contact());
    expect(await flushOutbox(server.deliver)).toEqual({ sent: 0, rejected: 0, remaining: 1 });
    const [waiting] = await listOutbox();
    expect(waiting).toMatchObject({ status: 'waiting', attempts: 1, error: 'Failed to fetch' });
    server.up();
    expect(await flushOutbox(server.deliver)).toEqual({ sent: 1, rejected: 0, remaining: 0 });
    expect(server.stored.size).toBe(1);
  });

  it('never sends the same entry twice when two senders start together', async () => {
    const calls: string[] = [];
    const deliver: Deliver = async (item) => {
      calls.push(item.id);
      await new Promise((r) => setTimeout(r, 5));
      return { outcome: 'sent', message: '' };
    };
    await enqueue(contact());
    await Promise.all([flushOutbox(deliver), flushOutbox(deliver), flushOutbox(deliver)]);
    expect(calls).toHaveLength(1);
  });

  it('keeps an entry the server refused as failed, with the reason, and does not send it again', async () => {
    const deliver = vi.fn<Deliver>(async () => ({
      outcome: 'rejected',
      message: 'Only PDF, DOC, DOCX allowed',
    }));
    const item = await enqueue(application());
    expect(await flushOutbox(deliver)).toEqual({ sent: 0, rejected: 1, remaining: 0 });
    expect(await getOutboxItem(item.id)).toMatchObject({
      status: 'failed',
      error: 'Only PDF, DOC, DOCX allowed',
    });
    await flushOutbox(deliver);
    expect(deliver).toHaveBeenCalledTimes(1);
    expect(await pendingCount()).toBe(0);
  });

  it('treats a sender that throws like no connection', async () => {
    await enqueue(contact());
    const result = await flushOutbox(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(result.remaining).toBe(1);
  });

  it('cancel removes a waiting entry so it is never sent', async () => {
    const server = fakeServer();
    const item = await enqueue(contact());
    expect(await cancelOutboxItem(item.id)).toBe(true);
    await flushOutbox(server.deliver);
    expect(server.stored.size).toBe(0);
    expect(await listOutbox()).toEqual([]);
  });

  it('cannot cancel an entry while it is being sent', async () => {
    let release!: () => void;
    const item = await enqueue(contact());
    const sending = flushOutbox(
      () =>
        new Promise((resolve) => {
          release = () => resolve({ outcome: 'sent', message: '' });
        }),
    );
    await vi.waitFor(async () => expect((await getOutboxItem(item.id))?.status).toBe('sending'));
    expect(await cancelOutboxItem(item.id)).toBe(false);
    release();
    await sending;
    expect(await listOutbox()).toEqual([]);
  });

  it('resends an entry left "sending" by a page that closed mid-send, with the same key', async () => {
    const server = fakeServer();
    const item = await enqueue(contact());
    // the first attempt reached the server, then the page closed before the answer came
    server.stored.set(item.id, item.body);
    const db = await import('idb').then((m) => m.openDB('manna-outbox', 1));
    await db.put('items', { ...item, status: 'sending', attempts: 1, lastAttemptAt: Date.now() - 120_000 });
    db.close();
    const result = await flushOutbox(server.deliver);
    expect(result.sent).toBe(1);
    expect(server.stored.size).toBe(1);
  });

  it('an entry left "sending" becomes stale after 60 s: then it may be cancelled, or is resent once with its key', async () => {
    // Only the clock is fake; IndexedDB and its callbacks run as usual.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-05-01T10:00:00Z') });
    try {
      const server = fakeServer();
      const left = await enqueue(contact());
      const other = await enqueue(contact());
      const db = await import('idb').then((m) => m.openDB('manna-outbox', 1));
      for (const item of [left, other]) {
        await db.put('items', { ...item, status: 'sending', attempts: 1, lastAttemptAt: Date.now() });
      }
      db.close();
      // 59 s on, the page that was sending may still be at it: it cannot be taken back
      vi.setSystemTime(Date.now() + 59_000);
      expect(await cancelOutboxItem(left.id)).toBe(false);
      // 61 s on, nobody holds the sender's lock and the attempt is stale: it can be cancelled
      vi.setSystemTime(Date.now() + 2_000);
      expect(await cancelOutboxItem(left.id)).toBe(true);
      // and the other one is resent by the next sender, once, with the key it was first sent with
      const result = await flushOutbox(server.deliver);
      expect(result).toEqual({ sent: 1, rejected: 0, remaining: 0 });
      expect([...server.stored.keys()]).toEqual([other.id]);
      expect(await listOutbox()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('announces additions, sends and refusals to other tabs', async () => {
    const heard: OutboxMessage[] = [];
    const stop = onOutboxMessage((m) => heard.push(m));
    const item = await enqueue(contact());
    await flushOutbox(async () => ({ outcome: 'sent', message: 'Thank you!' }));
    await vi.waitFor(() => expect(heard.some((m) => m.type === 'sent')).toBe(true));
    stop();
    expect(heard[0]).toEqual({ type: 'added', id: item.id, kind: 'contact' });
    expect(heard.find((m) => m.type === 'sent')).toEqual({
      type: 'sent',
      id: item.id,
      kind: 'contact',
      label: 'Asha Menon',
      message: 'Thank you!',
    });
  });
});

describe('back-office changes in the send queue', () => {
  beforeEach(reset);
  afterEach(reset);

  const change = (owner: number, location = 'Remote') => ({
    kind: 'job-opening' as const,
    label: 'Copy Editor',
    url: '/api/manage-job-openings',
    body: { type: 'json' as const, data: { mode: 2, job_id: 7, location } },
    headers: { 'If-Match': '"3"', 'X-Manna-CSRF': '1' },
    owner,
    edit: { recordId: 7, version: 3, base: { location: 'Kochi' }, values: { location } },
  });

  it('are listed and sent only for their author; public senders leave them alone', async () => {
    await enqueue(change(1));
    await enqueue(change(2, 'Berlin'));
    await enqueue(contact());
    expect((await listOutbox('job-opening', 1)).map((i) => i.body)).toEqual([change(1).body]);
    expect(await listOutbox('job-opening')).toEqual([]);
    expect(await listOutbox('contact')).toHaveLength(1);
    expect(await pendingCount()).toBe(1);
    expect(await pendingCount(2)).toBe(1);

    const server = fakeServer();
    expect(await flushOutbox(server.deliver)).toMatchObject({ sent: 1 });
    expect([...server.stored.values()]).toEqual([contact().body]);
    expect(await flushOutbox(server.deliver, Date.now, 2)).toMatchObject({ sent: 1 });
    expect([...server.stored.values()].at(-1)).toEqual(change(2, 'Berlin').body);
    // the first person's change still waits for them
    expect((await listOutbox('job-opening', 1))[0].status).toBe('waiting');
  });

  it("one that met someone else's change is kept as a conflict with their record, never sent again by itself", async () => {
    const kept = await enqueue(change(1));
    const heard: OutboxMessage[] = [];
    const stop = onOutboxMessage((m) => heard.push(m));
    const theirs = {
      message: 'changed',
      current: { job_id: 7, version: 4 },
      changed_by: 'sam@example.com',
      changed_at: null,
    };
    const deliver = vi.fn<Deliver>(async () => ({ outcome: 'conflict', message: 'changed', body: theirs }));
    expect(await flushOutbox(deliver, Date.now, 1)).toMatchObject({ sent: 0, rejected: 1 });
    const item = await getOutboxItem(kept.id);
    expect(item).toMatchObject({ status: 'conflict', conflict: theirs, edit: change(1).edit });
    expect(await pendingCount(1)).toBe(0);
    await flushOutbox(deliver, Date.now, 1);
    expect(deliver).toHaveBeenCalledTimes(1);
    await vi.waitFor(() =>
      expect(heard).toContainEqual(expect.objectContaining({ type: 'conflict', id: kept.id, owner: 1 })),
    );
    stop();
    // the author resolves it in the editor, which then removes the entry
    expect(await cancelOutboxItem(kept.id)).toBe(true);
    expect(await listOutbox('job-opening', 1)).toEqual([]);
  });
});

describe('a change taken up by one tab', () => {
  beforeEach(reset);
  afterEach(reset);
  const change = {
    kind: 'job-opening' as const,
    label: 'Copy Editor',
    url: '/api/manage-job-openings',
    body: { type: 'json' as const, data: { mode: 2, job_id: 7 } },
    owner: 1,
  };

  it("is the first tab's: another tab hearing the same conflict leaves it, unless the person picks it there", async () => {
    const { id } = await enqueue(change);
    const [first, second] = await Promise.all([
      claimOutboxItem(id, 'tab-a', { now: 1_000 }),
      claimOutboxItem(id, 'tab-b', { now: 1_000 }),
    ]);
    expect([first, second].sort()).toEqual([false, true]);
    const holder = first ? 'tab-a' : 'tab-b';
    const other = first ? 'tab-b' : 'tab-a';
    expect(await claimOutboxItem(id, holder, { now: 2_000 })).toBe(true);
    expect(await claimOutboxItem(id, other, { now: 2_000, force: true })).toBe(true);
    // a claim left by a tab that closed lapses
    expect(await claimOutboxItem(id, holder, { now: 2_000 + CLAIM_MS + 1 })).toBe(true);
    expect(await claimOutboxItem('gone', 'tab-a')).toBe(false);
  });
});

describe('sending one entry over HTTP', () => {
  afterEach(() => vi.unstubAllGlobals());

  const item = (over: Partial<Awaited<ReturnType<typeof enqueue>>> = {}) => ({
    id: 'f0c3c6d2-2b1e-4d0a-9a51-3f1a2f6e9b10',
    kind: 'contact' as const,
    label: 'Asha',
    url: '/api/contact-messages',
    body: { type: 'json' as const, data: { name: 'Asha' } },
    status: 'waiting' as const,
    createdAt: 0,
    attempts: 0,
    ...over,
  });

  it('carries the Idempotency-Key and the JSON body', async () => {
    const init = requestFor(item());
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({
      'Idempotency-Key': 'f0c3c6d2-2b1e-4d0a-9a51-3f1a2f6e9b10',
      'Content-Type': 'application/json',
    });
    expect(JSON.parse(init.body as string)).toEqual({ name: 'Asha' });
  });

  it('sends an application as multipart with the CV file and its name', async () => {
    const init = requestFor(
      item({ kind: 'application', url: '/api/manage-job-applications', body: application().body }),
    );
    const form = init.body as FormData;
    expect(form.get('job_id')).toBe('7');
    const cv = form.get('resume') as File;
    expect(cv.name).toBe('asha-cv.pdf');
    expect(await cv.text()).toBe('%PDF-1.4 cv');
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  const answer = (status: number, body: unknown) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(body), { status })),
    );

  it('a 2xx is sent, with the server message', async () => {
    answer(201, { Message: 'Application submitted successfully!', application_id: 4 });
    expect(await deliverWithFetch(item())).toEqual({
      outcome: 'sent',
      message: 'Application submitted successfully!',
    });
  });

  it('a 2xx without a JSON body is sent too', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 201 })),
    );
    expect(await deliverWithFetch(item())).toEqual({ outcome: 'sent', message: '' });
  });

  it('no answer, 409, 429 and 5xx are tried again later', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect((await deliverWithFetch(item())).outcome).toBe('retry');
    for (const status of [409, 429, 500, 503]) {
      answer(status, { message: 'busy' });
      expect((await deliverWithFetch(item())).outcome).toBe('retry');
    }
  });

  it('a back-office change goes with its method and headers; a 409 with the record now is a conflict, a 401 waits', async () => {
    const init = requestFor(
      item({ kind: 'job-opening', method: 'PATCH', headers: { 'If-Match': '"3"', 'X-Manna-CSRF': '1' } }),
    );
    expect(init.method).toBe('PATCH');
    expect(init.headers).toMatchObject({
      'If-Match': '"3"',
      'X-Manna-CSRF': '1',
      'Idempotency-Key': item().id,
    });
    const body = {
      message: 'Someone else changed this record',
      current: { job_id: 7 },
      changed_by: null,
      changed_at: null,
    };
    answer(409, body);
    expect(await deliverWithFetch(item())).toEqual({ outcome: 'conflict', message: body.message, body });
    answer(401, { message: 'Sign in' });
    expect((await deliverWithFetch(item())).outcome).toBe('retry');
  });

  it('another 4xx is refused with the server message', async () => {
    answer(415, { message: 'Only PDF, DOC, DOCX allowed' });
    expect(await deliverWithFetch(item())).toEqual({
      outcome: 'rejected',
      message: 'Only PDF, DOC, DOCX allowed',
    });
  });
});
