import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { fetchBackupStatus } from '../../api/auth';
import { backupStatusMachine } from '../../machines/backup-status.machine';
import { formatWhen } from './users';
import s from './backup-status.module.css';

/**
 * The backup line above the Activity log (issue 16): when the last backup was taken and how big it
 * is, a warning when there is none or it is older than two days, and how to set backups up.
 */
export function BackupStatusNote() {
  const { t, i18n } = useTranslation('admin');
  const [machine] = useState(() =>
    backupStatusMachine.provide({
      actors: { loadStatus: fromPromise(() => fetchBackupStatus()) },
    }),
  );
  const [state, send] = useMachine(machine);
  const status = state.context.status;
  if (state.matches('loading')) return null;
  if (state.matches('failed') || !status) {
    return (
      <div className={s.note}>
        <p>{t('backups.failed')}</p>
        <button type="button" className={s.retry} onClick={() => send({ type: 'status.retry' })}>
          {t('actions.retry')}
        </button>
      </div>
    );
  }
  const megabytes = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
    (status.last?.bytes ?? 0) / 1e6,
  );
  return (
    <div className={status.stale ? s.warning : s.note} data-testid="backup-status">
      <p>
        {!status.configured
          ? t('backups.notSetUp')
          : status.last
            ? t('backups.last', {
                when: formatWhen(status.last.at, i18n.language),
                size: megabytes,
                files: status.last.files,
              })
            : t('backups.none')}
      </p>
      {status.configured && status.stale && status.last && <p>{t('backups.stale')}</p>}
    </div>
  );
}
