import { fromPromise } from 'xstate';
import { fetchBackupStatus } from '../../../api/auth';
import { backupStatusMachine } from '../../../machines/backup-status.machine';

/** The backup and outbox status lines with their live effect: the status from the server. */
export const backupStatusLive = backupStatusMachine.provide({
  actors: { loadStatus: fromPromise(() => fetchBackupStatus()) },
});
