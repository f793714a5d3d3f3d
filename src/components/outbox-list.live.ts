import type { TFunction } from 'i18next';
import { fromCallback, fromPromise } from 'xstate';
import { outboxMachine, type OutboxEntry } from '../machines/outbox.machine';
import { cancelOutboxItem, listOutbox, onOutboxMessage, type OutboxKind } from '../offline/send-queue';
import { showToast } from './toasts';

const outboxEvents = fromCallback(({ sendBack }) =>
  onOutboxMessage(() => sendBack({ type: 'outbox.changed' })),
);

/**
 * 'Waiting to send' with its live effects: the entries of one kind in the device's send queue
 * (with `owner`, that staff member's own back-office changes), told again whenever any tab or the
 * worker changes it, Cancel, and the toasts (`t` of the `offline` texts).
 */
export const outboxListLive = (kind: OutboxKind, t: TFunction, owner?: number) =>
  outboxMachine.provide({
    actors: {
      loadEntries: fromPromise<OutboxEntry[]>(async () =>
        (await listOutbox(kind, owner)).map(({ id, kind: k, label, status, createdAt, error }) => ({
          id,
          kind: k,
          label,
          status,
          createdAt,
          error,
        })),
      ),
      cancelEntry: fromPromise(({ input }: { input: { id: string } }) => cancelOutboxItem(input.id)),
      outboxEvents,
    },
    actions: {
      notifyCancelled: () => showToast('info', { message: t('outbox.cancelled') }),
      notifyInFlight: () => showToast('info', { message: t('outbox.inFlight') }),
      notifyCancelFailed: () => showToast('error', { message: t('outbox.cancelFailed') }),
    },
  });
