/**
 * Names the send queue shares with the page that starts it (src/pwa) and the service worker, in a
 * module without code, so the page can ask whether this device has a queue before loading idb and
 * the sender.
 */
export const OUTBOX_CHANNEL = 'manna-outbox';
/** Background Sync tag the service worker answers. */
export const OUTBOX_SYNC_TAG = 'manna-outbox';
/** The IndexedDB database of the queue; it exists once something was queued or listed here. */
export const OUTBOX_DB_NAME = 'manna-outbox';
