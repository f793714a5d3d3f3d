import { useMachine, useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isPasswordLinkKind, type MailRow } from '../../../../contract/mail';
import { MAIL_PAGE_SIZE, type MailStatusFilter } from '../../../machines/mail-list.machine';
import { mailListLive } from './mail.live';
import { formatWhen, Pager, showingFigures } from '../shared/pager';
import s from '../shared/screen.module.css';

const NO_MAIL: MailRow[] = [];

const FILTERS: { value: MailStatusFilter; label: string }[] = [
  { value: '', label: 'mail.all' },
  { value: 'pending', label: 'mail.pending' },
  { value: 'sent', label: 'mail.sent' },
  { value: 'failed', label: 'mail.failed' },
];

/**
 * Mail (users.manage): every mail the site sent or is sending, newest first: recipient, kind,
 * subject, status, attempts and the last error; the text on demand; "Send again" for a mail that
 * was not sent. Without SMTP_URL, a note says mail waits here; where replies to the site's mails
 * go is said, and plainly when they go nowhere (CONTACT_REPLY_TO, HIRING_REPLY_TO unset).
 */
export function MailScreen() {
  const { t, i18n } = useTranslation('admin');
  const filterId = useId();
  const [machine] = useState(() => mailListLive(i18n));
  const [state, send] = useMachine(machine);
  const { status, target } = state.context;
  const listRef = state.children.list;
  const list = useSelector(listRef, (snapshot) => snapshot);
  const rows = list?.context.rows ?? NO_MAIL;
  const settings = list?.context.meta ?? null;
  const configured = settings?.sends ?? null;
  const figures = showingFigures(
    list?.context.page ?? 1,
    MAIL_PAGE_SIZE,
    rows.length,
    list?.context.total ?? 0,
    i18n.language,
  );
  const listed = list?.matches('ready') ?? false;

  return (
    <section className={s.panel} aria-labelledby="mail-title">
      <h2 id="mail-title">{t('mail.title')}</h2>
      <p className={s.help}>{t('mail.help')}</p>
      {configured === false && (
        <p role="note" className={s.help}>
          <strong>{t('mail.notConfigured')}</strong>
        </p>
      )}
      {settings && (
        <ul className={s.help} aria-label={t('mail.repliesLabel')}>
          {(
            [
              ['mail.contactReplies', settings.contact_reply_to, 'CONTACT_REPLY_TO'],
              ['mail.hiringReplies', settings.hiring_reply_to, 'HIRING_REPLY_TO'],
            ] as const
          ).map(([label, address, setting]) => (
            <li key={setting}>
              {t(label)}{' '}
              {address ? (
                address
              ) : (
                <strong>{t('mail.repliesNowhere', { setting, from: settings.from })}</strong>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className={s.inline}>
        <label htmlFor={filterId}>{t('mail.filter')}</label>{' '}
        <select
          id={filterId}
          value={status}
          onChange={(e) => send({ type: 'status.change', status: e.target.value as MailStatusFilter })}
        >
          {FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {t(f.label)}
            </option>
          ))}
        </select>
      </div>
      {(!list || list.matches('loading')) && <p role="status">{t('loading')}</p>}
      {list?.matches('failed') && (
        <div role="alert">
          <p>{t('mail.loadFailed')}</p>
          <button type="button" className={s.secondary} onClick={() => listRef?.send({ type: 'list.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {listed && rows.length === 0 && <p>{t('mail.empty')}</p>}
      {listed && rows.length > 0 && (
        <>
          <p className={s.help} role="status">
            {t('mail.showing', figures)}
          </p>
          <div className={s.tableWrap} tabIndex={0} role="region" aria-label={t('mail.tableLabel')}>
            <table className={s.table}>
              <thead>
                <tr>
                  <th scope="col">{t('mail.queued')}</th>
                  <th scope="col">{t('mail.to')}</th>
                  <th scope="col">{t('mail.subject')}</th>
                  <th scope="col">{t('mail.status')}</th>
                  <th scope="col">{t('users.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <MailLine
                    key={r.mail_id}
                    row={r}
                    busy={target?.mail_id === r.mail_id}
                    disabled={!state.matches('idle')}
                    onRetry={() => send({ type: 'mail.retry', row: r })}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pager pagination={listRef} label={t('mail.pages')} />
    </section>
  );
}

function MailLine({
  row,
  busy,
  disabled,
  onRetry,
}: {
  row: MailRow;
  busy: boolean;
  disabled: boolean;
  onRetry(): void;
}) {
  const { t, i18n } = useTranslation('admin');
  // a Malayalam mail draws with the site's Malayalam face (only such rows fetch it)
  const script = row.lang === 'ml' ? { fontFamily: 'var(--font-ml)' } : undefined;
  const statusLabel = t(
    row.status === 'pending' ? 'mail.pending' : row.status === 'sent' ? 'mail.sent' : 'mail.failed',
  );
  return (
    <tr>
      <td>
        <time dateTime={row.created_at}>{formatWhen(row.created_at, i18n.language)}</time>
      </td>
      <td className={s.email}>{row.to_address}</td>
      <td>
        <span className={s.none}>{t(`mail.kinds.${row.kind}`, { defaultValue: row.kind })}</span>
        <br />
        <span lang={row.lang} style={script}>
          {row.subject}
        </span>
        <details>
          <summary>{t('mail.preview')}</summary>
          <pre
            lang={row.lang}
            style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', margin: 0, ...script }}
          >
            {row.preview}
          </pre>
        </details>
      </td>
      <td>
        <span className={row.status === 'failed' ? s.badgeOff : s.badgeOn}>{statusLabel}</span>
        {row.attempts > 0 && (
          <span className={s.none}>
            {' '}
            · {t('mail.attempts')}: {row.attempts}
          </span>
        )}
        {row.last_error && row.status !== 'sent' && (
          <p className={s.none} style={{ margin: 0, overflowWrap: 'anywhere' }}>
            {t('mail.lastError')}: {row.last_error}
          </p>
        )}
      </td>
      <td>
        {row.status !== 'sent' && !isPasswordLinkKind(row.kind) && (
          <button
            type="button"
            className={s.small}
            disabled={disabled}
            aria-label={t('mail.retryLabel', { email: row.to_address })}
            onClick={onRetry}
          >
            {busy ? t('password.saving') : t('mail.retry')}
          </button>
        )}
      </td>
    </tr>
  );
}
