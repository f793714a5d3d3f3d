import { useMachine, useSelector } from '@xstate/react';
import { useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_URL_MAX,
  eventsOf,
  type WebhookDelivery,
  type WebhookField,
  type WebhookRow,
} from '../../../contract/webhooks';
import { Modal } from '../../components/modal';
import type { WebhookEditorFields } from '../../machines/webhook-editor.machine';
import { useAdminSession } from './admin-context';
import { FieldError } from './field-error';
import { RecordEditorFrame, useRecordEditorHandle, type RecordEditorHandle } from './record-editor-frame';
import { formatWhen } from './users';
import { webhookEditorLive, webhooksLive } from './webhooks.live';
import s from './users.module.css';

const NO_ENDPOINTS: WebhookRow[] = [];

/**
 * Webhooks (webhooks.manage; docs/decisions/037-webhooks.md): the addresses the site tells of what
 * happens on it, each with the events it wants, its signing secret, and its newest deliveries with
 * every attempt; "Send a test event", "Send again", Add, Edit and Delete.
 */
export function WebhooksScreen() {
  const { t, i18n } = useTranslation('admin');
  const [machine] = useState(() => webhooksLive(i18n));
  const [state, send] = useMachine(machine);
  const listRef = state.children.list;
  const list = useSelector(listRef, (snapshot) => snapshot);
  const rows = list?.context.rows ?? NO_ENDPOINTS;
  const listed = list?.matches('ready') ?? false;
  const editor = useRef<RecordEditorHandle<WebhookRow, WebhookEditorFields>>(null);
  const { shown, deliveries, target } = state.context;
  const idle = state.matches({ action: 'idle' });

  return (
    <section className={s.panel} aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t('webhooks.title')}</h2>
      <p className={s.help}>{t('webhooks.help')}</p>
      <div className={s.inline}>
        <button type="button" className={s.primary} onClick={() => editor.current?.open()}>
          {t('webhooks.add')}
        </button>
      </div>
      {(!list || list.matches('loading')) && <p role="status">{t('loading')}</p>}
      {list?.matches('failed') && (
        <div role="alert">
          <p>{t('webhooks.loadFailed')}</p>
          <button type="button" className={s.secondary} onClick={() => listRef?.send({ type: 'list.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {listed && rows.length === 0 && <p>{t('webhooks.empty')}</p>}
      {listed && rows.length > 0 && (
        <ul className={s.roles} aria-label={t('webhooks.listLabel')}>
          {rows.map((row) => (
            <li key={row.endpoint_id} className={s.role}>
              <h3 className={s.roleName} style={{ overflowWrap: 'anywhere' }}>
                {row.url}
              </h3>
              {row.description && <p className={s.help}>{row.description}</p>}
              <p className={s.badges}>
                <span className={row.enabled ? s.badgeOn : s.badgeOff}>
                  {t(row.enabled ? 'webhooks.active' : 'webhooks.paused')}
                </span>{' '}
                {row.last_status && row.last_at && (
                  <span className={s.none}>
                    {t('webhooks.lastDelivery', {
                      status: t(`webhooks.statuses.${row.last_status}`),
                      when: formatWhen(row.last_at, i18n.language),
                    })}
                  </span>
                )}
              </p>
              <p className={s.help}>
                {t('webhooks.events')}: {row.events.map((e) => t(`webhooks.eventNames.${e}`)).join(', ')}
              </p>
              <details>
                <summary>{t('webhooks.secret')}</summary>
                <p className={s.help}>{t('webhooks.secretHelp')}</p>
                <code style={{ overflowWrap: 'anywhere' }}>{row.secret}</code>
              </details>
              <div className={s.rowActions}>
                <div>
                  <button
                    type="button"
                    className={s.small}
                    aria-expanded={shown?.endpoint_id === row.endpoint_id}
                    onClick={() =>
                      shown?.endpoint_id === row.endpoint_id
                        ? send({ type: 'deliveries.close' })
                        : send({ type: 'endpoint.show', row })
                    }
                  >
                    {t('webhooks.deliveries')}
                  </button>
                  <button
                    type="button"
                    className={s.small}
                    disabled={!idle}
                    onClick={() => send({ type: 'endpoint.test', row })}
                  >
                    {state.matches({ action: 'testing' }) && target?.endpoint.endpoint_id === row.endpoint_id
                      ? t('webhooks.sending')
                      : t('webhooks.test')}
                  </button>
                  <button type="button" className={s.small} onClick={() => editor.current?.open(row)}>
                    {t('webhooks.edit')}
                  </button>
                  <button
                    type="button"
                    className={s.smallDanger}
                    disabled={!idle}
                    onClick={() => send({ type: 'endpoint.delete', row })}
                  >
                    {t('webhooks.delete')}
                  </button>
                </div>
              </div>
              {shown?.endpoint_id === row.endpoint_id && (
                <Deliveries
                  row={row}
                  deliveries={deliveries}
                  loading={state.matches({ deliveries: 'loading' }) && deliveries.length === 0}
                  failed={state.matches({ deliveries: 'failed' })}
                  busy={!idle}
                  onRetry={() => send({ type: 'deliveries.refresh' })}
                  onResend={(delivery) => send({ type: 'delivery.resend', row, delivery })}
                />
              )}
            </li>
          ))}
        </ul>
      )}

      <Modal
        open={state.matches({ action: 'confirmingDelete' }) || state.matches({ action: 'deleting' })}
        title={t('confirm.title')}
        onClose={() => send({ type: 'delete.cancel' })}
      >
        <p style={{ overflowWrap: 'anywhere' }}>
          {t('webhooks.confirmDelete', { url: target?.endpoint.url ?? '' })}
        </p>
        <div className={s.actions}>
          <button
            type="button"
            className={s.secondary}
            onClick={() => send({ type: 'delete.cancel' })}
            disabled={!state.matches({ action: 'confirmingDelete' })}
          >
            {t('actions.cancel')}
          </button>
          <button
            type="button"
            className={s.danger}
            onClick={() => send({ type: 'delete.confirm' })}
            disabled={!state.matches({ action: 'confirmingDelete' })}
          >
            {t('webhooks.delete')}
          </button>
        </div>
      </Modal>
      <WebhookDialog
        ref={editor}
        onSaved={(row, created) => send({ type: 'endpoint.saved', row, created })}
      />
    </section>
  );
}

function Deliveries({
  row,
  deliveries,
  loading,
  failed,
  busy,
  onRetry,
  onResend,
}: {
  row: WebhookRow;
  deliveries: WebhookDelivery[];
  loading: boolean;
  failed: boolean;
  busy: boolean;
  onRetry(): void;
  onResend(delivery: WebhookDelivery): void;
}) {
  const { t, i18n } = useTranslation('admin');
  const when = (iso: string) => formatWhen(iso, i18n.language);
  if (loading) return <p role="status">{t('loading')}</p>;
  if (failed)
    return (
      <div role="alert">
        <p>{t('webhooks.deliveriesFailed')}</p>
        <button type="button" className={s.secondary} onClick={onRetry}>
          {t('actions.retry')}
        </button>
      </div>
    );
  if (deliveries.length === 0) return <p>{t('webhooks.noDeliveries')}</p>;
  return (
    <div
      className={s.tableWrap}
      tabIndex={0}
      role="region"
      aria-label={t('webhooks.deliveriesOf', { url: row.url })}
    >
      <table className={s.table}>
        <thead>
          <tr>
            <th scope="col">{t('webhooks.event')}</th>
            <th scope="col">{t('webhooks.status')}</th>
            <th scope="col">{t('webhooks.attempts')}</th>
            <th scope="col">{t('users.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.delivery_id}>
              <td>
                {t(`webhooks.eventNames.${d.event_type}`, { defaultValue: d.event_type })}
                <br />
                <time className={s.none} dateTime={d.created_at}>
                  {when(d.created_at)}
                </time>
              </td>
              <td>
                <span className={d.status === 'failed' ? s.badgeOff : s.badgeOn}>
                  {t(`webhooks.statuses.${d.status}`)}
                </span>
                {d.status === 'pending' && d.next_attempt_at && d.attempts.length > 0 && (
                  <p className={s.none} style={{ margin: 0 }}>
                    {t('webhooks.nextAttempt', { when: when(d.next_attempt_at) })}
                  </p>
                )}
              </td>
              <td>
                {d.attempts.length === 0 ? (
                  <span className={s.none}>{t('webhooks.notYet')}</span>
                ) : (
                  <ol style={{ margin: 0, paddingInlineStart: '1.2em' }}>
                    {d.attempts.map((a) => (
                      <li key={a.at} style={{ overflowWrap: 'anywhere' }}>
                        <time dateTime={a.at}>{when(a.at)}</time> ·{' '}
                        {a.status_code !== null ? `HTTP ${a.status_code}` : t('webhooks.noAnswer')}
                        {a.error && a.status_code === null && <> · {a.error}</>} ·{' '}
                        {t('webhooks.ms', { ms: a.duration_ms })}
                      </li>
                    ))}
                  </ol>
                )}
              </td>
              <td>
                {d.status !== 'pending' && (
                  <button
                    type="button"
                    className={s.small}
                    disabled={busy}
                    aria-label={t('webhooks.resendLabel', {
                      event: t(`webhooks.eventNames.${d.event_type}`, { defaultValue: d.event_type }),
                      when: when(d.created_at),
                    })}
                    onClick={() => onResend(d)}
                  >
                    {t('webhooks.resend')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** 'Add endpoint' / 'Edit endpoint': the record editor's frame with the endpoint's fields. */
function WebhookDialog({
  onSaved,
  ref,
}: {
  onSaved(row: WebhookRow, created: boolean): void;
  ref?: Ref<RecordEditorHandle<WebhookRow, WebhookEditorFields>>;
}) {
  const { t, i18n } = useTranslation('admin');
  const { user } = useAdminSession();
  const [machine] = useState(() => webhookEditorLive(i18n, user.user_id, onSaved));
  const [state, send] = useMachine(machine);
  useRecordEditorHandle(ref, state, send);
  const { fields, errors, mode } = state.context;
  const saving = state.matches('submitting') || state.matches('conflict');
  const message = (field: WebhookField) => {
    const code = errors[field];
    return code
      ? t(`webhooks.errors.${code}`, { defaultValue: WEBHOOK_MESSAGES[code], max: WEBHOOK_URL_MAX })
      : null;
  };
  const invalid = (field: WebhookField) =>
    errors[field] ? { 'aria-invalid': true, 'aria-describedby': `webhook-${field}-error` } : {};
  const chosen = eventsOf(fields.events);
  const toggle = (event: (typeof WEBHOOK_EVENTS)[number], on: boolean) =>
    send({
      type: 'field.change',
      field: 'events',
      value: (on ? [...chosen, event] : chosen.filter((e) => e !== event)).join(','),
    });
  const labelOf = (field: keyof WebhookEditorFields) => t(`webhooks.fields.${field}`);

  return (
    <RecordEditorFrame
      state={state}
      send={send}
      title={t(mode === 'edit' ? 'webhooks.editTitle' : 'webhooks.addTitle')}
      labelOf={labelOf}
      readable={(field, value) =>
        field === 'events'
          ? eventsOf(String(value))
              .map((e) => t(`webhooks.eventNames.${e}`))
              .join(', ')
          : field === 'enabled'
            ? t(value ? 'webhooks.active' : 'webhooks.paused')
            : String(value ?? '')
      }
      changed={false}
      submitLabel={t(
        state.matches('submitting') ? 'webhooks.saving' : mode === 'edit' ? 'webhooks.save' : 'webhooks.add',
      )}
      onRestored={() => {}}
    >
      <div className={s.inlineFields} style={{ display: 'grid', gap: 'var(--space-3)' }}>
        <div>
          <label htmlFor="webhook-url">{labelOf('url')}</label>
          <input
            id="webhook-url"
            type="url"
            inputMode="url"
            value={fields.url}
            maxLength={WEBHOOK_URL_MAX + 1}
            placeholder="https://hooks.example.com/manna"
            disabled={saving}
            style={{ width: '100%' }}
            onChange={(e) => send({ type: 'field.change', field: 'url', value: e.target.value })}
            {...invalid('url')}
          />
          <FieldError id="webhook-url-error" message={message('url')} />
        </div>
        <div>
          <label htmlFor="webhook-description">{labelOf('description')}</label>
          <input
            id="webhook-description"
            value={fields.description}
            placeholder={t('webhooks.descriptionPlaceholder')}
            disabled={saving}
            style={{ width: '100%' }}
            onChange={(e) => send({ type: 'field.change', field: 'description', value: e.target.value })}
            {...invalid('description')}
          />
          <FieldError id="webhook-description-error" message={message('description')} />
        </div>
        <fieldset
          id="webhook-events"
          tabIndex={-1}
          disabled={saving}
          aria-describedby={errors.events ? 'webhook-events-error' : undefined}
        >
          <legend>{labelOf('events')}</legend>
          <div className={s.perms}>
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className={s.perm}>
                <input
                  type="checkbox"
                  checked={chosen.includes(event)}
                  onChange={(e) => toggle(event, e.target.checked)}
                />
                {t(`webhooks.eventNames.${event}`)}
              </label>
            ))}
          </div>
          <FieldError id="webhook-events-error" message={message('events')} />
        </fieldset>
        <label className={s.perm}>
          <input
            type="checkbox"
            checked={fields.enabled}
            disabled={saving}
            onChange={(e) => send({ type: 'field.change', field: 'enabled', value: e.target.checked })}
          />
          {t('webhooks.fields.enabled')}
        </label>
      </div>
    </RecordEditorFrame>
  );
}
