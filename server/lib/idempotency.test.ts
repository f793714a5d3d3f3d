import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../testing';
import { KEY_REUSED, withIdempotency } from './idempotency';

describe('Idempotency-Key', () => {
  let app: FastifyInstance;
  let stored: string[];

  beforeEach(async () => {
    stored = [];
    app = await createTestApp();
    app.post('/echo', async (request, reply) => {
      const answer = await withIdempotency(app, request, 'echo', async () => {
        const body = request.body as { text: string; fail?: boolean };
        if (body.fail) throw new Error('database down');
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
});
