import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { MailRow, MailSettings } from '../../contract/mail';
import { MAIL_PAGE_SIZE, mailList, mailListMachine, type MailStatusFilter } from './mail-list.machine';
import type { LoadPageInput } from './paged-list.machine';

const settings = (sends: boolean): MailSettings => ({
  sends,
  from: 'Manna <no-reply@manna.example>',
  contact_reply_to: null,
  hiring_reply_to: 'hiring@manna.example',
});

const row = (mail_id: number, status = 'failed', total_count?: number): MailRow => ({
  mail_id,
  kind: 'message-ack',
  lang: 'en',
  to_address: `writer${mail_id}@journal.example`,
  subject: 'We received your message',
  preview: 'Hello',
  status,
  attempts: 1,
  last_error: status === 'failed' ? '550 No such mailbox' : null,
  created_at: '2026-11-25T10:00:00.000Z',
  sent_at: null,
  ...(total_count === undefined ? {} : { total_count }),
});

type Load = (
  input: LoadPageInput<{ status: MailStatusFilter }>,
) => Promise<{ rows: MailRow[]; meta: MailSettings }>;

function start(
  load: Load,
  retry?: (input: { mailId: number }) => Promise<unknown>,
  spies = { retried: vi.fn(), failed: vi.fn() },
) {
  const actor = createActor(
    mailListMachine.provide({
      actors: {
        list: mailList.provide({ actors: { loadPage: fromPromise(({ input }) => load(input)) } }),
        retryMail: fromPromise(({ input }) => (retry ?? (async () => ({})))(input)),
      },
      actions: { notifyRetried: spies.retried, notifyRetryFailed: spies.failed },
    }),
  ).start();
  const list = () => actor.getSnapshot().children.list!;
  return { actor, list, spies };
}

describe('mail list', () => {
  it('loads a page, filters by status, and pages through the shared pager', async () => {
    const load = vi.fn(async (input: LoadPageInput<{ status: MailStatusFilter }>) => ({
      rows: [row(100 - input.page, input.query.status || 'sent', 45)],
      meta: settings(input.query.status !== 'failed'),
    }));
    const { actor, list } = start(load);
    await waitFor(list(), (s) => s.matches('ready'));
    expect(list().getSnapshot().context).toMatchObject({ total: 45, meta: { sends: true }, page: 1 });
    list().send({ type: 'page.select', page: 3 });
    await waitFor(list(), (s) => s.matches('ready') && s.context.page === 3);
    expect(load).toHaveBeenLastCalledWith({ page: 3, pageSize: MAIL_PAGE_SIZE, query: { status: '' } });
    actor.send({ type: 'status.change', status: 'failed' });
    await waitFor(list(), (s) => s.matches('ready') && s.context.query.status === 'failed');
    expect(load).toHaveBeenLastCalledWith({ page: 1, pageSize: MAIL_PAGE_SIZE, query: { status: 'failed' } });
    expect(list().getSnapshot().context.meta?.sends).toBe(false);
  });

  it('puts a mail back in line and reloads; a refused retry leaves the list as it was', async () => {
    const retry = vi.fn().mockResolvedValueOnce({}).mockRejectedValueOnce({ status: 404, message: 'gone' });
    const load = vi.fn(async () => ({ rows: [row(7, 'failed', 1)], meta: settings(true) }));
    const { actor, list, spies } = start(load, retry);
    await waitFor(list(), (s) => s.matches('ready'));
    actor.send({ type: 'mail.retry', row: row(7) });
    expect(actor.getSnapshot().context.target?.mail_id).toBe(7);
    await waitFor(list(), (s) => s.matches('ready') && load.mock.calls.length === 2);
    expect(retry).toHaveBeenCalledWith({ mailId: 7 });
    expect(spies.retried).toHaveBeenCalledTimes(1);
    actor.send({ type: 'mail.retry', row: row(7) });
    await waitFor(actor, (s) => s.matches('idle') && spies.failed.mock.calls.length === 1);
    expect(load).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.target).toBeNull();
  });

  it('offers Retry when the list cannot be loaded', async () => {
    const load = vi
      .fn<Load>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ rows: [], meta: settings(false) });
    const { list } = start(load);
    await waitFor(list(), (s) => s.matches('failed'));
    list().send({ type: 'list.retry' });
    await waitFor(list(), (s) => s.matches('ready'));
    expect(list().getSnapshot().context.rows).toEqual([]);
  });
});
