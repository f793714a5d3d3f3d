import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { MailRow } from '../api/contract/mail';
import { MAIL_PAGE_SIZE, mailListMachine, type LoadMailInput } from './mail-list.machine';

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

describe('mail list', () => {
  it('loads a page, filters by status, and pages through the shared pager', async () => {
    const load = vi.fn(async (input: LoadMailInput) => ({
      rows: [row(100 - input.page, input.status || 'sent', 45)],
      configured: input.status !== 'failed',
    }));
    const actor = createActor(
      mailListMachine.provide({ actors: { loadMail: fromPromise(({ input }) => load(input)) } }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ total: 45, configured: true, page: 1 });
    actor.getSnapshot().children.pagination!.send({ type: 'page.select', page: 3 });
    await waitFor(actor, (s) => s.matches('ready') && s.context.page === 3);
    expect(load).toHaveBeenLastCalledWith({ page: 3, pageSize: MAIL_PAGE_SIZE, status: '' });
    actor.send({ type: 'status.change', status: 'failed' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.status === 'failed');
    expect(load).toHaveBeenLastCalledWith({ page: 1, pageSize: MAIL_PAGE_SIZE, status: 'failed' });
    expect(actor.getSnapshot().context.configured).toBe(false);
  });

  it('puts a mail back in line and reloads; a refused retry leaves the list as it was', async () => {
    const retry = vi.fn().mockResolvedValueOnce({}).mockRejectedValueOnce({ status: 404, message: 'gone' });
    const retried = vi.fn();
    const failed = vi.fn();
    const load = vi.fn(async () => ({ rows: [row(7, 'failed', 1)], configured: true }));
    const actor = createActor(
      mailListMachine.provide({
        actors: { loadMail: fromPromise(load), retryMail: fromPromise(({ input }) => retry(input)) },
        actions: { notifyRetried: retried, notifyRetryFailed: failed },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'mail.retry', row: row(7) });
    expect(actor.getSnapshot().context.target?.mail_id).toBe(7);
    await waitFor(actor, (s) => s.matches('ready') && load.mock.calls.length === 2);
    expect(retry).toHaveBeenCalledWith({ mailId: 7 });
    expect(retried).toHaveBeenCalledTimes(1);
    actor.send({ type: 'mail.retry', row: row(7) });
    await waitFor(actor, (s) => s.matches('ready') && failed.mock.calls.length === 1);
    expect(load).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.target).toBeNull();
  });

  it('offers Retry when the list cannot be loaded', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ rows: [], configured: false });
    const actor = createActor(mailListMachine.provide({ actors: { loadMail: fromPromise(load) } })).start();
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'list.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.rows).toEqual([]);
  });
});
