import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { JobOpeningRow } from '../../contract/jobs';
import type { JobStatusAnswer } from '../../contract/jobs-admin';
import { VersionConflict } from '../../contract/versions';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  everyTransition,
} from './testing/test-model';
import {
  type StatusChange,
  adminOpeningsMachine,
  openingsList,
  openingsQueued,
  type AdminOpeningsEvent,
} from './admin-openings.machine';
import type { QueuedChangesEvent } from './queued-changes.machine';
import { paginationView } from './paged-list.machine';

const job = (job_id: number, job_title = `Job ${job_id}`, total_count?: number): JobOpeningRow => ({
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
  ...(total_count !== undefined ? { total_count } : {}),
});
const TYPES = [{ job_type_id: 1, job_type_name: 'Full-time' }];

/** A server of `count` openings (ids count..1, newest first), 20 a page; a delete removes one. */
function start(
  options: {
    count?: number;
    page?: number;
    deleteJob?: () => Promise<{ message: string }>;
    saveStatus?: (input: StatusChange) => Promise<JobStatusAnswer>;
    mayReject?: boolean;
  } = {},
) {
  const spies = {
    deleted: vi.fn(),
    failed: vi.fn(),
    statusChanged: vi.fn(),
    statusFailed: vi.fn(),
    overtaken: vi.fn(),
  };
  let ids = Array.from({ length: options.count ?? 2 }, (_, i) => (options.count ?? 2) - i);
  const asked: number[] = [];
  const written: number[] = [];
  const actor = createActor(
    adminOpeningsMachine.provide({
      actors: {
        list: openingsList.provide({
          actors: {
            loadPage: fromPromise(async ({ input }) => {
              asked.push(input.page);
              const slice = ids.slice((input.page - 1) * 20, input.page * 20);
              return {
                rows: slice.map((id, i) => job(id, undefined, i === 0 ? ids.length : undefined)),
                meta: { jobTypes: TYPES },
              };
            }),
          },
          actions: { showPage: (_, { page }) => void written.push(page) },
        }),
        deleteJob: fromPromise(
          options.deleteJob ??
            (async ({ input }: { input: { jobId: number } }) => {
              ids = ids.filter((id) => id !== input.jobId);
              return { message: 'Job deleted successfully' };
            }),
        ),
        saveStatus: fromPromise(
          ({ input }: { input: StatusChange }) =>
            options.saveStatus?.(input) ??
            Promise.resolve({ message: 'Job status changed', row: { ...input.job, status: input.status } }),
        ),
      },
      actions: {
        notifyDeleted: (_, p) => spies.deleted(p.message),
        notifyDeleteFailed: (_, p) => spies.failed(p.error),
        notifyStatusChanged: (_, p) => spies.statusChanged(p.row),
        notifyStatusFailed: (_, p) => spies.statusFailed(p.error),
        notifyOvertaken: (_, p) => spies.overtaken(p.changedBy),
      },
    }),
    { input: { pageSize: 20, page: options.page, mayReject: options.mayReject ?? true } },
  ).start();
  const list = () => actor.getSnapshot().children.list!;
  const listed = () =>
    list()
      .getSnapshot()
      .context.rows.map((j) => j.job_id);
  const ready = () => waitFor(list(), (s) => s.matches('ready'));
  return { actor, spies, list, listed, ready, asked, written };
}

describe('admin openings', () => {
  it('loads the jobs and the job types', async () => {
    const { list, listed, ready } = start();
    await ready();
    expect(listed()).toEqual([2, 1]);
    expect(list().getSnapshot().context.meta).toEqual({ jobTypes: TYPES });
  });

  it('shows a created job at once, first, and replaces an edited one in place', async () => {
    const { actor, list, listed, ready, asked } = start();
    await ready();
    actor.send({ type: 'job.saved', mode: 'create', row: job(9) });
    expect(listed()).toEqual([9, 2, 1]);
    actor.send({ type: 'job.saved', mode: 'edit', row: job(1, 'Renamed') });
    expect(list().getSnapshot().context.rows[2].job_title).toBe('Renamed');
    expect(asked).toEqual([1]);
  });

  it('asks before deleting; cancel keeps the job', async () => {
    const { actor, listed, ready } = start();
    await ready();
    actor.send({ type: 'delete.ask', job: job(1) });
    expect(actor.getSnapshot().value).toBe('confirmingDelete');
    expect(actor.getSnapshot().context.pendingDelete?.job_id).toBe(1);
    actor.send({ type: 'delete.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.pendingDelete).toBeNull();
    expect(listed()).toEqual([2, 1]);
  });

  it('removes the card and toasts after a confirmed delete, and reloads the page', async () => {
    const { actor, spies, listed, ready, asked } = start();
    await ready();
    actor.send({ type: 'delete.ask', job: job(2) });
    actor.send({ type: 'delete.confirm' });
    expect(actor.getSnapshot().value).toBe('deleting');
    await waitFor(actor, (s) => s.matches('idle'));
    expect(listed()).toEqual([1]);
    expect(spies.deleted).toHaveBeenCalledWith('Job deleted successfully');
    await ready();
    expect(asked).toEqual([1, 1]);
    expect(listed()).toEqual([1]);
  });

  it('keeps the card and reports a failed delete', async () => {
    const { actor, spies, listed, ready } = start({
      deleteJob: async () => {
        throw new Error('500');
      },
    });
    await ready();
    actor.send({ type: 'delete.ask', job: job(1) });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(spies.failed).toHaveBeenCalled();
    expect(listed()).toEqual([2, 1]);
  });

  it("loads the address's page, pages on, follows back/forward quietly, and steps back from a page past the end", async () => {
    const { list, ready, asked, written } = start({ count: 45, page: 2 });
    await ready();
    expect(paginationView(list().getSnapshot().context)).toMatchObject({
      page: 2,
      pageCount: 3,
      shown: true,
    });
    list().send({ type: 'page.next' });
    await waitFor(list(), (s) => s.matches('ready') && s.context.page === 3);
    list().send({ type: 'list.follow', query: null, page: 1 });
    await waitFor(list(), (s) => s.matches('ready') && s.context.page === 1);
    list().send({ type: 'list.follow', query: null, page: 7 });
    await waitFor(list(), (s) => s.matches('ready') && s.context.page === 3);
    expect(asked).toEqual([2, 3, 1, 7, 3]);
    expect(written).toEqual([3, 3]);
  });
});

describe('openings closed, not erased', () => {
  const rowOf = (list: { getSnapshot(): { context: { rows: JobOpeningRow[] } } }, id: number) =>
    list.getSnapshot().context.rows.find((r) => r.job_id === id);

  it('changes a status from the card and shows the saved opening', async () => {
    const { actor, spies, list, ready } = start();
    await ready();
    actor.send({ type: 'status.change', job: job(1), status: 'Closed' });
    expect(actor.getSnapshot().value).toBe('changingStatus');
    await waitFor(actor, (s) => s.matches('idle'));
    expect(rowOf(list(), 1)?.status).toBe('Closed');
    expect(spies.statusChanged).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.pendingStatus).toBeNull();
  });

  it('closing an opening with undecided applications asks first: a rejection needs a reason, and says what it did', async () => {
    const asked: StatusChange[] = [];
    const { actor, spies, ready } = start({
      saveStatus: async (input) => {
        asked.push(input);
        return {
          message: 'Job status changed',
          row: { ...input.job, status: input.status },
          rejected: 2,
          mailed: 2,
        };
      },
    });
    await ready();
    const busy = {
      ...job(1),
      application_count: 3,
      application_statuses: { New: 1, Interview: 1, Hired: 1 },
    };
    actor.send({ type: 'status.change', job: busy, status: 'Closed' });
    expect(actor.getSnapshot().value).toBe('askingClose');
    // no reason: the question stays, saying why
    actor.send({ type: 'close.decide', applications: 'reject', reason: ' ', mail: true });
    expect(actor.getSnapshot().value).toBe('askingClose');
    expect(actor.getSnapshot().context.closeError).toBe('reasonRequired');
    actor.send({ type: 'close.decide', applications: 'reject', reason: 'Filled', mail: true });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(asked).toEqual([
      expect.objectContaining({ status: 'Closed', applications: 'reject', reason: 'Filled', mail: true }),
    ]);
    expect(spies.statusChanged).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context).toMatchObject({ pendingStatus: null, closeError: null });
    // Cancel changes nothing; an opening whose applications are all decided is closed at once
    actor.send({ type: 'status.change', job: busy, status: 'Closed' });
    actor.send({ type: 'close.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(asked).toHaveLength(1);
    actor.send({
      type: 'status.change',
      job: { ...busy, application_statuses: { Hired: 3 } },
      status: 'Closed',
    });
    expect(actor.getSnapshot().value).toBe('changingStatus');
  });

  it('someone who may not change applications closes without the question (their applications stay)', async () => {
    const { actor, ready } = start({ mayReject: false });
    await ready();
    actor.send({
      type: 'status.change',
      job: { ...job(1), application_statuses: { New: 2 } },
      status: 'Closed',
    });
    expect(actor.getSnapshot().value).toBe('changingStatus');
  });

  it('a change that lost a race shows the opening as someone else left it, and says who', async () => {
    const theirs = { ...job(1, 'Renamed by Asha'), status: 'Draft' as const, version: 4 };
    const { actor, spies, list, ready } = start({
      saveStatus: async () => {
        throw new VersionConflict({ current: theirs, changedBy: 'asha@example.com', changedAt: null });
      },
    });
    await ready();
    actor.send({ type: 'status.change', job: job(1), status: 'Closed' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(rowOf(list(), 1)).toMatchObject({ job_title: 'Renamed by Asha', status: 'Draft', version: 4 });
    expect(spies.overtaken).toHaveBeenCalledWith('asha@example.com');
    expect(spies.statusFailed).not.toHaveBeenCalled();
  });

  it('a deletion refused because applications came in meanwhile offers to close it instead', async () => {
    const refused = Object.assign(new Error('This opening has applications'), {
      status: 409,
      body: { message: 'This opening has applications', applications: 2 },
    });
    const { actor, spies, ready } = start({
      deleteJob: async () => {
        throw refused;
      },
    });
    await ready();
    actor.send({ type: 'delete.ask', job: job(1) });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('offeringClose'));
    expect(actor.getSnapshot().context.pendingDelete).toMatchObject({ job_id: 1, application_count: 2 });
    expect(spies.failed).not.toHaveBeenCalled();
  });

  it('offers to close an opening with applications instead of deleting it', async () => {
    const { actor, spies, list, ready } = start();
    await ready();
    const withApplications = { ...job(2), application_count: 3 };
    actor.send({ type: 'delete.ask', job: withApplications });
    expect(actor.getSnapshot().value).toBe('offeringClose');
    expect(actor.getSnapshot().can({ type: 'delete.confirm' })).toBe(false);
    actor.send({ type: 'close.confirm' });
    expect(actor.getSnapshot().context.pendingStatus).toMatchObject({ status: 'Closed' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(rowOf(list(), 2)?.status).toBe('Closed');
    expect(spies.deleted).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.pendingDelete).toBeNull();
  });
});

describe("this person's changes made offline", () => {
  it('one sent later loads the page again, so the card shows it', async () => {
    let loads = 0;
    let told: ((e: QueuedChangesEvent) => void) | undefined;
    const actor = createActor(
      adminOpeningsMachine.provide({
        actors: {
          list: openingsList.provide({
            actors: {
              loadPage: fromPromise(async () => {
                loads += 1;
                return {
                  rows: [job(1, loads > 1 ? 'Job 1 (edited)' : 'Job 1', 1)],
                  meta: { jobTypes: TYPES },
                };
              }),
            },
          }),
          queued: openingsQueued.provide({
            actors: {
              listen: fromCallback(({ sendBack }) => {
                told = sendBack;
              }),
            },
          }),
        },
      }),
      { input: { pageSize: 20 } },
    ).start();
    const list = () => actor.getSnapshot().children.list!;
    await waitFor(list(), (s) => s.matches('ready'));
    told!({ type: 'queued.sent' });
    await waitFor(list(), (s) => s.matches('ready') && s.context.rows[0].job_title === 'Job 1 (edited)');
    expect(loads).toBe(2);
  });
});

describe('admin openings paths', () => {
  const events = [
    { type: 'job.saved', mode: 'create', row: job(9) },
    { type: 'delete.ask', job: job(1) },
    { type: 'delete.confirm' },
    { type: 'delete.cancel' },
    { type: doneEvent('deleteJob'), output: { message: 'Job deleted successfully' } },
    { type: errorEvent('deleteJob'), error: new Error('boom') },
    { type: 'delete.ask', job: { ...job(1), application_count: 2 } },
    { type: 'close.confirm' },
    { type: 'status.change', job: job(1), status: 'Draft' },
    { type: 'status.change', job: { ...job(1), application_statuses: { New: 2 } }, status: 'Closed' },
    { type: 'close.decide', applications: 'reject', reason: '', mail: true },
    { type: 'close.decide', applications: 'reject', reason: 'Filled', mail: false },
    { type: 'close.cancel' },
    {
      type: doneEvent('saveStatus'),
      output: { message: 'Job status changed', row: { ...job(1), status: 'Draft' } },
    },
    { type: errorEvent('saveStatus'), error: new Error('boom') },
    {
      type: errorEvent('saveStatus'),
      error: new VersionConflict({ current: job(1), changedBy: null, changedAt: null }),
    },
  ];
  // the model has no list child: what is sent to it is checked by the tests above
  const quiet = { putRow: () => {}, removePending: () => {}, reloadList: () => {} };
  const model = createPathModel(adminOpeningsMachine.provide({ actions: quiet }), {
    events: events as never,
    input: { pageSize: 20, mayReject: true },
    serializeState: (state: {
      value: unknown;
      context: { pendingDelete: unknown; pendingStatus: unknown; closeError: unknown };
    }) =>
      JSON.stringify([
        state.value,
        state.context.pendingDelete !== null,
        state.context.pendingStatus !== null,
        state.context.closeError,
      ]),
  } as never);
  const walk = everyTransition(model, 'admin-openings.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  for (const path of walk.paths) {
    it(`a pending change exists exactly while asking or saving it: ${path.steps.map((s) => s.event.type).join(' → ')}`, async () => {
      const control = controlledActors(['deleteJob', 'saveStatus']);
      const actor = createActor(
        adminOpeningsMachine.provide({
          actors: {
            deleteJob: control.actors.deleteJob as never,
            saveStatus: control.actors.saveStatus as never,
            list: openingsList.provide({
              actors: {
                loadPage: fromPromise(async () => ({
                  rows: [job(1, 'Job 1', 1)],
                  meta: { jobTypes: TYPES },
                })),
              },
            }),
          },
        }),
        { input: { pageSize: 20, mayReject: true } },
      ).start();
      const settle =
        (ok: boolean, id: 'deleteJob' | 'saveStatus' = 'deleteJob') =>
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
          'job.saved': send,
          'delete.ask': send,
          'delete.confirm': send,
          'delete.cancel': send,
          [doneEvent('deleteJob')]: settle(true),
          [errorEvent('deleteJob')]: settle(false),
          'close.confirm': send,
          'status.change': send,
          'close.decide': send,
          'close.cancel': send,
          [doneEvent('saveStatus')]: settle(true, 'saveStatus'),
          [errorEvent('saveStatus')]: settle(false, 'saveStatus'),
        },
        states: {
          idle: () => {
            expect(ctx().pendingDelete).toBeNull();
            expect(ctx().pendingStatus).toBeNull();
          },
          offeringClose: () => expect(ctx().pendingDelete?.application_count).toBe(2),
          changingStatus: () => expect(ctx().pendingStatus?.job.job_id).toBe(1),
          askingClose: () => expect(ctx().pendingStatus?.status).toBe('Closed'),
          confirmingDelete: () => expect(ctx().pendingDelete?.job_id).toBe(1),
          deleting: () => expect(ctx().pendingDelete?.job_id).toBe(1),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
