import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { ApplicationListRow } from '../../contract/admin-applications';
import {
  addressOf,
  applicationsList,
  applicationsListMachine,
  cleanFilters,
  cleanPage,
  type ApplicationsListInput,
} from './applications-list.machine';
import { paginationView, type LoadPageInput } from './paged-list.machine';
import { controlledActors, flush } from './testing/test-model';

function row(id: number, over: Partial<ApplicationListRow> = {}): ApplicationListRow {
  return {
    application_id: id,
    job_id: 1,
    full_name: `Applicant ${id}`,
    email: `a${id}@example.com`,
    contact_number: '9876543210',
    address: '12 MG Road, Kochi',
    job_title: 'Copy Editor',
    applied_date: '2025-03-01T09:00:00.000Z',
    resume: `cv/00000000-0000-4000-8000-${String(id).padStart(12, '0')}.pdf`,
    status: 'New',
    is_duplicate: false,
    consent_at: '2025-03-01T09:00:00.000Z',
    ...over,
  };
}
const page = (ids: number[], total: number) =>
  ids.map((id, i) => (i === 0 ? row(id, { total_count: total }) : row(id)));
const twenty = (from: number, total: number) =>
  page(
    Array.from({ length: 20 }, (_, i) => from + i),
    total,
  );

function setup(input: ApplicationsListInput = { pageSize: 20 }) {
  const ctl = controlledActors(['loadPage']);
  const calls = { addresses: [] as string[], failures: [] as unknown[] };
  const actor = createActor(
    applicationsListMachine.provide({
      actors: {
        list: applicationsList.provide({
          actors: { loadPage: ctl.actors.loadPage as never },
          actions: {
            showPage: (_, { query, page: p }) => void calls.addresses.push(addressOf(query, p)),
            reportFailure: (_, { error }) => void calls.failures.push(error),
          },
        }),
      },
    }),
    { input },
  ).start();
  const list = () => actor.getSnapshot().children.list!;
  const pager = () => paginationView(list().getSnapshot().context);
  const load = async (rows: ApplicationListRow[]) => {
    ctl.settle('loadPage', rows);
    await flush();
  };
  /** What the last load asked the server: the filters, the page and its size. */
  const asked = () => {
    const last = ctl.lastInput('loadPage') as LoadPageInput<object>;
    return { ...last.query, page: last.page, pageSize: last.pageSize };
  };
  /** The list's state: loading, ready or failed. */
  const state = () => {
    const value = list().getSnapshot().value;
    return typeof value === 'string' ? value : Object.keys(value)[0];
  };
  const ctx = () => ({ ...list().getSnapshot().context, ...actor.getSnapshot().context });
  return { actor, list, ctl, calls, pager, load, asked, state, ctx };
}

afterEach(() => vi.useRealTimers());

describe('the application list', () => {
  it('loads page 1 of 20 with no filters when the address has none', async () => {
    const { pager, load, asked, state, ctx } = setup();
    expect(state()).toBe('loading');
    expect(asked()).toEqual({
      search: '',
      startdate: '',
      enddate: '',
      status: '',
      job_id: '',
      applicationid: '',
      page: 1,
      pageSize: 20,
    });
    await load(twenty(1, 45));
    expect(state()).toBe('ready');
    expect(ctx().rows).toHaveLength(20);
    expect(ctx().total).toBe(45);
    expect(pager()).toMatchObject({
      page: 1,
      pageCount: 3,
      pages: [1, 2, 3],
      shown: true,
      hasPrevious: false,
      hasNext: true,
    });
  });

  it('starts from the filters and page of the address (a bookmarked view)', async () => {
    const { pager, load, asked, ctx } = setup({
      pageSize: 20,
      filters: { search: 'asha', startdate: '2025-03-01', enddate: '2025-03-31', status: 'Interview' },
      page: 2,
    });
    expect(asked()).toEqual({
      search: 'asha',
      startdate: '2025-03-01',
      enddate: '2025-03-31',
      status: 'Interview',
      job_id: '',
      applicationid: '',
      page: 2,
      pageSize: 20,
    });
    expect(ctx().draft.search).toBe('asha'); // the form shows the view's filters
    await load(twenty(21, 60));
    expect(pager()).toMatchObject({ page: 2, pageCount: 3 });
  });

  it('applies the form on submit: page 1, the new filters, written to the address', async () => {
    const { actor, calls, load, asked, state } = setup();
    await load(twenty(1, 45));
    actor.send({ type: 'filter.change', field: 'search', value: '  Menon ' });
    actor.send({ type: 'filter.change', field: 'startdate', value: '2025-03-01' });
    actor.send({ type: 'filter.change', field: 'enddate', value: '2025-03-01' });
    expect(state()).toBe('ready'); // typing loads nothing
    actor.send({ type: 'filter.submit' });
    expect(state()).toBe('loading');
    expect(asked()).toMatchObject({
      search: 'Menon',
      startdate: '2025-03-01',
      enddate: '2025-03-01',
      page: 1,
    });
    expect(calls.addresses).toEqual(['search=Menon&startdate=2025-03-01&enddate=2025-03-01']);
  });

  it('starts again with the new filters when they are applied while a page is loading', async () => {
    const { actor, load, asked, ctx } = setup();
    actor.send({ type: 'filter.change', field: 'search', value: 'meera' });
    actor.send({ type: 'filter.submit' });
    expect(asked()).toMatchObject({ search: 'meera' });
    await load(page([7], 1));
    expect(ctx().rows.map((r) => r.application_id)).toEqual([7]);
  });

  it('shows "Start Date must be on or before End Date" and loads nothing when the range is reversed', async () => {
    const { actor, calls, load, state, ctx } = setup();
    await load(twenty(1, 45));
    actor.send({ type: 'filter.change', field: 'startdate', value: '2025-03-05' });
    actor.send({ type: 'filter.change', field: 'enddate', value: '2025-03-01' });
    actor.send({ type: 'filter.submit' });
    expect(state()).toBe('ready');
    expect(ctx().filterError).toEqual({
      field: 'startdate',
      message: 'Start Date must be on or before End Date',
    });
    expect(calls.addresses).toEqual([]);
    actor.send({ type: 'filter.change', field: 'enddate', value: '2025-03-09' });
    expect(ctx().filterError).toBeNull();
  });

  it('clears every filter at once', async () => {
    const { actor, calls, load, asked, ctx } = setup({
      pageSize: 20,
      filters: { search: 'x', status: 'Hired' },
      page: 3,
    });
    await load(twenty(41, 100));
    actor.send({ type: 'filter.clear' });
    expect(asked()).toMatchObject({ search: '', status: '', page: 1 });
    expect(ctx().draft).toEqual({
      search: '',
      startdate: '',
      enddate: '',
      status: '',
      job_id: '',
      applicationid: '',
    });
    expect(calls.addresses).toEqual(['']);
  });

  it("shows one opening's applications from the address, and all openings again keeping the other filters", async () => {
    const { actor, calls, load, asked, ctx } = setup({
      pageSize: 20,
      filters: { job_id: '12', status: 'New' },
    });
    expect(asked()).toMatchObject({ job_id: '12', status: 'New', page: 1 });
    await load(page([3, 2], 2));
    actor.send({ type: 'filter.drop', field: 'job_id' });
    expect(asked()).toMatchObject({ job_id: '', status: 'New', page: 1 });
    expect(ctx().draft.job_id).toBe('');
    expect(calls.addresses).toEqual(['status=New']);
  });

  it("shows one application from a notice's link, and every application again", async () => {
    const { actor, calls, load, asked } = setup({ pageSize: 20, filters: { applicationid: '0042' } });
    expect(asked()).toMatchObject({ applicationid: '42', page: 1 });
    await load(page([42], 1));
    actor.send({ type: 'filter.drop', field: 'applicationid' });
    expect(asked()).toMatchObject({ applicationid: '', page: 1 });
    expect(calls.addresses).toEqual(['']);
  });

  it('follows the address on back/forward, and ignores an address that shows the same view', async () => {
    const { actor, calls, load, asked, state } = setup();
    await load(twenty(1, 45));
    actor.send({ type: 'address.change', filters: { search: '' }, page: 1 });
    expect(state()).toBe('ready');
    actor.send({ type: 'address.change', filters: { search: 'ravi', status: 'Offer' }, page: 1 });
    expect(state()).toBe('loading');
    expect(asked()).toMatchObject({ search: 'ravi', status: 'Offer', page: 1 });
    expect(actor.getSnapshot().context.draft.search).toBe('ravi');
    expect(calls.addresses).toEqual([]); // the address is already right
  });

  it('loads the chosen page (Prev, numbers, Next) and writes it to the address', async () => {
    const { list, calls, pager, load, asked } = setup({ pageSize: 20, filters: { search: 'editor' } });
    await load(twenty(1, 45));
    const pagination = list();
    pagination.send({ type: 'page.select', page: 3 });
    expect(asked()).toMatchObject({ search: 'editor', page: 3 });
    expect(calls.addresses).toEqual(['search=editor&page=3']);
    await load(page([41, 42, 43, 44, 45], 45));
    expect(pager()).toMatchObject({ page: 3, hasNext: false, hasPrevious: true });
    pagination.send({ type: 'page.previous' });
    expect(asked()).toMatchObject({ page: 2 });
    await load(twenty(21, 45));
    pagination.send({ type: 'page.next' });
    expect(asked()).toMatchObject({ page: 3 });
  });

  it('keeps the server message of a refused load and retries', async () => {
    const { list, ctl, calls, load, state, ctx } = setup({
      pageSize: 20,
      filters: { startdate: '2025-03-05', enddate: '2025-03-01' },
    });
    ctl.fail(
      'loadPage',
      Object.assign(new Error('Start Date must be on or before End Date'), { status: 400 }),
    );
    await flush();
    expect(state()).toBe('failed');
    expect(ctx().loadError).toBe('Start Date must be on or before End Date');
    expect(calls.failures).toHaveLength(1);
    list().send({ type: 'list.retry' });
    expect(state()).toBe('loading');
    await load([]);
    expect(ctx().loadError).toBeNull();
  });

  it('gives no message of its own for a network failure (the screen shows its own text)', async () => {
    const { ctl, ctx } = setup();
    ctl.fail('loadPage', Object.assign(new Error('Network error'), { status: 0 }));
    await flush();
    expect(ctx().loadError).toBeNull();
  });

  it('updates a row in place after a status change, and reloads after a deletion', async () => {
    const { actor, load, asked, state, ctx } = setup();
    await load(page([1, 2, 3], 3));
    actor.send({ type: 'row.updated', row: row(2, { status: 'Hired' }) });
    expect(ctx().rows.map((r) => r.status)).toEqual(['New', 'Hired', 'New']);
    expect(ctx().rows[0].total_count).toBe(3);
    actor.send({ type: 'row.deleted' });
    expect(state()).toBe('loading');
    await load(page([1, 3], 2));
    expect(ctx().total).toBe(2);
    expect(asked()).toMatchObject({ page: 1 });
  });

  it('steps back to the last page when its last row was deleted', async () => {
    const { actor, calls, pager, load, asked } = setup({ pageSize: 20, page: 3 });
    await load(page([41], 41));
    actor.send({ type: 'row.deleted' });
    await load([]); // page 3 is gone
    expect(asked()).toMatchObject({ page: 2 });
    expect(calls.addresses).toEqual(['page=2']);
    await load(twenty(21, 40));
    expect(pager()).toMatchObject({ page: 2, pageCount: 2 });
  });

  it('goes to page 1 from an address whose page does not exist', async () => {
    const { load, asked } = setup({ pageSize: 20, page: 99 });
    await load([]);
    expect(asked()).toMatchObject({ page: 1 });
  });
});

describe('address helpers', () => {
  it('keep only real days, known statuses and whole pages from a typed address', () => {
    expect(
      cleanFilters({ search: '  asha ', startdate: '2025-02-30', enddate: 'yesterday', status: 'Hired' }),
    ).toEqual({
      search: 'asha',
      startdate: '',
      enddate: '',
      status: 'Hired',
      job_id: '',
      applicationid: '',
    });
    // an opening: a whole number from 1 up to the largest id, without leading zeros
    expect(
      ['12', ' 007 ', '0', '-3', '1.5', 'abc', '2147483648', ''].map(
        (job_id) => cleanFilters({ job_id }).job_id,
      ),
    ).toEqual(['12', '7', '', '', '', '', '', '']);
    expect(cleanFilters({ startdate: '2024-02-29', status: 'hired' })).toMatchObject({
      startdate: '2024-02-29',
      status: '',
    });
    expect(cleanFilters({ search: 'x'.repeat(300) }).search).toHaveLength(200);
    expect([
      cleanPage('2'),
      cleanPage('0'),
      cleanPage('-1'),
      cleanPage('1e9'),
      cleanPage('abc'),
      cleanPage(null),
    ]).toEqual([2, 1, 1, 1, 1, 1]);
  });

  it('write an address without empty filters and without page 1', () => {
    expect(
      addressOf({ search: '', startdate: '', enddate: '', status: '', job_id: '', applicationid: '' }, 1),
    ).toBe('');
    expect(
      addressOf(
        {
          search: 'a b&c',
          startdate: '2025-01-01',
          enddate: '',
          status: 'New',
          job_id: '12',
          applicationid: '7',
        },
        4,
      ),
    ).toBe('search=a+b%26c&startdate=2025-01-01&status=New&job_id=12&application=7&page=4');
  });
});
