import type { i18n as I18n } from 'i18next';
import { fromCallback } from 'xstate';
import { showToast } from '../../components/toasts';
import type { QueuedChangesEvent } from '../../machines/queued-changes.machine';
import { onOutboxMessage, type OutboxKind } from '../../offline/send-queue';

/**
 * The `listen` actor of a screen's queued changes (queued-changes.machine.ts): this person's
 * (`owner`) changes of `kind` that the send queue sent, or kept because they met someone else's.
 */
export const queuedMessages = (kind: OutboxKind, owner: number) =>
  fromCallback(({ sendBack }) =>
    onOutboxMessage((message) => {
      if (message.type !== 'sent' && message.type !== 'conflict') return;
      if (message.kind !== kind || message.owner !== owner) return;
      sendBack(
        (message.type === 'sent'
          ? { type: 'queued.sent' }
          : { type: 'queued.conflict', id: message.id }) satisfies QueuedChangesEvent,
      );
    }),
  );

/** A change picked in 'Waiting to send' that is no longer on this device (sent, removed elsewhere). */
export const notifyQueuedGone = (i18n: I18n) =>
  void i18n
    .loadNamespaces('offline')
    .then(() => showToast('error', { message: i18n.t('offline:outbox.gone') }));
