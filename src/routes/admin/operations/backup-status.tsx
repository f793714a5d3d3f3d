import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { backupStatusLive } from './backup-status.live';
import { formatWhen } from '../shared/pager';
import s from './backup-status.module.css';

/**
 * The status lines above the Activity log: when the last backup was taken and how big it is, a
 * warning when there is none or it is older than two days, and how to set backups up; then the
 * mail outbox (waiting, sent today, failed, the last error, or that mail is not set up).
 */
export function BackupStatusNote() {
  const { t, i18n } = useTranslation('admin');
  const [state, send] = useMachine(backupStatusLive);
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
      <p data-testid="mail-status">
        {status.mail.configured
          ? t('outbox.summary', {
              pending: status.mail.pending,
              sent: status.mail.sent_today,
              failed: status.mail.failed,
            })
          : t('outbox.notSetUp', { pending: status.mail.pending })}
        {status.mail.last_error && status.mail.configured && (
          <> {t('outbox.lastError', { error: status.mail.last_error })}</>
        )}
      </p>
    </div>
  );
}
