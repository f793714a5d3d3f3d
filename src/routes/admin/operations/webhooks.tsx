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
} from '../../../../contract/webhooks';
import { Modal } from '../../../components/modal';
import type { WebhookEditorFields } from '../../../machines/webhook-editor.machine';
import { useAdminSession } from '../shared/admin-context';
import { FieldError } from '../shared/field-error';
import { RecordEditorFrame, useRecordEditorHandle, type RecordEditorHandle } from '../shared/record-editor-frame';
import { formatWhen } from '../shared/pager';
import { webhookEditorLive, webhooksLive } from './webhooks.live';
import s from '../shared/screen.module.css';
import c from '../shared/admin-controls.module.css';
import w from './webhooks.module.css';

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
      <div className={w.toolbar}>
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
        <ul className={w.list} aria-label={t('webhooks.listLabel')}>
          {rows.map((row) => {
            const open = shown?.endpoint_id === row.endpoint_id;
            return (
              <li key={row.endpoint_id} className={w.card}>
                <h3 className={w.url}>{row.url}</h3>
                {row.description && <p className={w.meta}>{row.description}</p>}
                <p className={w.meta}>
                  <span className={row.enabled ? s.badgeOn : s.badgeOff}>
                    {t(row.enabled ? 'webhooks.active' : 'webhooks.paused')}
                  </span>
                  {row.last_status && row.last_at && (
                    <span>
                      {t('webhooks.lastDelivery', {
                        status: t(`webhooks.statuses.${row.last_status}`),
                        when: formatWhen(row.last_at, i18n.language),
                      })}
                    </span>
                  )}
                </p>
                <p className={w.meta}>
                  {t('webhooks.events')}: {row.events.map((e) => t(`webhooks.eventNames.${e}`)).join(', ')}
                </p>
                <details className={w.secret}>
                  <summary>{t('webhooks.secret')}</summary>
                  <p className={s.help}>{t('webhooks.secretHelp')}</p>
                  <code>{row.secret}</code>
                </details>
                <div className={w.buttons}>
                  <button
                    type="button"
                    className={s.small}
                    aria-expanded={open}
                    onClick={() =>
                      open ? send({ type: 'deliveries.close' }) : send({ type: 'endpoint.show', row })
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
                {open && (
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
            );
          })}
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

/** An endpoint's newest deliveries, each with every attempt: when, the answer, how long. */
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
  const eventName = (type: string) => t(`webhooks.eventNames.${type}`, { defaultValue: type });
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
    <section aria-label={t('webhooks.deliveriesOf', { url: row.url })}>
      <ol className={w.deliveries}>
        {deliveries.map((d) => (
          <li key={d.delivery_id} className={w.delivery}>
            <p className={w.meta}>
              <strong>{eventName(d.event_type)}</strong>
              <time dateTime={d.created_at}>{when(d.created_at)}</time>
              <span
                className={
                  d.status === 'failed' ? s.badgeOff : d.status === 'pending' ? s.badgeNone : s.badgeOn
                }
              >
                {t(`webhooks.statuses.${d.status}`)}
              </span>
              {d.status === 'pending' && d.next_attempt_at && d.attempts.length > 0 && (
                <span>{t('webhooks.nextAttempt', { when: when(d.next_attempt_at) })}</span>
              )}
            </p>
            {d.attempts.length === 0 ? (
              <p className={w.meta}>{t('webhooks.notYet')}</p>
            ) : (
              <ol className={w.attempts} aria-label={t('webhooks.attempts')}>
                {d.attempts.map((a) => (
                  <li key={a.at}>
                    <time dateTime={a.at}>{when(a.at)}</time> ·{' '}
                    {a.status_code !== null ? `HTTP ${a.status_code}` : t('webhooks.noAnswer')}
                    {a.error && a.status_code === null && <> · {a.error}</>} ·{' '}
                    {t('webhooks.ms', { ms: a.duration_ms })}
                  </li>
                ))}
              </ol>
            )}
            {d.status !== 'pending' && (
              <div className={w.buttons}>
                <button
                  type="button"
                  className={s.small}
                  disabled={busy}
                  aria-label={t('webhooks.resendLabel', {
                    event: eventName(d.event_type),
                    when: when(d.created_at),
                  })}
                  onClick={() => onResend(d)}
                >
                  {t('webhooks.resend')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
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
      <div className={c.field}>
        <label htmlFor="webhook-url">{labelOf('url')}</label>
        <input
          id="webhook-url"
          type="url"
          inputMode="url"
          value={fields.url}
          maxLength={WEBHOOK_URL_MAX + 1}
          placeholder="https://hooks.example.com/manna"
          disabled={saving}
          onChange={(e) => send({ type: 'field.change', field: 'url', value: e.target.value })}
          {...invalid('url')}
        />
        <FieldError id="webhook-url-error" message={message('url')} />
      </div>
      <div className={c.field}>
        <label htmlFor="webhook-description">{labelOf('description')}</label>
        <input
          id="webhook-description"
          value={fields.description}
          placeholder={t('webhooks.descriptionPlaceholder')}
          disabled={saving}
          onChange={(e) => send({ type: 'field.change', field: 'description', value: e.target.value })}
          {...invalid('description')}
        />
        <FieldError id="webhook-description-error" message={message('description')} />
      </div>
      <fieldset
        id="webhook-events"
        className={w.checks}
        tabIndex={-1}
        disabled={saving}
        aria-describedby={errors.events ? 'webhook-events-error' : undefined}
      >
        <legend>{labelOf('events')}</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event} className={w.check}>
            <input
              type="checkbox"
              checked={chosen.includes(event)}
              onChange={(e) => toggle(event, e.target.checked)}
            />
            {t(`webhooks.eventNames.${event}`)}
          </label>
        ))}
        <FieldError id="webhook-events-error" message={message('events')} />
      </fieldset>
      <label className={w.check}>
        <input
          type="checkbox"
          checked={fields.enabled}
          disabled={saving}
          onChange={(e) => send({ type: 'field.change', field: 'enabled', value: e.target.checked })}
        />
        {t('webhooks.fields.enabled')}
      </label>
    </RecordEditorFrame>
  );
}
