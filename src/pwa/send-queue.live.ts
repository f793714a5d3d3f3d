import type { i18n as I18n } from 'i18next';
import { fromCallback, fromPromise } from 'xstate';
import { sendQueueMachine, type QueueNotice, type SendQueueEvent } from '../machines/send-queue.machine';
import { deliverWithFetch, flushOutbox, onOutboxMessage, pendingCount } from '../offline/send-queue';
import { connectionEvents } from '../offline/online-status';
import { OFFLINE_NS } from './offline-ns';

/**
 * Wakes the sender when any tab adds an entry, and tells it what another tab or the worker sent.
 * With `owner`, only that staff member's own changes; without, the public forms' entries.
 */
const queueEventsOf = (owner?: number) =>
  fromCallback(({ sendBack }) =>
    onOutboxMessage((message) => {
      if (message.type === 'added') sendBack({ type: 'queue.added' } satisfies SendQueueEvent);
      else if (message.type === 'conflict' && message.owner === owner && owner !== undefined) {
        sendBack({
          type: 'queue.conflict',
          kind: message.kind,
          label: message.label,
          message: '',
        } satisfies SendQueueEvent);
      } else if ((message.type === 'sent' || message.type === 'failed') && message.owner === owner) {
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
 * The send queue's sender with its live effects: the pending count, sending what waits (with
 * fetch), the connection and the queue's own events, and a toast for each entry sent or refused.
 * With `owner` it sends that signed-in staff member's own back-office changes instead of the
 * public forms' entries (the back office runs one beside the page's).
 */
export const sendQueueLive = (i18n: I18n, owner?: number) => {
  // The texts and the toasts are loaded when there is something to say, not with the page.
  const announce = async (kind: 'success' | 'error' | 'conflict', notice: QueueNotice) => {
    const [{ showToast }] = await Promise.all([
      import('../components/toasts'),
      i18n.loadNamespaces(OFFLINE_NS),
    ]);
    const t = i18n.getFixedT(null, OFFLINE_NS);
    if (kind === 'conflict') {
      // the screen of that record opens it beside theirs; from anywhere else, Resolve opens it
      showToast('info', { message: t('outbox.conflictChange', { title: notice.label }), duration: 8000 });
    } else if (notice.kind === 'job-opening' || notice.kind === 'blog-post') {
      showToast(kind, {
        message: t(kind === 'error' ? 'outbox.refusedChange' : 'outbox.sentChange', {
          title: notice.label,
          message: notice.message,
        }),
        duration: 4000,
      });
    } else if (kind === 'error') {
      showToast('error', { message: t('outbox.refused', { message: notice.message }), duration: 4000 });
    } else if (notice.kind === 'application') {
      showToast('success', {
        title: t('outbox.application', { title: notice.label }),
        message: notice.message || t('outbox.sentApplication'),
        duration: 4000,
      });
    } else {
      showToast('success', { message: notice.message || t('outbox.sentContact'), duration: 4000 });
    }
  };
  return sendQueueMachine.provide({
    actors: {
      countPending: fromPromise(() => pendingCount(owner)),
      flushQueue: fromPromise(() => flushOutbox(deliverWithFetch, Date.now, owner)),
      connectionEvents,
      queueEvents: queueEventsOf(owner),
    },
    actions: {
      notifySent: (_, notice) => void announce('success', notice),
      notifyRefused: (_, notice) => void announce('error', notice),
      notifyConflict: (_, notice) => void announce('conflict', notice),
    },
  });
};
