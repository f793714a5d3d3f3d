import { ApiError } from '../api/client';
import { ACTING_USER_HEADER } from '../../contract/acting-user';
import { newIdempotencyKey } from '../../contract/idempotency-key';
import {
  enqueue,
  OUTBOX_SYNC_TAG,
  type NewOutboxItem,
  type OutboxItem,
  type OutboxKind,
  type QueuedBody,
  type QueuedFile,
} from './send-queue';
import { isOnline } from './online-status';
import type { QueuedSubmission } from './queued';

export { isQueued, type QueuedSubmission } from './queued';

/**
 * One submission of a public form (contact message, job application) that survives a dropped
 * connection. A machine's submit actor calls `sendOrQueue`: it makes the submission's one
 * Idempotency-Key, tries to send now, and when the request cannot reach the server (ApiError
 * status 0, or the browser is offline) keeps it in the send queue with the same key and answers
 * `{ status: 'queued' }` instead of failing. Any answer from the server (sent or refused) is the
 * caller's as usual: a 400 still shows its field errors in the form.
 *
 *   const result = await sendOrQueue({
 *     kind: 'contact', label: fields.name, url: `${config.websiteApi}/contact-messages`,
 *     body: jsonSubmission(fields), idempotencyKey: context.idempotencyKey,
 *     send: (key) => postContactMessage(fields, key),   // sets the Idempotency-Key header
 *   });
 *   return asActorOutput(result);  // the server's answer, or { queued: true, id }
 */

export type SubmitOutcome<T> = { status: 'sent'; answer: T } | { status: 'queued'; item: OutboxItem };

export interface Submission<T> {
  kind: OutboxKind;
  /** What the person recognises the entry by in the list ('Application for: Copy Editor'). */
  label: string;
  /** The address `send` posts to, used again when the queue sends it later. */
  url: string;
  /** The same content `send` sends, in a form IndexedDB keeps (files as Blobs). */
  body: QueuedBody;
  /** Sends now with this Idempotency-Key; throws ApiError like every API function. */
  send: (idempotencyKey: string) => Promise<T>;
  /** The submission's key when the machine already made one; a new one otherwise. */
  idempotencyKey?: string;
  /** Aborted means the person cancelled: never kept, whatever the error. */
  signal?: AbortSignal;
  /** A back-office change: its method and headers, its author, and the form it came from. */
  method?: NewOutboxItem['method'];
  headers?: NewOutboxItem['headers'];
  owner?: number;
  edit?: NewOutboxItem['edit'];
}

export async function sendOrQueue<T>(submission: Submission<T>): Promise<SubmitOutcome<T>> {
  const key = submission.idempotencyKey || newIdempotencyKey();
  if (isOnline()) {
    try {
      return { status: 'sent', answer: await submission.send(key) };
    } catch (err) {
      if (!(err instanceof ApiError && err.isNetwork) || submission.signal?.aborted) throw err;
    }
  }
  if (submission.signal?.aborted) throw new ApiError(0, 'Aborted');
  // The same key: if the failed attempt did reach the server after all, the repeat is not stored twice.
  const item = await enqueue({
    id: key,
    kind: submission.kind,
    label: submission.label,
    url: submission.url,
    body: submission.body,
    method: submission.method,
    // a change sent later names its author: under anyone else's session the server refuses it (409)
    headers:
      submission.owner === undefined
        ? submission.headers
        : { ...submission.headers, [ACTING_USER_HEADER]: String(submission.owner) },
    owner: submission.owner,
    edit: submission.edit,
  });
  void requestBackgroundSync();
  return { status: 'queued', item };
}

/** What a machine's submit actor answers: the server's answer, or that it was kept. */
export function asActorOutput<T>(outcome: SubmitOutcome<T>): T | QueuedSubmission {
  return outcome.status === 'sent' ? outcome.answer : { queued: true, id: outcome.item.id };
}

/** JSON content for the queue (a contact message). */
export function jsonSubmission(data: Record<string, unknown>): QueuedBody {
  return { type: 'json', data };
}

/** Multipart content for the queue (a job application with its CV). */
export function formSubmission(
  fields: Record<string, string>,
  files: Record<string, File | QueuedFile | null | undefined> = {},
): QueuedBody {
  const kept: Record<string, QueuedFile> = {};
  for (const [name, file] of Object.entries(files)) {
    if (!file) continue;
    kept[name] = file instanceof Blob ? { blob: file, name: (file as File).name ?? name } : file;
  }
  return { type: 'form', fields, files: kept };
}

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

/**
 * Asks the service worker to send the queue when the connection is back, even if every page of
 * the site is closed by then (Background Sync, where the browser has it).
 */
export async function requestBackgroundSync(): Promise<boolean> {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const sync = (registration as (ServiceWorkerRegistration & { sync?: SyncManagerLike }) | undefined)?.sync;
    if (!sync) return false;
    await sync.register(OUTBOX_SYNC_TAG);
    return true;
  } catch {
    return false; // no permission, no service worker: the pages send it instead
  }
}
