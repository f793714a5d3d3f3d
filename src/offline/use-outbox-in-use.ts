import { useEffect, useState } from 'react';
import { OUTBOX_CHANNEL, OUTBOX_DB_NAME } from './outbox-names';

/** Whether this device has a send queue database (idb and the queue code are not needed to ask). */
export async function outboxDatabaseExists(): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  if (typeof indexedDB.databases !== 'function') return true; // cannot tell: assume it may
  try {
    return (await indexedDB.databases()).some((d) => d.name === OUTBOX_DB_NAME);
  } catch {
    return true;
  }
}

/**
 * True once this device has a send queue (its database exists because something was queued) or
 * any tab or the service worker speaks on the queue's channel. Until then the page loads none of
 * the queue's code (idb, the sender, the 'Waiting to send' list, their texts).
 */
export function useOutboxInUse(): boolean {
  const [inUse, setInUse] = useState(false);
  useEffect(() => {
    if (inUse) return;
    let cancelled = false;
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(OUTBOX_CHANNEL);
    if (channel) channel.onmessage = () => setInUse(true);
    void outboxDatabaseExists().then((exists) => {
      if (exists && !cancelled) setInUse(true);
    });
    return () => {
      cancelled = true;
      channel?.close();
    };
  }, [inUse]);
  return inUse;
}
