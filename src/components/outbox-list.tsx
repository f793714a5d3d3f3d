import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutboxEntry } from '../machines/outbox.machine';
import type { OutboxKind } from '../offline/send-queue';
import { formatSavedAt } from '../offline/format';
import { outboxListLive } from './outbox-list.live';
import s from './outbox-list.module.css';

/**
 * 'Waiting to send': the contact messages or job applications kept on this device because they
 * were made without a connection, each with Cancel. Shows nothing when there are none (and in
 * the server render: the list is read after mount). In the back office (`owner`): that person's
 * own changes; one that met someone else's change says so, with Resolve (`onResolve`) beside
 * Remove.
 */
export default function OutboxList({
  kind,
  owner,
  onResolve,
}: {
  kind: OutboxKind;
  owner?: number;
  onResolve?(id: string): void;
}) {
  const { t, i18n } = useTranslation('offline');
  const [machine] = useState(() => outboxListLive(kind, t, owner));
  const [state, send] = useMachine(machine);
  const { entries } = state.context;
  if (entries.length === 0) return null;
  const busy = state.matches('cancelling');
  const labelOf = (e: OutboxEntry) =>
    e.kind === 'application'
      ? t('outbox.application', { title: e.label })
      : e.kind === 'job-opening'
        ? t('outbox.jobOpening', { title: e.label })
        : e.kind === 'blog-post'
          ? t('outbox.blogPost', { title: e.label })
          : t('outbox.contact', { name: e.label });
  const stopped = (e: OutboxEntry) => e.status === 'failed' || e.status === 'conflict';

  return (
    <section className={s.box} aria-labelledby={`outbox-${kind}`} data-testid={`outbox-${kind}`}>
      <h2 id={`outbox-${kind}`} className={s.heading}>
        {t('outbox.heading')}
      </h2>
      <p className={s.intro}>{t(owner === undefined ? 'outbox.intro' : 'outbox.introChanges')}</p>
      <ul className={s.list}>
        {entries.map((e) => {
          const label = labelOf(e);
          return (
            <li key={e.id} className={s.entry} data-testid="outbox-entry">
              <span className={s.what}>
                <span className={s.label}>{label}</span>
                <span className={s.meta}>
                  {t('outbox.savedAt', { time: formatSavedAt(e.createdAt, i18n.language) })}
                </span>
              </span>
              <span className={`${s.badge} ${stopped(e) ? s.failed : ''}`}>
                {e.status === 'sending'
                  ? t('outbox.sending')
                  : e.status === 'failed'
                    ? t('outbox.notSent')
                    : e.status === 'conflict'
                      ? t('outbox.conflict')
                      : t('outbox.waiting')}
              </span>
              {e.status === 'conflict' && onResolve && (
                <button
                  type="button"
                  className={s.resolve}
                  disabled={busy}
                  aria-label={t('outbox.resolveLabel', { label })}
                  onClick={() => onResolve(e.id)}
                >
                  {t('outbox.resolve')}
                </button>
              )}
              <button
                type="button"
                className={s.cancel}
                disabled={busy || e.status === 'sending'}
                aria-label={t(stopped(e) ? 'outbox.removeLabel' : 'outbox.cancelLabel', { label })}
                onClick={() => send({ type: 'item.cancel', id: e.id })}
              >
                {stopped(e) ? t('outbox.remove') : t('outbox.cancel')}
              </button>
              {e.status === 'failed' && e.error && (
                <p className={s.error}>{t('outbox.failed', { message: e.error })}</p>
              )}
              {e.status === 'conflict' && <p className={s.error}>{t('outbox.conflictHint')}</p>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
