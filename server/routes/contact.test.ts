import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createTestApp } from '../testing';
import { CONTACT_MESSAGES as M } from '../../contract/contact';

const valid = {
  name: 'Asha Menon',
  email: 'asha@journal.example',
  company: 'Kerala Journal of Botany',
  message: 'We publish four issues a year and would like a demo of the review workflow.',
};

describe('POST /api/contact-messages', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  const post = (payload: unknown, headers: Record<string, string> = {}, remoteAddress = '198.51.100.1') =>
    app.inject({
      method: 'POST',
      url: '/api/contact-messages',
      payload: payload as object,
      headers,
      remoteAddress,
    });
  const rows = () => app.db.selectFrom('contact_message').selectAll().execute();

  /** Makes every statement of `kind` on `table` fail, on SQLite or PostgreSQL. */
  async function breakTable(table: string, kind: 'insert' | 'update') {
    if (app.dialect === 'postgres') {
      await sql
        .raw(
          `create or replace function fail_always() returns trigger as $$ begin raise exception 'disk on fire'; end $$ language plpgsql;
           create trigger fail_${table}_${kind} before ${kind} on ${table} for each row execute function fail_always();`,
        )
        .execute(app.db);
    } else {
      await sql
        .raw(
          `create trigger fail_${table}_${kind} before ${kind} on ${table} begin select raise(fail, 'disk on fire'); end`,
        )
        .execute(app.db);
    }
  }

  it('stores a valid message and answers 201 with its id', async () => {
    app = await createTestApp();
    const res = await post({ ...valid, lang: 'ml' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe(M.success);
    expect(body.message_id).toBeGreaterThan(0);
    const [row] = await rows();
    expect(row).toMatchObject({ ...valid, message_id: body.message_id, lang: 'ml', handled: 0 });
    expect(new Date(row.created_at).toISOString()).toBe(row.created_at);
  });

  it('takes the company as optional and trims every field', async () => {
    app = await createTestApp();
    const res = await post({ name: '  Ravi  ', email: ' ravi@example.org ', message: '  Hello  ' });
    expect(res.statusCode).toBe(201);
    const [row] = await rows();
    expect(row).toMatchObject({
      name: 'Ravi',
      email: 'ravi@example.org',
      company: '',
      message: 'Hello',
      lang: 'en',
    });
  });

  it.each([
    ['name', { name: '' }, M.nameRequired],
    ['name', { name: '   ' }, M.nameRequired],
    ['email', { email: '' }, M.emailRequired],
    ['email', { email: 'asha@journal' }, M.emailInvalid],
    ['email', { email: 'asha journal@example.org' }, M.emailInvalid],
    ['message', { message: '' }, M.messageRequired],
    ['name', { name: 'x'.repeat(201) }, M.nameTooLong],
    ['company', { company: 'x'.repeat(201) }, M.companyTooLong],
    ['message', { message: 'x'.repeat(5001) }, M.messageTooLong],
  ])('refuses an invalid %s with the message of the spec (%j)', async (field, change, message) => {
    app = await createTestApp();
    const res = await post({ ...valid, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ [field]: message });
    // the code the translated form shows its own text for
    const code = Object.entries(M).find(([, text]) => text === message)![0];
    expect(res.json().codes).toEqual({ [field]: code });
    expect(await rows()).toHaveLength(0);
  });

  it('names every missing field at once', async () => {
    app = await createTestApp();
    const res = await post({});
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      name: M.nameRequired,
      email: M.emailRequired,
      message: M.messageRequired,
    });
  });

  it('refuses a body that is not a JSON object, and one that is not JSON', async () => {
    app = await createTestApp();
    expect((await post([valid])).statusCode).toBe(400);
    const broken = await app.inject({
      method: 'POST',
      url: '/api/contact-messages',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(await rows()).toHaveLength(0);
  });

  it('refuses an oversized body with 413 before reading it', async () => {
    app = await createTestApp();
    const res = await post({ ...valid, message: 'x'.repeat(20_000) });
    expect(res.statusCode).toBe(413);
    expect(typeof res.json().message).toBe('string');
    expect(await rows()).toHaveLength(0);
  });

  it('answers a filled honeypot like a success and stores nothing', async () => {
    app = await createTestApp();
    const res = await post({ ...valid, website: 'https://spam.example' });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(M.success);
    expect(await rows()).toHaveLength(0);
    // even when the rest of the form is nonsense: the bot learns nothing
    expect((await post({ website: 'x' })).statusCode).toBe(201);
  });

  it('stores a repeated submission once and answers the repeat like the first', async () => {
    app = await createTestApp();
    const headers = { 'idempotency-key': '0f8fad5b-d9cb-469f-a165-70867728950e' };
    const first = await post(valid, headers);
    const second = await post(valid, headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await rows()).toHaveLength(1);
    // another key is another message
    await post(valid, { 'idempotency-key': '7c9e6679-7425-40de-944b-e07fc1f90ae7' });
    expect(await rows()).toHaveLength(2);
  });

  it('lets a refused submission be corrected and sent again with the same key', async () => {
    app = await createTestApp();
    const headers = { 'idempotency-key': '9b2d1f0a-1111-4c3e-8f00-123456789abc' };
    expect((await post({ ...valid, email: 'nope' }, headers)).statusCode).toBe(400);
    expect((await post(valid, headers)).statusCode).toBe(201);
    expect(await rows()).toHaveLength(1);
  });

  it('refuses the same Idempotency-Key with another message (422) and keeps the first', async () => {
    app = await createTestApp();
    const headers = { 'idempotency-key': '5e1d2c3b-4a59-4687-9a8b-7c6d5e4f3a2b' };
    expect((await post(valid, headers)).statusCode).toBe(201);
    const other = await post({ ...valid, message: 'A different message entirely.' }, headers);
    expect(other.statusCode).toBe(422);
    expect(other.json()).not.toHaveProperty('message_id');
    expect(await rows()).toHaveLength(1);
  });

  it('refuses a malformed Idempotency-Key', async () => {
    app = await createTestApp();
    const res = await post(valid, { 'idempotency-key': 'bad key!' });
    expect(res.statusCode).toBe(400);
    expect(await rows()).toHaveLength(0);
  });

  it('limits each client to RATE_LIMIT_PUBLIC_PER_MIN messages a minute', async () => {
    app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '3' });
    for (let i = 0; i < 3; i++) expect((await post(valid)).statusCode).toBe(201);
    const limited = await post(valid);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many requests/);
    expect((await post(valid, {}, '198.51.100.2')).statusCode).toBe(201);
    expect(await rows()).toHaveLength(4);
  });

  it('answers 503 with a message, not 500, when the database cannot store the message', async () => {
    app = await createTestApp();
    await breakTable('contact_message', 'insert');
    const res = await post(valid, { 'idempotency-key': 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee' });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/could not be sent/);
    expect(await rows()).toHaveLength(0);
  });

  it('never answers 5xx after the message was stored, even if the idempotency bookkeeping fails', async () => {
    app = await createTestApp();
    await breakTable('idempotency_key', 'update');
    const key = { 'idempotency-key': '12345678-aaaa-4bbb-8ccc-1234567890ab' };
    const first = await post(valid, key);
    expect(first.statusCode).toBe(201);
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(first.json().message_id).toBe(stored[0].message_id);
    // The retry of the same submission finds the stored message instead of a pending key.
    const retry = await post(valid, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().message_id).toBe(stored[0].message_id);
    expect(await rows()).toHaveLength(1);
  });
});
