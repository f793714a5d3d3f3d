/**
 * What a form machine's submit actor answers when the submission could not reach the server and
 * was kept in the send queue instead (src/offline/submit.ts). No dependencies: machines import it.
 */
export interface QueuedSubmission {
  queued: true;
  /** The send-queue entry, also the submission's Idempotency-Key. */
  id: string;
}

export function isQueued(value: unknown): value is QueuedSubmission {
  return typeof value === 'object' && value !== null && (value as { queued?: unknown }).queued === true;
}
