import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addApplication, addOpening } from '../db/application-list.testing';
import { createSqliteTestApp, createTestApp } from '../testing';
import { insertContactMessage } from '../db/contact.repo';
import {
  purgeExpiredApplications,
  purgeExpiredMessages,
  RETENTION_TASK,
  retentionCutoff,
  runRetentionTask,
} from './retention';
import { takeLease, taskState } from '../db/scheduled-task.repo';
import { RETENTION_CHECK_MS, RETENTION_FIRST_CHECK_MS } from '../plugins/scheduled-tasks';

/** Candidates' data rights: the retention purge with a clock, and its lease (one process runs it). */

let app: FastifyInstance;
let jobId: number;
const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-06-01T03:00:00.000Z');
const daysBefore = (n: number, from = now) => new Date(from.getTime() - n * DAY);

beforeAll(async () => {
  app = await createTestApp();
  jobId = await addOpening(app, 'Indexer');
});
afterAll(() => app.close());

const stored = async () =>
  (await app.db.selectFrom('job_application').select('full_name').orderBy('application_id').execute()).map(
    (r) => r.full_name,
  );

describe('purgeExpiredApplications', () => {
  it('deletes applications stored more than the retention days ago with their CVs, keeps the rest, logs and audits', async () => {
    const old = await addApplication(app, {
      jobId,
      name: 'Old Applicant',
      email: 'old@example.com',
      at: daysBefore(400),
    });
    const edge = await addApplication(app, {
      jobId,
      name: 'Edge Applicant',
      email: 'edge@example.com',
      at: daysBefore(365),
    });
    const recent = await addApplication(app, {
      jobId,
      name: 'Recent Applicant',
      email: 'recent@example.com',
      at: daysBefore(10),
    });
    const logged: unknown[] = [];
    const log = { info: (...a: unknown[]) => logged.push(a), warn: () => {}, error: () => {} };

    const result = await purgeExpiredApplications(app.services(), { retentionDays: 365, now, log });

    expect(result).toEqual({ deleted: 1, cutoff: retentionCutoff(now, 365) });
    expect(await stored()).toEqual(['Edge Applicant', 'Recent Applicant']);
    expect(await app.storage.exists(old.key)).toBe(false);
    expect(await app.storage.exists(edge.key)).toBe(true);
    expect(await app.storage.exists(recent.key)).toBe(true);
    expect(
      await app.db.selectFrom('stored_file').select('file_key').where('file_key', '=', old.key).execute(),
    ).toEqual([]);
    expect(JSON.stringify(logged)).toContain('Retention purge: 1 application(s)');
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'retention_purge')
      .execute();
    expect(audit.map((a) => [a.actor_email, a.entity, a.detail])).toEqual([
      [null, 'job_application', '{"deleted":1,"retention_days":365}'],
    ]);

    // a day later the edge one has passed the limit too
    const next = await purgeExpiredApplications(app.services(), {
      retentionDays: 365,
      now: new Date(now.getTime() + DAY),
    });
    expect(next.deleted).toBe(1);
    expect(await stored()).toEqual(['Recent Applicant']);
    expect(await app.storage.exists(edge.key)).toBe(false);
  });

  it('follows a shorter setting and handles more than one batch', async () => {
    for (let i = 0; i < 205; i++)
      await addApplication(app, {
        jobId,
        name: `Batch ${i}`,
        email: `b${i}@example.com`,
        at: daysBefore(40),
      });
    const result = await purgeExpiredApplications(app.services(), { retentionDays: 30, now });
    expect(result.deleted).toBe(205);
    expect(await stored()).toEqual(['Recent Applicant']);
  }, 30_000);
});

describe('purgeExpiredMessages', () => {
  it('deletes contact messages older than MESSAGE_RETENTION_DAYS, keeps the rest, and audits the count', async () => {
    const message = (name: string, at: Date) =>
      insertContactMessage(
        app.db,
        {
          name,
          email: 'w@example.com',
          company: '',
          message: 'Hello there',
          lang: 'en',
          idempotency_key: null,
        },
        at,
      );
    await message('Old Writer', daysBefore(800));
    await message('Recent Writer', daysBefore(700));
    expect(app.config.MESSAGE_RETENTION_DAYS).toBe(730);
    const result = await purgeExpiredMessages(app.services(), {
      retentionDays: app.config.MESSAGE_RETENTION_DAYS,
      now,
    });
    expect(result.deleted).toBe(1);
    const left = await app.db.selectFrom('contact_message').select('name').execute();
    expect(left.map((r) => r.name)).toEqual(['Recent Writer']);
    const audit = await app.db
      .selectFrom('audit_log')
      .select('detail')
      .where('entity', '=', 'contact_message')
      .execute();
    expect(audit.map((a) => a.detail)).toEqual(['{"deleted":1,"retention_days":730}']);
  });
});

describe('runRetentionTask (the lease)', () => {
  it('runs once a day however many processes ask, and again the next day', async () => {
    await addApplication(app, {
      jobId,
      name: 'Expired Again',
      email: 'again@example.com',
      at: daysBefore(500),
    });
    const at = new Date('2026-06-02T04:00:00.000Z');
    const [a, b] = await Promise.all([
      runRetentionTask(app.services(), { retentionDays: 365, now: at, holder: 'process-a' }),
      runRetentionTask(app.services(), { retentionDays: 365, now: at, holder: 'process-b' }),
    ]);
    expect([a, b].filter((r) => r !== null)).toHaveLength(1);
    expect([a, b].find((r) => r !== null)?.deleted).toBe(1);
    const state = await taskState(app.db, RETENTION_TASK);
    expect(state).toMatchObject({
      holder: null,
      lease_until: '',
      last_run_at: at.toISOString(),
      last_result: 'deleted 1, mails 0, blog images 0',
    });

    // an hour later: not due
    const later = new Date(at.getTime() + 60 * 60 * 1000);
    expect(
      await runRetentionTask(app.services(), { retentionDays: 365, now: later, holder: 'process-b' }),
    ).toBeNull();
    // a day later: due again
    const tomorrow = new Date(at.getTime() + DAY);
    expect(
      await runRetentionTask(app.services(), { retentionDays: 365, now: tomorrow, holder: 'process-b' }),
    ).toEqual({
      deleted: 0,
      cutoff: retentionCutoff(tomorrow, 365),
    });
  });

  it('lets nobody else in while a run holds the lease, until the lease has expired (a crashed holder)', async () => {
    const start = new Date('2026-07-01T00:00:00.000Z');
    const o = { holder: 'crashed', now: start, leaseMs: 30 * 60 * 1000, everyMs: DAY };
    expect(await takeLease(app.db, 'test-task', o)).toBe(true);
    expect(
      await takeLease(app.db, 'test-task', {
        ...o,
        holder: 'other',
        now: new Date(start.getTime() + 10 * 60 * 1000),
      }),
    ).toBe(false);
    expect(
      await takeLease(app.db, 'test-task', {
        ...o,
        holder: 'other',
        now: new Date(start.getTime() + 31 * 60 * 1000),
      }),
    ).toBe(true);
  });

  it('frees the lease after a failed run, so the next check tries again', async () => {
    const broken = {
      ...app.storage,
      delete: async () => {
        throw new Error('disk is read-only');
      },
    };
    await addApplication(app, { jobId, name: 'Stuck File', email: 'stuck@example.com', at: daysBefore(900) });
    const at = new Date('2026-08-01T00:00:00.000Z');
    const errors: unknown[] = [];
    const log = { info: () => {}, warn: () => {}, error: (...a: unknown[]) => errors.push(a) };
    expect(
      await runRetentionTask(
        { ...app.services(), storage: broken },
        { retentionDays: 365, now: at, holder: 'p', log },
      ),
    ).toBeNull();
    expect(errors).toHaveLength(1);
    expect(await stored()).toContain('Stuck File'); // rolled back: row and file both still there
    expect(await taskState(app.db, RETENTION_TASK)).toMatchObject({
      holder: null,
      last_result: 'failed: disk is read-only',
    });
    const retry = await runRetentionTask(app.services(), {
      retentionDays: 365,
      now: new Date(at.getTime() + 60 * 60 * 1000),
      holder: 'p',
    });
    expect(retry?.deleted).toBe(1);
    expect(await stored()).not.toContain('Stuck File');
  });
});

describe('the retention schedule in the server', () => {
  it('checks a minute after start and then hourly, purges once a day, and stops when the server closes', async () => {
    // On SQLite whatever the run: the schedule is the same on both databases, and there every
    // pending timer is the schedule's own.
    const server = await createSqliteTestApp({ APPLICATION_RETENTION_DAYS: '180' });
    const job = await addOpening(server, 'Archivist');
    const start = new Date('2026-06-01T03:00:00.000Z');
    // Only the timers and the date are fake; the database and the files are real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: start });
    try {
      const names = async () =>
        (await server.db.selectFrom('job_application').select('full_name').execute()).map((r) => r.full_name);
      const runs = async () => (await taskState(server.db, RETENTION_TASK))?.last_result ?? null;
      /**
       * Lets a check that its timer started finish its real database and file work: it is done
       * when it has set the timer of the next check.
       */
      const settle = async () => {
        // real time (performance.now is not faked): a busy machine may take seconds for the
        // purge's database and file work; a count of event-loop turns was too short once
        const deadline = performance.now() + 20_000;
        while (vi.getTimerCount() === 0 && performance.now() < deadline) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        expect(vi.getTimerCount()).toBe(1);
      };
      const checkAfter = async (ms: number) => {
        await vi.advanceTimersByTimeAsync(ms);
        await settle();
      };
      await addApplication(server, {
        jobId: job,
        name: 'Expired',
        email: 'e@example.com',
        at: daysBefore(200, start),
      });
      await addApplication(server, {
        jobId: job,
        name: 'Current',
        email: 'c@example.com',
        at: daysBefore(10, start),
      });
      await server.ready();
      expect(vi.getTimerCount()).toBe(1);

      await vi.advanceTimersByTimeAsync(RETENTION_FIRST_CHECK_MS - 1000);
      expect(await names()).toEqual(['Expired', 'Current']);
      expect(await runs()).toBeNull();

      await checkAfter(1000);
      expect(await names()).toEqual(['Current']);
      expect(await runs()).toMatch(/^deleted 1/);

      // it checks every hour, but the day's run is done: an application that expired since
      // waits for the next day's run
      await addApplication(server, {
        jobId: job,
        name: 'Late',
        email: 'l@example.com',
        at: daysBefore(181, start),
      });
      for (let hour = 1; hour < 24; hour++) {
        await checkAfter(RETENTION_CHECK_MS);
        expect(await names(), `hour ${hour}`).toContain('Late');
      }
      await checkAfter(RETENTION_CHECK_MS);
      expect(await names()).toEqual(['Current']);

      // closing stops it: no check is left waiting
      await server.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
