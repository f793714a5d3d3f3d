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

function start(deleteJob?: () => Promise<{ message: string }>) {
  const spies = { deleted: vi.fn(), failed: vi.fn() };
  // the server's openings: a delete removes one, and the reload that follows shows it gone
  let rows = [job(2), job(1)];
  const remove = async ({ input }: { input: { jobId: number } }) => {
    rows = rows.filter((r) => r.job_id !== input.jobId);
    return { message: 'Job deleted successfully' };
  };
  const actor = createActor(
    adminOpeningsMachine.provide({
      actors: {
        loadList: fromPromise(async () => ({ jobs: rows, jobTypes: TYPES })),
        deleteJob: fromPromise(deleteJob ?? remove),
      },
      actions: {
        notifyDeleted: (_, p) => spies.deleted(p.message),
        notifyDeleteFailed: (_, p) => spies.failed(p.error),
      },
    }),
    { input: {} },
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

  it('removes the card and toasts after a confirmed delete, and reloads the page', async () => {
    const { actor, spies } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'delete.ask', job: job(2) });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('loading'));
    expect(actor.getSnapshot().context.jobs.map((j) => j.job_id)).toEqual([1]);
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

describe('admin openings pages', () => {
  const page = (from: number, n: number, total: number) =>
    Array.from({ length: n }, (_, i) => ({ ...job(from + i), total_count: total }));

  function paged(initial: number) {
    const asked: number[] = [];
    const written: number[] = [];
    const actor = createActor(
      adminOpeningsMachine.provide({
        actors: {
          loadList: fromPromise(async ({ input }) => {
            asked.push(input.page);
            const from = (input.page - 1) * 20 + 1;
            return { jobs: from > 45 ? [] : page(from, Math.min(20, 46 - from), 45), jobTypes: TYPES };
          }),
          deleteJob: fromPromise(async () => ({ message: 'Job deleted successfully' })),
        },
        actions: { writeAddress: (_, { page }) => written.push(page) },
      }),
      { input: { page: initial } },
    ).start();
    return { actor, asked, written };
  }

  it('loads the page of the address and gives the pager 45 openings in three pages', async () => {
    const { actor, asked } = paged(3);
    await waitFor(actor, (s) => s.matches('ready'));
    await flush();
    expect(asked).toEqual([3]);
    expect(actor.getSnapshot().context.jobs.map((j) => j.job_id)).toEqual([41, 42, 43, 44, 45]);
    expect(actor.getSnapshot().children.pagination!.getSnapshot().context).toMatchObject({
      page: 3,
      total: 45,
    });
  });

  it('a page chosen on the pager is loaded and written to the address', async () => {
    const { actor, asked, written } = paged(1);
    await waitFor(actor, (s) => s.matches('ready'));
    await flush();
    actor.getSnapshot().children.pagination!.send({ type: 'page.select', page: 3 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 3);
    actor.send({ type: 'address.change', page: 2 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 2);
    expect(asked).toEqual([1, 3, 2]);
    expect(written).toEqual([3]);
  });

  it('does not change page while a delete is asked', async () => {
    const { actor, asked } = paged(1);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'delete.ask', job: job(1) });
    actor.send({ type: 'address.change', page: 2 });
    expect(actor.getSnapshot().matches('confirmingDelete')).toBe(true);
    expect(asked).toEqual([1]);
  });

  it('an address past the end steps back to the last page', async () => {
    const { actor, asked, written } = paged(1);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'address.change', page: 7 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 3);
    expect(asked).toEqual([1, 7, 3]);
    expect(written).toEqual([3]);
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
    { type: 'page.changed', page: 2 },
    { type: 'address.change', page: 1 },
  ];
  // the model has no pagination child: the messages to it are checked by the tests above
  const quiet = { tellPagination: () => {}, syncPaginationPage: () => {} };
  const model = createPathModel(adminOpeningsMachine.provide({ actions: quiet }), {
    events: events as never,
    input: {},
    serializeState: (state: { value: unknown; context: { page: number; pendingDelete: unknown } }) =>
      JSON.stringify([state.value, state.context.page, state.context.pendingDelete !== null]),
  } as never);
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
      const actor = createActor(adminOpeningsMachine.provide({ actors: control.actors as never }), {
        input: {},
      }).start();
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
          'page.changed': send,
          'address.change': send,
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
