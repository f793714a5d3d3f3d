import { useSelector } from '@xstate/react';
import type { i18n as I18n } from 'i18next';
import { useEffect, type RefObject } from 'react';
import { fromCallback, fromPromise, type ActorRefFrom } from 'xstate';
import type { queuedChanges, QueuedChangesEvent } from '../../../machines/queued-changes.machine';
import { newIdempotencyKey } from '../../../../contract/idempotency-key';
import {
  cancelOutboxItem,
  claimOutboxItem,
  getOutboxItem,
  onOutboxMessage,
  type OutboxItem,
  type OutboxKind,
} from '../../../offline/send-queue';
import { toastOffline } from './admin-toasts';

/**
 * The `listen` actor of a screen's queued changes (queued-changes.machine.ts): this person's
 * (`owner`) changes of `kind` that the send queue sent, or kept because they met someone else's.
 */
const queuedMessages = (kind: OutboxKind, owner: number) =>
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

/** This tab, as it takes up changes from the send queue (claimOutboxItem). */
const THIS_TAB = newIdempotencyKey();

/**
 * The `readChange` of a screen's queued changes: the entry under `id`, taken by this tab (when
 * the person picked it with Resolve, even from another tab), read by `read` into what the
 * screen's editor takes up; null when it is gone, another tab has it, or `read` cannot read it.
 */
async function takeQueued<C>(
  { id, picked }: { id: string; picked: boolean },
  read: (item: OutboxItem) => C | null,
): Promise<C | null> {
  if (!(await claimOutboxItem(id, THIS_TAB, { force: picked }).catch(() => false))) return null;
  const item = await getOutboxItem(id).catch(() => undefined);
  return item ? read(item) : null;
}

/**
 * A screen's `queued` child with its live effects: this person's (`owner`) changes of `kind`
 * (`queuedMessages`), each taken by this tab and read by `read` into what the screen's editor
 * takes up (`takeQueued`), and a change picked in 'Waiting to send' that is no longer on this
 * device (sent, removed elsewhere) said so.
 */
export const queuedLive = <C>(
  machine: ReturnType<typeof queuedChanges<C>>,
  {
    kind,
    owner,
    read,
    i18n,
  }: { kind: OutboxKind; owner: number; read: (item: OutboxItem) => C | null; i18n: I18n },
) =>
  machine.provide({
    actors: {
      listen: queuedMessages(kind, owner),
      readChange: fromPromise(({ input }) => takeQueued(input, read)),
    },
    actions: { notifyGone: () => toastOffline(i18n, 'error', 'outbox.gone') },
  });

/**
 * The screen's half of its `queued` child: a change it holds goes to the editor (`resume`, which
 * opens it in its conflict view), or, with the editor in use, waits in 'Waiting to send' with a
 * word that says so; either way the child is told it was handed on.
 */
export function useTakeUp<C>(
  queued: ActorRefFrom<ReturnType<typeof queuedChanges<C>>> | undefined,
  editor: RefObject<{ resume(change: C): boolean } | null>,
  i18n: I18n,
) {
  const takingUp = useSelector(queued, (snapshot) => snapshot?.context.takingUp ?? null);
  useEffect(() => {
    if (!takingUp) return;
    // a form in use keeps its work: the change waits in 'Waiting to send'
    if (!editor.current?.resume(takingUp)) toastOffline(i18n, 'info', 'outbox.finishFirst');
    queued?.send({ type: 'queued.taken' });
  }, [takingUp, queued, editor, i18n]);
}

/** The editors' effects for a save kept offline: say so, and drop an entry the editor took up. */
export const queuedSaveEffects = (i18n: I18n) => ({
  notifyQueued: () => toastOffline(i18n, 'info', 'outbox.queuedChange', 6000),
  forgetQueued: (_: unknown, { id }: { id: string | null }) => {
    if (id) void cancelOutboxItem(id);
  },
});
