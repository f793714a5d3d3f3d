import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../testing';
import { IDEMPOTENCY_WINDOW_MS, KEY_REUSED, withIdempotency } from './idempotency';

describe('Idempotency-Key', () => {
  let app: FastifyInstance;
  let stored: string[];
  /** While set, a request holds inside its run until `release()`: the first of two is still working. */
  let gate: Promise<void> | null;
  let release: () => void;

  beforeEach(async () => {
    stored = [];
    gate = null;
    app = await createTestApp();
    app.post('/echo', async (request, reply) => {
      const answer = await withIdempotency(app, request, 'echo', async () => {
        const body = request.body as { text: string; fail?: boolean };
        if (body.fail) throw new Error('database down');
        if (gate) await gate;
        stored.push(body.text);
        return { status: 201, body: { message: 'stored', n: stored.length } };
      });
      return reply.code(answer.status).send(answer.body);
    });
  });
  afterEach(() => app.close());

  const post = (payload: object, key?: string) =>
    app.inject({ method: 'POST', url: '/echo', payload, headers: key ? { 'idempotency-key': key } : {} });

  it('returns the first answer for a repeated key and stores once', async () => {
    const key = '0b6f3a52-8a53-4d8e-9d7e-2c8a3c1c9e11';
    const first = await post({ text: 'a' }, key);
    const second = await post({ text: 'a' }, key);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(stored).toEqual(['a']);
  });

  it('refuses the key with a different body (422), and still replays it for the same body', async () => {
    const key = '3d0b9f7e-5c1a-4b8e-9f00-aa11bb22cc33';
    expect((await post({ text: 'a' }, key)).statusCode).toBe(201);
    const other = await post({ text: 'b' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe(KEY_REUSED);
    expect((await post({ text: 'a' }, key)).statusCode).toBe(201);
    expect(stored).toEqual(['a']);
  });

  it('runs every request without a key', async () => {
    await post({ text: 'a' });
    await post({ text: 'a' });
    expect(stored).toHaveLength(2);
  });

  it('refuses a malformed key', async () => {
    const res = await post({ text: 'a' }, 'bad key!');
    expect(res.statusCode).toBe(400);
    expect(stored).toHaveLength(0);
  });

  it('forgets the key when the first attempt failed, so a retry is processed', async () => {
    const key = 'retry-key-12345';
    const failed = await post({ text: 'a', fail: true }, key);
    expect(failed.statusCode).toBe(500);
    const retried = await post({ text: 'a' }, key);
    expect(retried.statusCode).toBe(201);
    expect(stored).toEqual(['a']);
  });

  const rows = () => app.db.selectFrom('idempotency_key').selectAll().where('scope', '=', 'echo').execute();

  it('the same key twice at once: one is processed (2xx), the other answers 409, one row is stored', async () => {
    const key = 'twice-at-once-0001';
    gate = new Promise((resolve) => (release = resolve));
    const first = post({ text: 'a' }, key);
    // the first has reserved the key and is working when the second arrives
    await expect.poll(async () => (await rows()).length).toBe(1);
    const second = await post({ text: 'a' }, key);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('This submission is already being processed.');
    release();
    expect((await first).statusCode).toBe(201);
    expect(stored).toEqual(['a']);
    expect(await rows()).toHaveLength(1);
    // and once it is done, a repeat gets its answer
    expect((await post({ text: 'a' }, key)).json()).toEqual({ message: 'stored', n: 1 });
  });

  it('many requests with one key at once store once, and none fails', async () => {
    const key = 'many-at-once-0001';
    const answers = await Promise.all(Array.from({ length: 8 }, () => post({ text: 'a' }, key)));
    for (const a of answers) expect([201, 409]).toContain(a.statusCode);
    expect(answers.filter((a) => a.statusCode === 201).length).toBeGreaterThanOrEqual(1);
    expect(stored).toEqual(['a']);
    expect(await rows()).toHaveLength(1);
  });

  it('forgets a key older than its 24-hour window: the same key then makes a new submission', async () => {
    const key = 'day-old-key-0001';
    expect((await post({ text: 'a' }, key)).statusCode).toBe(201);
    const old = new Date(Date.now() - IDEMPOTENCY_WINDOW_MS - 60_000).toISOString();
    await app.db.updateTable('idempotency_key').set({ created_at: old }).where('key', '=', key).execute();
    const again = await post({ text: 'a' }, key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ message: 'stored', n: 2 });
    expect(stored).toEqual(['a', 'a']);
    expect(await rows()).toHaveLength(1);
    // one hour short of the window it is still remembered
    const recent = new Date(Date.now() - IDEMPOTENCY_WINDOW_MS + 3_600_000).toISOString();
    await app.db.updateTable('idempotency_key').set({ created_at: recent }).where('key', '=', key).execute();
    expect((await post({ text: 'a' }, key)).json()).toEqual({ message: 'stored', n: 2 });
  });
});
