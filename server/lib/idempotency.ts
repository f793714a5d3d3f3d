import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forgetKeysBefore, keyHolder, releaseKey, reserveKey, storeAnswer } from '../db/idempotency.repo';
import { HttpError } from '../http-error';

/** Keys are kept this long; a repeat within it gets the first answer. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const KEY_REUSED = 'This Idempotency-Key was already used for a different request.';
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/**
 * Runs a public POST at most once per `Idempotency-Key` header. Without the header the request
 * simply runs. With it, the first request reserves the key with the SHA-256 of its content, runs,
 * and stores its answer; a repeat within 24 hours gets that answer back and stores nothing new; a
 * repeat while the first is still running gets 409; the key with a different content gets 422 (as
 * payment APIs answer), never the first request's answer. A run that throws releases the key, so
 * a retry after a failure is processed normally.
 *
 * The content is the parsed JSON body unless the caller gives its own `fingerprint` (a multipart
 * form: its fields and the file's bytes).
 */
export async function withIdempotency(
  app: FastifyInstance,
  request: FastifyRequest,
  scope: string,
  run: () => Promise<StoredAnswer>,
  fingerprint: () => string | Promise<string> = () => JSON.stringify(request.body ?? null),
): Promise<StoredAnswer> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return run();
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !KEY_PATTERN.test(key)) {
    throw new HttpError(400, 'The Idempotency-Key header must be 8 to 100 letters, digits, - or _.');
  }
  const bodyHash = createHash('sha256')
    .update(await fingerprint())
    .digest('hex');
  const now = new Date();
  const db = app.db;
  await forgetKeysBefore(db, scope, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS));

  if (!(await reserveKey(db, scope, key, bodyHash, now))) {
    const previous = await keyHolder(db, scope, key);
    if (previous?.body_hash && previous.body_hash !== bodyHash) {
      throw new HttpError(422, KEY_REUSED);
    }
    if (previous?.status != null) {
      return { status: previous.status, body: previous.body === null ? null : JSON.parse(previous.body) };
    }
    throw new HttpError(409, 'This submission is already being processed.');
  }

  let answer: StoredAnswer;
  try {
    answer = await run();
  } catch (err) {
    await releaseKey(db, scope, key);
    throw err;
  }
  // Only successful answers are remembered; a refused request may be corrected and retried.
  if (answer.status >= 200 && answer.status < 300)
    await storeAnswer(db, scope, key, answer.status, answer.body);
  else await releaseKey(db, scope, key);
  return answer;
}

/**
 * A back-office change (a create or update staff make, which the device's send queue may send
 * again) run at most once per signed-in person and `Idempotency-Key`: each person's keys are
 * their own, so one cannot replay another's answer. Answers the change's own answer, or the one
 * stored for a repeat (the route's response schema checks it like a new one).
 */
export async function idempotentChange<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  name: string,
  run: () => Promise<T>,
  fingerprint?: () => string | Promise<string>,
): Promise<T> {
  const scope = `${name}:${request.user?.user_id ?? 0}`;
  const answer = await withIdempotency(
    app,
    request,
    scope,
    async () => ({ status: 200, body: await run() }),
    fingerprint,
  );
  return answer.body as T;
}
