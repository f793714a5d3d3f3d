import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { JobOpeningRow } from '../api/contract/jobs';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  everyTransition,
} from './testing/test-model';
import { adminOpeningsMachine, type AdminOpeningsEvent } from './admin-openings.machine';

const job = (job_id: number, job_title = `Job ${job_id}`): JobOpeningRow => ({
  job_id,
  job_title,
  department: 'Editorial',
  location: 'Kochi',
  job_type_id: 1,
  job_type_name: 'Full-time',
  description: '<p>Description text</p>',
  requirement: '<p>Requirement text</p>',
  about_role: '<p>About the role</p>',
  responsibility: '<p>Responsibilities</p>',
});
const TYPES = [{ job_type_id: 1, job_type_name: 'Full-time' }];

function start(
  deleteJob: () => Promise<{ message: string }> = async () => ({ message: 'Job deleted successfully' }),
) {
  const spies = { deleted: vi.fn(), failed: vi.fn() };
  const actor = createActor(
    adminOpeningsMachine.provide({
      actors: {
        loadList: fromPromise(async () => ({ jobs: [job(2), job(1)], jobTypes: TYPES })),
        deleteJob: fromPromise(deleteJob),
      },
      actions: {
        notifyDeleted: (_, p) => spies.deleted(p.message),
        notifyDeleteFailed: (_, p) => spies.failed(p.error),
      },
    }),
  ).start();
  return { actor, spies };
}

describe('admin openings list', () => {
  it('loads the jobs and job types', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.jobs.map((j) => j.job_id)).toEqual([2, 1]);
    expect(actor.getSnapshot().context.jobTypes).toEqual(TYPES);
  });

  it('shows a created job at once, first, and replaces an edited one in place', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'job.saved', mode: 'create', row: job(3, 'New') });
    actor.send({ type: 'job.saved', mode: 'edit', row: job(1, 'Edited') });
    expect(actor.getSnapshot().context.jobs.map((j) => j.job_title)).toEqual(['New', 'Job 2', 'Edited']);
  });

  it('asks before deleting; cancel keeps the job', async () => {
    const { actor, spies } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'delete.ask', job: job(2) });
    expect(actor.getSnapshot().matches('confirmingDelete')).toBe(true);
    actor.send({ type: 'delete.cancel' });
    expect(actor.getSnapshot().context.jobs).toHaveLength(2);
    expect(spies.deleted).not.toHaveBeenCalled();
  });

  it('removes the card and toasts after a confirmed delete', async () => {
    const { actor, spies } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'delete.ask', job: job(2) });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.jobs.map((j) => j.job_id)).toEqual([1]);
    expect(spies.deleted).toHaveBeenCalledWith('Job deleted successfully');
  });

  it('keeps the card and reports a failed delete', async () => {
    const { actor, spies } = start(async () => {
      throw new Error('Database is down');
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'delete.ask', job: job(2) });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.jobs).toHaveLength(2);
    expect(spies.failed).toHaveBeenCalledTimes(1);
  });
});

describe('admin openings list paths', () => {
  const events = [
    { type: 'list.retry' },
    { type: 'job.saved', mode: 'create', row: job(9) },
    { type: 'delete.ask', job: job(1) },
    { type: 'delete.confirm' },
    { type: 'delete.cancel' },
    { type: doneEvent('loadList'), output: { jobs: [job(1)], jobTypes: TYPES } },
    { type: errorEvent('loadList'), error: new Error('offline') },
    { type: doneEvent('deleteJob'), output: { message: 'Job deleted successfully' } },
    { type: errorEvent('deleteJob'), error: new Error('boom') },
  ];
  const model = createPathModel(adminOpeningsMachine, { events: events as never });
  const walk = everyTransition(model, 'admin-openings.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state', () => {
    expect(
      [
        ...new Set(
          paths.flatMap((p) => [...p.steps.map((s) => s.state.value as string), p.state.value as string]),
        ),
      ].sort(),
    ).toEqual(['confirmingDelete', 'deleting', 'failed', 'loading', 'ready'].sort());
  });

  for (const path of paths) {
    it(`a pending delete exists exactly while asking or deleting: ${path.steps.map((s) => s.event.type).join(' → ')}`, async () => {
      const control = controlledActors(['loadList', 'deleteJob']);
      const actor = createActor(adminOpeningsMachine.provide({ actors: control.actors as never })).start();
      const settle =
        (id: 'loadList' | 'deleteJob', ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) control.settle(id, e.output);
          else control.fail(id, e.error);
          await flush();
        };
      const send = ({ event }: { event: unknown }) => actor.send(event as AdminOpeningsEvent);
      const ctx = () => actor.getSnapshot().context;
      await path.test({
        events: {
          'list.retry': send,
          'job.saved': send,
          'delete.ask': send,
          'delete.confirm': send,
          'delete.cancel': send,
          [doneEvent('loadList')]: settle('loadList', true),
          [errorEvent('loadList')]: settle('loadList', false),
          [doneEvent('deleteJob')]: settle('deleteJob', true),
          [errorEvent('deleteJob')]: settle('deleteJob', false),
        },
        states: {
          loading: () => expect(ctx().pendingDelete).toBeNull(),
          failed: () => expect(ctx().jobs).toEqual([]),
          ready: () => expect(ctx().pendingDelete).toBeNull(),
          confirmingDelete: () => expect(ctx().pendingDelete?.job_id).toBe(1),
          deleting: () => expect(ctx().pendingDelete?.job_id).toBe(1),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
