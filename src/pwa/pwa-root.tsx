import { lazy, Suspense } from 'react';
import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useOutboxInUse } from '../offline/use-outbox-in-use';
import { OFFLINE_NS } from './offline-ns';
import { swUpdateLive } from './sw-update.live';
import s from './pwa.module.css';

/** The sender of the send queue, with idb: loaded only on a device that has a queue. */
const SendQueue = lazy(() => import('./send-queue-runner'));

/** The update toast and the first-install note (sw-update.machine.ts). */
function UpdatePrompt() {
  const [state, send] = useMachine(swUpdateLive);
  const showUpdate = state.matches({ prompt: 'updateAvailable' }) || state.matches({ prompt: 'updating' });
  const showReady = state.matches({ prompt: 'offlineReady' });
  if (!showUpdate && !showReady) return null;
  return (
    <UpdateToast
      showUpdate={showUpdate}
      updating={state.matches({ prompt: 'updating' })}
      onEvent={(type) => send({ type })}
    />
  );
}

/** Its texts load when the toast is first shown (until then it renders nothing). */
function UpdateToast({
  showUpdate,
  updating,
  onEvent,
}: {
  showUpdate: boolean;
  updating: boolean;
  onEvent: (type: 'update.reload' | 'update.dismiss' | 'ready.dismiss') => void;
}) {
  const { t, ready } = useTranslation(OFFLINE_NS, { useSuspense: false });
  if (!ready) return null;
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
              disabled={updating}
              onClick={() => onEvent('update.reload')}
            >
              {t('update.reload')}
            </button>
            <button type="button" className={s.secondary} onClick={() => onEvent('update.dismiss')}>
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
          <button type="button" className={s.secondary} onClick={() => onEvent('ready.dismiss')}>
            {t('ready.dismiss')}
          </button>
        </>
      )}
    </div>
  );
}

export function PwaRoot({ registerServiceWorker }: { registerServiceWorker: boolean }) {
  const { t } = useTranslation();
  const outboxInUse = useOutboxInUse();
  return (
    <section className={s.region} aria-label={t('siteNotifications')}>
      {outboxInUse && (
        <Suspense fallback={null}>
          <SendQueue />
        </Suspense>
      )}
      {registerServiceWorker && <UpdatePrompt />}
    </section>
  );
}
