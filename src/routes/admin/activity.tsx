import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { activityInput, activityLive } from './activity.live';
import { BackupStatusNote } from './backup-status';
import { Pager, showingFigures } from './pager';
import { formatWhen } from './users';
import s from './users.module.css';

/** Activity: the audit log — who did what to which record, when — newest first, 50 a page. */
export function ActivityScreen() {
  const { t, i18n } = useTranslation('admin');
  const [state, send, list] = useMachine(activityLive, { input: activityInput });
  const { rows, page, pageSize, total } = state.context;

  return (
    <section className={s.panel} aria-labelledby="activity-title">
      <h2 id="activity-title">{t('activity.title')}</h2>
      <p className={s.help}>{t('activity.help')}</p>
      <BackupStatusNote />
      {state.matches('loading') && <p role="status">{t('loading')}</p>}
      {state.matches('failed') && (
        <div role="alert">
          <p>{t('activity.failed')}</p>
          <button type="button" className={s.secondary} onClick={() => send({ type: 'list.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {state.matches('ready') && rows.length === 0 && <p>{t('activity.empty')}</p>}
      {state.matches('ready') && rows.length > 0 && (
        <>
          <p className={s.help} aria-live="polite">
            {t('activity.showing', showingFigures(page, pageSize, rows.length, total, i18n.language))}
          </p>
          <div className={s.tableWrap} tabIndex={0} role="region" aria-label={t('activity.tableLabel')}>
            <table className={s.table}>
              <thead>
                <tr>
                  <th scope="col">{t('activity.when')}</th>
                  <th scope="col">{t('activity.who')}</th>
                  <th scope="col">{t('activity.action')}</th>
                  <th scope="col">{t('activity.record')}</th>
                  <th scope="col">{t('activity.details')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.audit_id}>
                    <td>
                      <time dateTime={r.at}>{formatWhen(r.at, i18n.language)}</time>
                    </td>
                    <td className={s.email}>{r.actor_email ?? t('activity.system')}</td>
                    <td>{r.action.replace(/_/g, ' ')}</td>
                    <td>
                      {r.entity.replace(/_/g, ' ')}
                      {r.entity_id ? ` #${r.entity_id}` : ''}
                    </td>
                    <td>{summary(r.detail)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager pagination={list} label={t('activity.pages')} />
        </>
      )}
    </section>
  );
}

/** A short text of the JSON detail: "job_title: Copy Editor · changed: location". */
function summary(detail: string | null): string {
  if (!detail) return '';
  try {
    const value = JSON.parse(detail) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.entries(value as Record<string, unknown>)
        .map(
          ([k, v]) =>
            `${k.replace(/_/g, ' ')}: ${typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : JSON.stringify(v)}`,
        )
        .join(' · ');
    }
    return String(value);
  } catch {
    return detail;
  }
}
