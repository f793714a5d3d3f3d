import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { ApplicationListRow } from '../../contract/admin-applications';
import { VersionConflict } from '../../contract/versions';
import {
  applicationDetailMachine,
  RESUME_LINK_REFRESH_MS,
  type ApplicationDetailEvent,
} from './application-detail.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  timerEvent,
  everyTransition,
} from './testing/test-model';

const ROW: ApplicationListRow = {
  application_id: 7,
  job_id: 3,
  full_name: 'Asha Menon',
  email: 'asha.menon@example.com',
  contact_number: '9876543210',
  address: '12 MG Road, Kochi',
  job_title: 'Copy Editor',
  applied_date: '2025-03-01T09:00:00.000Z',
  resume: 'cv/00000000-0000-4000-8000-000000000007.pdf',
  status: 'New',
  is_duplicate: false,
  consent_at: '2025-03-01T09:00:00.000Z',
  total_count: 12,
};
const SIGNED = '/media/private/cv/00000000-0000-4000-8000-000000000007.pdf?expires=1&sig=abc';

function setup() {
  const ctl = controlledActors(['signResume', 'saveStatus', 'deleteApplication']);
  const calls = {
    saved: [] as ApplicationListRow[],
    saveFailed: 0,
    deleted: [] as number[],
    deleteFailed: 0,
    overtaken: [] as [string, string | null][],
  };
  const actor = createActor(
    applicationDetailMachine.provide({
      actors: ctl.actors as never,
      actions: {
        notifyStatusSaved: (_, { row }) => void calls.saved.push(row),
        notifyStatusFailed: () => void calls.saveFailed++,
        notifyOvertaken: (_, { row, changedBy }) => void calls.overtaken.push([row.status, changedBy]),
        notifyDeleted: (_, { row }) => void calls.deleted.push(row.application_id),
        notifyDeleteFailed: () => void calls.deleteFailed++,
      },
    }),
  ).start();
  const value = () => actor.getSnapshot().value;
  return { actor, ctl, calls, value, ctx: () => actor.getSnapshot().context };
}

afterEach(() => vi.useRealTimers());

describe('the Application Details modal', () => {
  it('counts a move to Rejected made here (the rejection email is offered), once, and not a colleague’s', async () => {
    const { actor, ctl, ctx } = setup();
    actor.send({ type: 'detail.open', row: ROW });
    actor.send({ type: 'status.change', status: 'Rejected' });
    ctl.settle('saveStatus', { ...ROW, status: 'Rejected', version: 2 });
    await flush();
    expect(ctx().rejections).toBe(1);
    // Rejected again (a save that changed nothing) offers nothing more
    actor.send({ type: 'status.change', status: 'Reviewed' });
    ctl.fail(
      'saveStatus',
      new VersionConflict({
        current: { ...ROW, status: 'Rejected', version: 3 },
        changedBy: 'ravi@x.example',
        changedAt: null,
      }),
    );
    await flush();
    expect(ctx().row?.status).toBe('Rejected');
    expect(ctx().rejections).toBe(1);
    actor.send({ type: 'status.change', status: 'Interview' });
    ctl.settle('saveStatus', { ...ROW, status: 'Interview', version: 4 });
    await flush();
    actor.send({ type: 'status.change', status: 'Rejected' });
    ctl.settle('saveStatus', { ...ROW, status: 'Rejected', version: 5 });
    await flush();
    expect(ctx().rejections).toBe(2);
  });

  it('opens with the row and asks for the CV address at once, for a real View Resume link', async () => {
    const { actor, ctl, value, ctx } = setup();
    expect(value()).toBe('closed');
    actor.send({ type: 'detail.open', row: ROW });
    expect(value()).toEqual({ open: { resume: 'signing', main: 'viewing' } });
    expect(ctx().row?.full_name).toBe('Asha Menon');
    expect(ctl.lastInput('signResume')).toEqual({ key: ROW.resume });
    ctl.settle('signResume', SIGNED);
    await flush();
    expect(ctx().resumeUrl).toBe(SIGNED);
  });

  it('asks for a new address every 4 minutes while open (the old one expires after 5)', async () => {
    vi.useFakeTimers();
    const { actor, ctl, ctx } = setup();
    actor.send({ type: 'detail.open', row: ROW });
    ctl.settle('signResume', SIGNED);
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(RESUME_LINK_REFRESH_MS - 1);
    expect(() => ctl.settle('signResume', 'x')).toThrow(/not running/);
    await vi.advanceTimersByTimeAsync(1);
    ctl.settle('signResume', `${SIGNED}2`);
    await vi.advanceTimersByTimeAsync(0);
    expect(ctx().resumeUrl).toBe(`${SIGNED}2`);
    expect(RESUME_LINK_REFRESH_MS).toBeLessThan(5 * 60 * 1000);
  });

  it('shows the CV as unavailable when the address cannot be had, and retries', async () => {
    const { actor, ctl, value, ctx } = setup();
    actor.send({ type: 'detail.open', row: ROW });
    ctl.fail('signResume', Object.assign(new Error('File not found'), { status: 404 }));
    await flush();
    expect(value()).toEqual({ open: { resume: 'unavailable', main: 'viewing' } });
    expect(ctx().resumeUrl).toBeNull();
    actor.send({ type: 'resume.retry' });
    expect(value()).toEqual({ open: { resume: 'signing', main: 'viewing' } });
  });

  it('saves a new status, keeps the modal open and tells the list', async () => {
    const { actor, ctl, value, ctx, calls } = setup();
    actor.send({ type: 'detail.open', row: ROW });
    actor.send({ type: 'status.change', status: 'Interview' });
    expect(value()).toMatchObject({ open: { main: 'savingStatus' } });
    expect(ctx().pendingStatus).toBe('Interview');
    expect(ctl.lastInput('saveStatus')).toEqual({ applicationId: 7, status: 'Interview', version: 1 });
    ctl.settle('saveStatus', { ...ROW, status: 'Interview', total_count: undefined });
    await flush();
    expect(value()).toMatchObject({ open: { main: 'viewing' } });
    expect(ctx().row?.status).toBe('Interview');
    expect(ctx().row?.total_count).toBe(12);
    expect(calls.saved.map((r) => r.status)).toEqual(['Interview']);
  });

  it('a status that lost a race shows where a colleague moved it, and who', async () => {
    const { actor, ctl, ctx, calls } = setup();
    actor.send({ type: 'detail.open', row: { ...ROW, version: 2 } });
    actor.send({ type: 'status.change', status: 'Interview' });
    expect(ctl.lastInput('saveStatus')).toMatchObject({ version: 2 });
    ctl.fail(
      'saveStatus',
      new VersionConflict({
        current: { ...ROW, status: 'Rejected', version: 3 },
        changedBy: 'ravi@example.com',
        changedAt: null,
      }),
    );
    await flush();
    expect(ctx().row).toMatchObject({ status: 'Rejected', version: 3, total_count: 12 });
    expect(ctx().pendingStatus).toBeNull();
    expect(calls.overtaken).toEqual([['Rejected', 'ravi@example.com']]);
    expect(calls.saveFailed).toBe(0);
  });

  it('keeps the old status when saving fails, and ignores choosing the status it already has', async () => {
    const { actor, ctl, value, ctx, calls } = setup();
    actor.send({ type: 'detail.open', row: ROW });
    actor.send({ type: 'status.change', status: 'New' });
    expect(value()).toMatchObject({ open: { main: 'viewing' } });
    actor.send({ type: 'status.change', status: 'Rejected' });
    ctl.fail('saveStatus', new Error('down'));
    await flush();
    expect(ctx().row?.status).toBe('New');
    expect(ctx().pendingStatus).toBeNull();
    expect(calls.saveFailed).toBe(1);
  });

  it('deletes only after confirmation, then closes and tells the list', async () => {
    const { actor, ctl, value, calls, ctx } = setup();
    actor.send({ type: 'detail.open', row: ROW });
    actor.send({ type: 'delete.ask' });
    expect(value()).toMatchObject({ open: { main: 'confirmingDelete' } });
    actor.send({ type: 'delete.cancel' });
    expect(value()).toMatchObject({ open: { main: 'viewing' } });
    actor.send({ type: 'delete.ask' });
    actor.send({ type: 'detail.close' }); // Escape leaves the question, not the modal
    expect(value()).toMatchObject({ open: { main: 'viewing' } });
    actor.send({ type: 'delete.ask' });
    actor.send({ type: 'delete.confirm' });
    expect(ctl.lastInput('deleteApplication')).toEqual({ applicationId: 7 });
    actor.send({ type: 'detail.close' }); // not while deleting
    expect(value()).toMatchObject({ open: { main: 'deleting' } });
    ctl.settle('deleteApplication', { message: 'Application and CV deleted' });
    await flush();
    expect(value()).toBe('closed');
    expect(calls.deleted).toEqual([7]);
    expect(ctx().row).toBeNull();
  });

  it('treats an application deleted meanwhile as deleted, and stays open on other failures', async () => {
    const gone = setup();
    gone.actor.send({ type: 'detail.open', row: ROW });
    gone.actor.send({ type: 'delete.ask' });
    gone.actor.send({ type: 'delete.confirm' });
    gone.ctl.fail('deleteApplication', Object.assign(new Error('Application not found'), { status: 404 }));
    await flush();
    expect(gone.value()).toBe('closed');
    expect(gone.calls.deleted).toEqual([7]);

    const down = setup();
    down.actor.send({ type: 'detail.open', row: ROW });
    down.actor.send({ type: 'delete.ask' });
    down.actor.send({ type: 'delete.confirm' });
    down.ctl.fail('deleteApplication', Object.assign(new Error('down'), { status: 503 }));
    await flush();
    expect(down.value()).toMatchObject({ open: { main: 'viewing' } });
    expect(down.calls.deleteFailed).toBe(1);
  });

  it('closes on detail.close and forgets the applicant', () => {
    const { actor, value, ctx } = setup();
    actor.send({ type: 'detail.open', row: ROW });
    actor.send({ type: 'detail.close' });
    expect(value()).toBe('closed');
    expect(ctx()).toEqual({ row: null, resumeUrl: null, pendingStatus: null, rejections: 0 });
  });
});

describe('Application Details paths', () => {
  const events = [
    { type: 'detail.open', row: ROW },
    { type: 'detail.close' },
    { type: doneEvent('signResume'), output: SIGNED },
    { type: errorEvent('signResume') },
    { type: timerEvent('resumeLinkRefresh') },
    { type: 'resume.retry' },
    { type: 'status.change', status: 'Offer' },
    { type: doneEvent('saveStatus'), output: { ...ROW, status: 'Offer' } },
    { type: errorEvent('saveStatus') },
    { type: 'delete.ask' },
    { type: 'delete.cancel' },
    { type: 'delete.confirm' },
    { type: doneEvent('deleteApplication'), output: {} },
    { type: errorEvent('deleteApplication'), error: { status: 503 } },
  ];
  const model = createPathModel(applicationDetailMachine, {
    events: events as never,
    serializeState: (state: { value: unknown; context: { row: { status: string } | null } }) =>
      JSON.stringify([state.value, state.context.row?.status ?? null]),
  } as never);
  const walk = everyTransition(model, 'application-detail.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state', () => {
    const seen = new Set(
      paths
        .flatMap((p) => [...p.steps.map((s) => s.state.value), p.state.value])
        .map((v) => JSON.stringify(v)),
    );
    const main = ['viewing', 'savingStatus', 'confirmingDelete', 'deleting'];
    const resume = ['signing', 'signed', 'unavailable'];
    for (const m of main)
      for (const r of resume)
        expect(seen, `${m}/${r}`).toContain(JSON.stringify({ open: { resume: r, main: m } }));
    expect(seen).toContain('"closed"');
  });

  for (const path of paths) {
    it(`shows what each state promises: ${path.description}`, async () => {
      vi.useFakeTimers();
      const { actor, ctl, ctx } = setup();
      const send = ({ event }: { event: unknown }) => actor.send(event as ApplicationDetailEvent);
      const settle = (id: 'signResume' | 'saveStatus' | 'deleteApplication', output: unknown) => async () => {
        ctl.settle(id, output);
        await vi.advanceTimersByTimeAsync(0);
      };
      const fail = (id: 'signResume' | 'saveStatus' | 'deleteApplication', error: unknown) => async () => {
        ctl.fail(id, error);
        await vi.advanceTimersByTimeAsync(0);
      };
      const open = (check: (resume: string, main: string) => void) => () => {
        const v = actor.getSnapshot().value as { open: { resume: string; main: string } };
        check(v.open.resume, v.open.main);
      };
      await path.test({
        events: {
          'detail.open': send,
          'detail.close': send,
          'resume.retry': send,
          'status.change': send,
          'delete.ask': send,
          'delete.cancel': send,
          'delete.confirm': send,
          [doneEvent('signResume')]: settle('signResume', SIGNED),
          [errorEvent('signResume')]: fail('signResume', new Error('gone')),
          [timerEvent('resumeLinkRefresh')]: async () => {
            await vi.advanceTimersByTimeAsync(RESUME_LINK_REFRESH_MS);
          },
          [doneEvent('saveStatus')]: settle('saveStatus', { ...ROW, status: 'Offer' }),
          [errorEvent('saveStatus')]: fail('saveStatus', new Error('down')),
          [doneEvent('deleteApplication')]: settle('deleteApplication', {}),
          [errorEvent('deleteApplication')]: fail(
            'deleteApplication',
            Object.assign(new Error('down'), { status: 503 }),
          ),
        },
        states: {
          closed: () => expect(ctx().row).toBeNull(),
          // while signing again, the previous address (still valid for a minute) stays usable
          'open.resume.signing': open(() => expect([null, SIGNED]).toContain(ctx().resumeUrl)),
          'open.resume.signed': open(() => expect(ctx().resumeUrl).toBe(SIGNED)),
          'open.resume.unavailable': open(() => expect(ctx().resumeUrl).toBeNull()),
          'open.main.savingStatus': open(() => expect(ctx().pendingStatus).toBe('Offer')),
          'open.main.viewing': open(() => expect(ctx().row?.full_name).toBe('Asha Menon')),
        },
      });
      vi.useRealTimers();
    });
  }
});
