import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NO_AUDIT_FILTERS, type AuditFilters } from '../../../api/auth';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../../../../contract/auth';
import { activityInput, activityLive } from './activity.live';
import { BackupStatusNote } from './backup-status';
import { formatWhen, Pager, showingFigures } from '../shared/pager';
import s from '../shared/screen.module.css';

/** Activity: the audit log — who did what to which record, when — newest first, 50 a page. */
export function ActivityScreen() {
  const { t, i18n } = useTranslation('admin');
  const [state, send, list] = useMachine(activityLive, { input: activityInput });
  const { rows, page, pageSize, total, query } = state.context;
  // what the filter form holds until Apply (the list shows `query`, the filters applied)
  const [draft, setDraft] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const filtered = Object.values(query ?? NO_AUDIT_FILTERS).some((v) => v !== '');
  const show = (filters: AuditFilters) => send({ type: 'list.show', query: filters, page: 1 });
  const field = (name: keyof AuditFilters) => ({
    id: `activity-${name}`,
    value: draft[name],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });

  return (
    <section className={s.panel} aria-labelledby="activity-title">
      <h2 id="activity-title">{t('activity.title')}</h2>
      <p className={s.help}>{t('activity.help')}</p>
      <BackupStatusNote />
      <form
        className={s.filters}
        aria-label={t('activity.filters')}
        onSubmit={(e) => {
          e.preventDefault();
          show(draft);
        }}
      >
        <div className={s.filterField}>
          <label htmlFor="activity-actor">{t('activity.person')}</label>
          <input type="search" autoComplete="off" maxLength={254} {...field('actor')} />
        </div>
        <div className={s.filterField}>
          <label htmlFor="activity-entity">{t('activity.kind')}</label>
          <select {...field('entity')}>
            <option value="">{t('activity.all')}</option>
            {AUDIT_ENTITIES.map((kind) => (
              <option key={kind} value={kind}>
                {t(`activity.kinds.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        <div className={s.filterField}>
          <label htmlFor="activity-action">{t('activity.actionFilter')}</label>
          <select {...field('action')}>
            <option value="">{t('activity.all')}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {t(`activity.actions.${action}`)}
              </option>
            ))}
          </select>
        </div>
        <div className={s.filterField}>
          <label htmlFor="activity-from">{t('activity.from')}</label>
          <input type="date" {...field('from')} max={draft.to || undefined} />
        </div>
        <div className={s.filterField}>
          <label htmlFor="activity-to">{t('activity.to')}</label>
          <input type="date" {...field('to')} min={draft.from || undefined} />
        </div>
        <div className={s.filterActions}>
          <button type="submit" className={s.primary}>
            {t('activity.apply')}
          </button>
          {filtered && (
            <button
              type="button"
              className={s.secondary}
              onClick={() => {
                setDraft(NO_AUDIT_FILTERS);
                show(NO_AUDIT_FILTERS);
              }}
            >
              {t('activity.clear')}
            </button>
          )}
        </div>
      </form>
      {state.matches('loading') && <p role="status">{t('loading')}</p>}
      {state.matches('failed') && (
        <div role="alert">
          <p>{t('activity.failed')}</p>
          <button type="button" className={s.secondary} onClick={() => send({ type: 'list.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {state.matches('ready') && rows.length === 0 && (
        <p>{t(filtered ? 'activity.noMatch' : 'activity.empty')}</p>
      )}
      {state.matches('ready') && rows.length > 0 && (
        <>
          <p className={s.help} aria-live="polite">
            {t('activity.showing', showingFigures(page, pageSize, rows.length, total, i18n.language))}
          </p>
          <div className={s.tableWrap} tabIndex={0} role="region" aria-label={t('activity.tableLabel')}>
            <table className={`${s.table} ${s.cards}`}>
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
                    <td data-label={t('activity.when')}>
                      <time dateTime={r.at}>{formatWhen(r.at, i18n.language)}</time>
                    </td>
                    <td className={s.email} data-label={t('activity.who')}>
                      {r.actor_email ?? t('activity.system')}
                    </td>
                    <td data-label={t('activity.action')}>
                      {t(`activity.actions.${r.action}`, { defaultValue: r.action.replace(/_/g, ' ') })}
                    </td>
                    <td data-label={t('activity.record')}>
                      {r.entity.replace(/_/g, ' ')}
                      {r.entity_id ? ` #${r.entity_id}` : ''}
                    </td>
                    <td data-label={t('activity.details')}>{summary(r.detail)}</td>
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

/**
 * A short text of the JSON detail: "job_title: Copy Editor · location: Kochi, India → Remote". A
 * change's old and new values (`values`) stand for its list of changed fields.
 */
function summary(detail: string | null): string {
  if (!detail) return '';
  try {
    const value = JSON.parse(detail) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const { values, ...rest } = value as Record<string, unknown>;
      const changes =
        values && typeof values === 'object'
          ? Object.entries(values as Record<string, [string, string]>).map(
              ([k, [from, to]]) => `${k.replace(/_/g, ' ')}: ${from || '—'} → ${to || '—'}`,
            )
          : [];
      if (changes.length > 0) delete rest.changed;
      return [
        ...Object.entries(rest).map(
          ([k, v]) =>
            `${k.replace(/_/g, ' ')}: ${typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : JSON.stringify(v)}`,
        ),
        ...changes,
      ].join(' · ');
    }
    return String(value);
  } catch {
    return detail;
  }
}
