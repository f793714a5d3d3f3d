import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { answerMessage, ApiError, sendRequest } from '../api/client';
import { newIdempotencyKey } from '../../contract/idempotency-key';
import { OUTBOX_CHANNEL, OUTBOX_DB_NAME, OUTBOX_SYNC_TAG } from './outbox-names';

/**
 * The send queue ("outbox"): contact messages and job applications made while offline stay on the
 * person's own device (IndexedDB) until they can be sent. Each entry carries the one
 * `Idempotency-Key` of its submission, so however often it is sent (from a
 * page on reconnect, on the next start, or from the service worker's Background Sync) the server
 * stores it once.
 *
 * This module runs in pages and in the service worker: no DOM, no React, no app config.
 * Every change is announced on the BroadcastChannel `manna-outbox` (see OutboxMessage).
 */

/**
 * What an entry is: a public form (a contact message, a job application), or a change staff made
 * in the back office without a connection (a new or changed opening or blog post).
 */
export type OutboxKind = 'contact' | 'application' | 'job-opening' | 'blog-post';

/** A file kept with a queued submission (a CV), as a Blob with its name. */
export interface QueuedFile {
  blob: Blob;
  name: string;
}

/** What is sent: a JSON body, or a multipart form with text fields and files. */
export type QueuedBody =
  | { type: 'json'; data: Record<string, unknown> }
  | { type: 'form'; fields: Record<string, string>; files: Record<string, QueuedFile> };

/**
 * `failed`: the server refused the content; `conflict`: a back-office change met someone else's
 * change to the same record (409 with the record as it is now) and waits for its author to choose.
 * Neither is sent again by itself.
 */
export type OutboxStatus = 'waiting' | 'sending' | 'failed' | 'conflict';

/**
 * A back-office change kept with its entry, so its author can be shown the conflict view if the
 * record changed meanwhile: which record, the version the change is based on, the form as it was
 * opened (`base`) and as it was saved (`values`), and the record as it was read (`record`, where
 * the editor needs it). The editor that takes it up checks their shape (an older build's may differ).
 */
export interface QueuedEdit {
  recordId: number;
  version: number | null;
  base: unknown;
  values: unknown;
  record?: unknown;
}

export interface OutboxItem {
  /** Also the Idempotency-Key header of every attempt. */
  id: string;
  kind: OutboxKind;
  /** What the person recognises the entry by, e.g. the job title. Never shown to anyone else. */
  label: string;
  /** Where the request goes (absolute or same-origin path). */
  url: string;
  body: QueuedBody;
  /** POST unless said otherwise. */
  method?: 'POST' | 'PATCH';
  /** Headers of every attempt besides Accept and Idempotency-Key (a back-office change: If-Match, CSRF). */
  headers?: Record<string, string>;
  /**
   * The signed-in staff member whose change this is. Only their own back office shows it and sends
   * it (under their session); the public pages' sender and the service worker leave it alone.
   */
  owner?: number;
  edit?: QueuedEdit;
  /** The server's 409 answer (status 'conflict'): the record as it is now, who changed it, when. */
  conflict?: unknown;
  /** The tab whose editor took the conflict up, and when (claimOutboxItem). */
  claimedBy?: string;
  claimedAt?: number;
  status: OutboxStatus;
  createdAt: number;
  attempts: number;
  lastAttemptAt?: number;
  /** Why the server refused it (status 'failed'), or the last transient problem. */
  error?: string;
}

export type NewOutboxItem = Pick<OutboxItem, 'kind' | 'label' | 'url' | 'body'> &
  Partial<Pick<OutboxItem, 'id' | 'method' | 'headers' | 'owner' | 'edit'>>;

/** Announcements on the `manna-outbox` channel. `added` wakes the senders; the rest refresh lists. */
export type OutboxMessage =
  | { type: 'added'; id: string; kind: OutboxKind }
  | { type: 'changed' }
  | { type: 'sent'; id: string; kind: OutboxKind; label: string; message: string; owner?: number }
  | { type: 'failed'; id: string; kind: OutboxKind; label: string; message: string; owner?: number }
  | { type: 'conflict'; id: string; kind: OutboxKind; label: string; owner?: number };

export { OUTBOX_CHANNEL, OUTBOX_SYNC_TAG };
const DB_NAME = OUTBOX_DB_NAME;
const DB_VERSION = 1;
const STORE = 'items';

interface OutboxDb extends DBSchema {
  items: { key: string; value: OutboxItem; indexes: { createdAt: number } };
}

let dbPromise: Promise<IDBPDatabase<OutboxDb>> | null = null;

function db(): Promise<IDBPDatabase<OutboxDb>> {
  if (!dbPromise) {
    dbPromise = openDB<OutboxDb>(DB_NAME, DB_VERSION, {
      upgrade(database) {
        const store = database.createObjectStore(STORE, { keyPath: 'id' });
        store.createIndex('createdAt', 'createdAt');
      },
      // Another tab or the service worker runs a newer version: let it upgrade, reopen next time.
      blocking() {
        void dbPromise?.then((d) => d.close());
        dbPromise = null;
      },
      terminated() {
        dbPromise = null;
      },
    });
    dbPromise.catch(() => {
      dbPromise = null;
    });
  }
  return dbPromise;
}

/** Closes the connection (tests delete the database between cases). */
export async function closeOutbox(): Promise<void> {
  const current = dbPromise;
  dbPromise = null;
  if (current) (await current.catch(() => null))?.close();
}

export function announce(message: OutboxMessage): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(OUTBOX_CHANNEL);
  channel.postMessage(message);
  channel.close();
}

/** Listens to the outbox channel; returns the function that stops listening. */
export function onOutboxMessage(listener: (message: OutboxMessage) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(OUTBOX_CHANNEL);
  channel.onmessage = (e: MessageEvent<OutboxMessage>) => listener(e.data);
  return () => channel.close();
}

/** Keeps a submission on the device. `id` (the Idempotency-Key) is kept when given. */
export async function enqueue(item: NewOutboxItem, now = Date.now()): Promise<OutboxItem> {
  const stored: OutboxItem = {
    id: item.id ?? newIdempotencyKey(),
    kind: item.kind,
    label: item.label,
    url: item.url,
    body: item.body,
    ...(item.method && { method: item.method }),
    ...(item.headers && { headers: item.headers }),
    ...(item.owner !== undefined && { owner: item.owner }),
    ...(item.edit && { edit: item.edit }),
    status: 'waiting',
    createdAt: now,
    attempts: 0,
  };
  await (await db()).put(STORE, stored);
  announce({ type: 'added', id: stored.id, kind: stored.kind });
  return stored;
}

/**
 * Every kept submission, oldest first (the senders filter them); or, with a kind or an owner, that
 * person's entries (`owner` undefined: the public forms' entries, which have none).
 */
export async function listOutbox(kind?: OutboxKind, owner?: number): Promise<OutboxItem[]> {
  const all = await (await db()).getAllFromIndex(STORE, 'createdAt');
  // with a kind or an owner, one person's entries (the public ones: no owner); with neither, all
  const mine = kind !== undefined || owner !== undefined;
  return all.filter((i) => (!kind || i.kind === kind) && (!mine || i.owner === owner));
}

/** Whether a sender for `owner` (undefined: the public pages and the worker) may send `item` now. */
const sendableBy = (item: OutboxItem, owner: number | undefined) =>
  item.owner === owner && item.status !== 'failed' && item.status !== 'conflict';

export async function getOutboxItem(id: string): Promise<OutboxItem | undefined> {
  return (await db()).get(STORE, id);
}

/** How long a tab that took up a change (its editor open on it) keeps it from the other tabs. */
export const CLAIM_MS = 10 * 60 * 1000;

/**
 * A tab takes up a change that met someone else's (its editor opens on it): true when it is this
 * tab's now, false when another tab took it up in the last CLAIM_MS (unless `force`, the person's
 * own Resolve in this tab) or it is gone. One transaction: two tabs hearing the same conflict
 * cannot both open it.
 */
export async function claimOutboxItem(
  id: string,
  claimant: string,
  { force = false, now = Date.now() }: { force?: boolean; now?: number } = {},
): Promise<boolean> {
  let mine = false;
  await update(id, (item) => {
    const taken = item.claimedBy && item.claimedBy !== claimant && now - (item.claimedAt ?? 0) < CLAIM_MS;
    if (taken && !force) return item;
    mine = true;
    return { ...item, claimedBy: claimant, claimedAt: now };
  });
  return mine;
}

/**
 * Entries that a sender should try now ('sending' left behind by a closed page counts too): the
 * public ones, or with `owner` that staff member's own changes.
 */
export async function pendingCount(owner?: number): Promise<number> {
  return (await listOutbox()).filter((i) => sendableBy(i, owner)).length;
}

/** How many of `owner`'s back-office changes this device keeps, whatever their state. */
export async function countOutboxOf(owner: number): Promise<number> {
  return (await listOutbox(undefined, owner)).length;
}

/** Removes every change of `owner` (they signed out and chose to): the next person gets none of it. */
export async function removeOutboxOf(owner: number): Promise<void> {
  const database = await db();
  const tx = database.transaction(STORE, 'readwrite');
  for (const item of await tx.store.getAll()) if (item.owner === owner) await tx.store.delete(item.id);
  await tx.done;
  announce({ type: 'changed' });
}

/**
 * Cancel: removes a waiting or refused entry. An entry that is being sent right now cannot be
 * taken back (it may already have reached the server); then this answers false.
 */
export async function cancelOutboxItem(id: string, now = Date.now()): Promise<boolean> {
  // Ask before the transaction: a transaction closes when it awaits anything but IndexedDB.
  const someoneSending = await isBeingSent();
  const database = await db();
  const tx = database.transaction(STORE, 'readwrite');
  const item = await tx.store.get(id);
  if (!item) {
    await tx.done;
    return true;
  }
  // 'sending' left behind by a page that closed mid-send (no sender now, a minute old) may go.
  const inFlight = item.status === 'sending' && (someoneSending || now - (item.lastAttemptAt ?? 0) < 60_000);
  if (inFlight) {
    await tx.done;
    return false;
  }
  await tx.store.delete(id);
  await tx.done;
  announce({ type: 'changed' });
  return true;
}

async function update(
  id: string,
  change: (item: OutboxItem) => OutboxItem | null,
): Promise<OutboxItem | null> {
  const database = await db();
  const tx = database.transaction(STORE, 'readwrite');
  const item = await tx.store.get(id);
  if (!item) {
    await tx.done;
    return null;
  }
  const next = change(item);
  if (next) await tx.store.put(next);
  else await tx.store.delete(id);
  await tx.done;
  return next ?? item;
}

/** What one attempt to send gave. */
export type DeliveryResult =
  /** Stored by the server (or already stored under the same key): the entry is removed. */
  | { outcome: 'sent'; message: string }
  /** Not now (no connection, server busy or down): the entry waits for the next try. */
  | { outcome: 'retry'; reason: string }
  /** The server refused the content (a 4xx other than 408/409/429): kept as 'failed' until removed. */
  | { outcome: 'rejected'; message: string }
  /** A back-office change met someone else's (409 with the record now): kept as 'conflict'. */
  | { outcome: 'conflict'; message: string; body: unknown };

export type Deliver = (item: OutboxItem) => Promise<DeliveryResult>;

export interface FlushResult {
  sent: number;
  /** Refused, or (a back-office change) met someone else's. */
  rejected: number;
  /** Entries still waiting after this run. */
  remaining: number;
}

const LOCK = 'manna-outbox-send';
let localLock: Promise<unknown> = Promise.resolve();
let localHeld = false;

/** Whether some context (this one or, where Web Locks exist, any tab or the worker) is sending. */
async function isBeingSent(): Promise<boolean> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks?.query) {
    const state = await locks.query();
    return (state.held ?? []).some((l) => l.name === LOCK);
  }
  return localHeld;
}

/**
 * Runs `fn` while no other sender runs: across tabs and the service worker with the Web Locks API
 * where it exists, within this context otherwise. (A second sender would be harmless for the
 * server thanks to the Idempotency-Key, but it would show the entry twice as sent.)
 */
function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks?.request) return locks.request(LOCK, () => fn()) as Promise<T>;
  const run = localLock.then(async () => {
    localHeld = true;
    try {
      return await fn();
    } finally {
      localHeld = false;
    }
  });
  localLock = run.catch(() => undefined);
  return run;
}

/**
 * Sends every waiting entry, oldest first, one at a time: the public ones, or with `owner` that
 * staff member's own back-office changes (sent with their session). A sent entry is removed and
 * announced ('sent'); a refused one is kept as 'failed', one that met someone else's change as
 * 'conflict', each announced; anything else stays waiting.
 */
export function flushOutbox(
  deliver: Deliver,
  now: () => number = Date.now,
  owner?: number,
): Promise<FlushResult> {
  return exclusive(async () => {
    const result: FlushResult = { sent: 0, rejected: 0, remaining: 0 };
    const items = (await listOutbox()).filter((i) => sendableBy(i, owner));
    for (const queued of items) {
      // It may have been cancelled (or met a conflict in another sender) since the list was read.
      const item = await update(queued.id, (i) =>
        sendableBy(i, owner)
          ? { ...i, status: 'sending', attempts: i.attempts + 1, lastAttemptAt: now() }
          : i,
      );
      if (!item || item.status !== 'sending') continue;
      announce({ type: 'changed' });

      let delivery: DeliveryResult;
      try {
        delivery = await deliver(item);
      } catch (err) {
        delivery = { outcome: 'retry', reason: err instanceof Error ? err.message : String(err) };
      }

      if (delivery.outcome === 'sent') {
        await update(item.id, () => null);
        result.sent += 1;
        announce({
          type: 'sent',
          id: item.id,
          kind: item.kind,
          label: item.label,
          message: delivery.message,
          owner: item.owner,
        });
      } else if (delivery.outcome === 'conflict') {
        await update(item.id, (i) => ({
          ...i,
          status: 'conflict',
          conflict: delivery.body,
          error: delivery.message,
        }));
        result.rejected += 1;
        announce({ type: 'conflict', id: item.id, kind: item.kind, label: item.label, owner: item.owner });
      } else if (delivery.outcome === 'rejected') {
        await update(item.id, (i) => ({ ...i, status: 'failed', error: delivery.message }));
        result.rejected += 1;
        announce({
          type: 'failed',
          id: item.id,
          kind: item.kind,
          label: item.label,
          message: delivery.message,
          owner: item.owner,
        });
      } else {
        await update(item.id, (i) => ({ ...i, status: 'waiting', error: delivery.reason }));
        result.remaining += 1;
        announce({ type: 'changed' });
      }
    }
    return result;
  });
}

/** The request of one attempt: method, Idempotency-Key header and body (FormData or JSON). */
export function requestFor(item: OutboxItem): RequestInit {
  const headers: Record<string, string> = {
    ...item.headers,
    Accept: 'application/json',
    'Idempotency-Key': item.id,
  };
  let body: BodyInit;
  if (item.body.type === 'json') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(item.body.data);
  } else {
    const form = new FormData();
    for (const [name, value] of Object.entries(item.body.fields)) form.append(name, value);
    for (const [name, file] of Object.entries(item.body.files)) form.append(name, file.blob, file.name);
    body = form;
  }
  return { method: item.method ?? 'POST', headers, body };
}

/**
 * Sends one entry through the app's transport (src/api/client.ts). 2xx is 'sent' (a repeat of the
 * key answers the first answer); a 409 holding the record as it is now is a back-office change
 * that met someone else's: 'conflict'; no answer, 408, another 409 (the first attempt still
 * running), 401 (a session that ended), 425, 429 and 5xx are 'retry'; any other 4xx means the content itself was refused:
 * 'rejected' with the server's message.
 */
export const deliverWithFetch: Deliver = async (item) => {
  try {
    const { body } = await sendRequest(item.url, requestFor(item));
    return { outcome: 'sent', message: answerMessage(body) ?? '' };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 409 && (err.body as { current?: unknown } | null)?.current !== undefined) {
      return { outcome: 'conflict', message: err.message, body: err.body };
    }
    // 401: a back-office change whose session ended; it waits until its author signs in again
    if (err.isNetwork || err.status >= 500 || [401, 408, 409, 425, 429].includes(err.status)) {
      return { outcome: 'retry', reason: err.message };
    }
    return { outcome: 'rejected', message: err.message };
  }
};
