import { fromPromise } from 'xstate';
import type { QueuedSubmission } from './queued';
import type { Submission } from './submit';

/**
 * The submit actor of a public form that survives a dropped connection: the one way a form is wired
 * to src/offline/submit.ts. `describe` says what to send (and may load the API module it needs);
 * the actor sends it now, or keeps it in the send queue when the server cannot be reached, and
 * answers the server's answer or `{ queued: true, id }`. The queue's code loads on the first send,
 * not with the page.
 *
 *   sendMessage: queueingActor(async (input: SendInput) => ({ kind: 'contact', label, url, body, send })),
 */
export const queueingActor = <T, I>(describe: (input: I, signal: AbortSignal) => Promise<Submission<T>>) =>
  fromPromise<T | QueuedSubmission, I>(async ({ input, signal }) => {
    const [{ sendOrQueue, asActorOutput }, submission] = await Promise.all([
      import('./submit'),
      describe(input, signal),
    ]);
    return asActorOutput(await sendOrQueue(submission));
  });
