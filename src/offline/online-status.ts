import { useSyncExternalStore } from 'react';
import { fromCallback } from 'xstate';

/**
 * Whether the browser has a connection, for machines (an actor) and screens (a hook). "Online"
 * is the browser's own view (navigator.onLine): it can be online while our server is down, so
 * senders still treat a failed request (ApiError status 0) as "not sent" whatever this says.
 */

export type ConnectionEvent = { type: 'connection.online' } | { type: 'connection.offline' };

export function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/**
 * A machine's actor: sends `connection.online` / `connection.offline` when the connection changes
 * (invoke it with `id: 'connectionEvents'`, `src: 'connectionEvents'`).
 */
export const connectionEvents = fromCallback(({ sendBack }) =>
  subscribe(() =>
    sendBack({ type: isOnline() ? 'connection.online' : 'connection.offline' } satisfies ConnectionEvent),
  ),
);

/**
 * The connection for a screen: `null` while the server render and hydration run (the server cannot
 * know, so the first render must not depend on it), then true or false, updated as it changes.
 */
export function useOnlineStatus(): boolean | null {
  return useSyncExternalStore<boolean | null>(subscribe, isOnline, () => null);
}
