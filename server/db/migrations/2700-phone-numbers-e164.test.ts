import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing';
import { addApplication, addOpening } from '../application-list.testing';
import { down, up } from './2700-phone-numbers-e164';

/** The E.164 migration on the database of the run (SQLite, or PostgreSQL with TEST_DATABASE_URL). */
describe('migration 2700: phone numbers in E.164', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('puts +91 before the ten Indian digits of earlier applications, and nothing else changes', async () => {
    const job = await addOpening(app, 'Proofreader');
    const numbers = ['9876543210', '+4930901820', '12345', '98765 43210', '98765432101'];
    for (const [i, number] of numbers.entries())
      await addApplication(app, {
        jobId: job,
        name: `Writer ${i}`,
        email: `w${i}@example.com`,
        number,
        at: new Date(),
      });
    const stored = async () =>
      (
        await app.db
          .selectFrom('job_application')
          .select('contact_number')
          .orderBy('application_id')
          .execute()
      ).map((r) => r.contact_number);
    await up(app.db);
    expect(await stored()).toEqual(['+919876543210', '+4930901820', '12345', '98765 43210', '98765432101']);
    await up(app.db); // twice: nothing more
    expect((await stored())[0]).toBe('+919876543210');
    await down(app.db);
    expect((await stored())[0]).toBe('9876543210');
  });
});
