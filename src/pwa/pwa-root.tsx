import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fromCallback, fromPromise } from 'xstate';
import { swUpdateMachine } from '../machines/sw-update.machine';
import { sendQueueMachine, type QueueNotice, type SendQueueEvent } from '../machines/send-queue.machine';
import { deliverWithFetch, flushOutbox, onOutboxMessage, pendingCount } from '../offline/send-queue';
import { connectionEvents } from '../offline/online-status';
import { showToast } from '../components/toasts';
import { serviceWorkerActor } from './service-worker';
import s from './pwa.module.css';

export const OFFLINE_NS = 'offline';

/** Wakes the sender when any tab adds an entry, and tells it what another tab or the worker sent. */
const queueEvents = fromCallback(({ sendBack }) =>
  onOutboxMessage((message) => {
    if (message.type === 'added') sendBack({ type: 'queue.added' } satisfies SendQueueEvent);
    else if (message.type === 'sent' || message.type === 'failed') {
      sendBack({
        type: message.type === 'sent' ? 'queue.sent' : 'queue.refused',
        kind: message.kind,
        label: message.label,
        message: message.message,
      } satisfies SendQueueEvent);
    }
  }),
);

/**
 * Sends the send queue from the page and says so with a toast (whoever sent it: this tab,
 * another tab or the service worker, so each sent entry is announced once per open tab).
 */
function SendQueue() {
  const { t } = useTranslation(OFFLINE_NS);
  const noticeText = (n: QueueNotice) =>
    n.kind === 'application'
      ? {
          title: t('outbox.application', { title: n.label }),
          message: n.message || t('outbox.sentApplication'),
        }
      : { title: undefined, message: n.message || t('outbox.sentContact') };
  useMachine(
    sendQueueMachine.provide({
      actors: {
        countPending: fromPromise(() => pendingCount()),
        flushQueue: fromPromise(() => flushOutbox(deliverWithFetch)),
        connectionEvents,
        queueEvents,
      },
      actions: {
        notifySent: (_, notice) => showToast('success', { ...noticeText(notice), duration: 4000 }),
        notifyRefused: (_, notice) =>
          showToast('error', { message: t('outbox.refused', { message: notice.message }), duration: 4000 }),
      },
    }),
  );
  return null;
}

/** The update toast and the first-install note (sw-update.machine.ts). */
function UpdatePrompt() {
  const { t } = useTranslation(OFFLINE_NS);
  const [state, send] = useMachine(
    swUpdateMachine.provide({
      actors: { serviceWorker: serviceWorkerActor },
      actions: { reloadPage: () => window.location.reload() },
    }),
  );
  const showUpdate = state.matches({ prompt: 'updateAvailable' }) || state.matches({ prompt: 'updating' });
  const showReady = state.matches({ prompt: 'offlineReady' });
  if (!showUpdate && !showReady) return null;
  return (
    <div className={s.toast} role="status" data-testid={showUpdate ? 'sw-update' : 'sw-ready'}>
      {showUpdate ? (
        <>
          <p className={s.text}>
            <span className={s.title}>{t('update.available')}</span>
          </p>
          <div className={s.actions}>
            <button
              type="button"
              className={s.primary}
              disabled={state.matches({ prompt: 'updating' })}
              onClick={() => send({ type: 'update.reload' })}
            >
              {t('update.reload')}
            </button>
            <button type="button" className={s.secondary} onClick={() => send({ type: 'update.dismiss' })}>
              {t('update.later')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className={s.text}>
            <span className={s.title}>{t('ready.title')}</span>
            <span className={s.detail}>{t('ready.text')}</span>
          </p>
          <button type="button" className={s.secondary} onClick={() => send({ type: 'ready.dismiss' })}>
            {t('ready.dismiss')}
          </button>
        </>
      )}
    </div>
  );
}

export function PwaRoot({ registerServiceWorker }: { registerServiceWorker: boolean }) {
  const { t, ready } = useTranslation(OFFLINE_NS, { useSuspense: false });
  if (!ready) return null;
  return (
    <section className={s.region} aria-label={t('notifications')}>
      <SendQueue />
      {registerServiceWorker && <UpdatePrompt />}
    </section>
  );
}
