import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AuditRow } from '../api/contract/auth';
import { auditLogMachine } from './audit-log.machine';

const row = (audit_id: number, total_count?: number): AuditRow => ({
  audit_id,
  at: '2026-03-01T10:00:00.000Z',
  actor_email: 'owner@example.com',
  action: 'create',
  entity: 'job_opening',
  entity_id: '7',
  detail: '{"job_title":"Copy Editor"}',
  ...(total_count !== undefined ? { total_count } : {}),
});

describe('activity log', () => {
  it('loads the first page and its total, then another page on request', async () => {
    const load = vi.fn(async ({ page }: { page: number }) =>
      page === 1 ? [row(2, 120), row(1)] : [row(0, 120)],
    );
    const actor = createActor(
      auditLogMachine.provide({ actors: { loadPage: fromPromise(({ input }) => load(input)) } }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ page: 1, total: 120 });
    // the shared pager knows the total: 120 entries are 3 pages of 50
    const pager = actor.getSnapshot().children.pagination!;
    expect(pager.getSnapshot().matches('multiple')).toBe(true);
    pager.send({ type: 'page.select', page: 2 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 2);
    expect(load).toHaveBeenLastCalledWith({ page: 2 });
    expect(actor.getSnapshot().context.rows.map((r) => r.audit_id)).toEqual([0]);
  });

  it('steps back from a page that came back empty (entries pruned meanwhile)', async () => {
    const load = vi.fn(async ({ page }: { page: number }) => (page === 1 ? [row(1, 60)] : []));
    const actor = createActor(
      auditLogMachine.provide({ actors: { loadPage: fromPromise(({ input }) => load(input)) } }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.getSnapshot().children.pagination!.send({ type: 'page.select', page: 2 });
    await waitFor(actor, (s) => s.matches('ready') && load.mock.calls.length === 3);
    expect(load.mock.calls.map(([input]) => input.page)).toEqual([1, 2, 1]);
    expect(actor.getSnapshot().context.page).toBe(1);
  });

  it('offers a retry after a failure', async () => {
    let fail = true;
    const actor = createActor(
      auditLogMachine.provide({
        actors: {
          loadPage: fromPromise(async () => {
            if (fail) throw new Error('offline');
            return [row(1, 1)];
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    fail = false;
    actor.send({ type: 'list.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.total).toBe(1);
  });
});
