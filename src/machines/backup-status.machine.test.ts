import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { BackupStatus } from '../../contract/auth';
import { backupStatusMachine } from './backup-status.machine';

const STATUS: BackupStatus = {
  configured: true,
  last: { at: '2026-11-24T03:00:00.000Z', bytes: 1, files: 1 },
  stale: false,
  mail: { configured: false, pending: 2, sent_today: 0, failed: 0, last_error: null },
};

describe('backup status', () => {
  it('shows the status, or a failure that a retry recovers from', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(Object.assign(new Error('down'), { status: 503 }))
      .mockResolvedValueOnce(STATUS);
    const failures = vi.fn();
    const actor = createActor(
      backupStatusMachine.provide({
        actors: { loadStatus: fromPromise(load) },
        actions: { reportFailure: (_, { error }) => failures(error) },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(failures).toHaveBeenCalledTimes(1);
    actor.send({ type: 'status.retry' });
    await waitFor(actor, (s) => s.matches('shown'));
    expect(actor.getSnapshot().context.status).toEqual(STATUS);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
