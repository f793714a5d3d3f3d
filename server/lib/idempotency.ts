import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';

/** Keys are kept this long; a repeat within it gets the first answer. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const KEY_REUSED = 'This Idempotency-Key was already used for a different request.';
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

export interface StoredAnswer {
  status: number;
  body: unknown;
}

const isUniqueViolation = (err: unknown) =>
  err instanceof Error &&
  ('code' in err
    ? ['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE', '23505'].includes(String(err.code))
    : false);

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
  const now = Date.now();
  const db = app.db;
  // Forget old keys of this scope so the table stays small.
  await db
    .deleteFrom('idempotency_key')
    .where('scope', '=', scope)
    .where('created_at', '<', new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString())
    .execute();

  try {
    await db
      .insertInto('idempotency_key')
      .values({
        scope,
        key,
        status: null,
        body: null,
        body_hash: bodyHash,
        created_at: new Date(now).toISOString(),
      })
      .execute();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const previous = await db
      .selectFrom('idempotency_key')
      .select(['status', 'body', 'body_hash'])
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
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
    await db.deleteFrom('idempotency_key').where('scope', '=', scope).where('key', '=', key).execute();
    throw err;
  }
  if (answer.status >= 200 && answer.status < 300) {
    await db
      .updateTable('idempotency_key')
      .set({ status: answer.status, body: JSON.stringify(answer.body) })
      .where('scope', '=', scope)
      .where('key', '=', key)
      .execute();
  } else {
    // Only successful answers are remembered; a refused request may be corrected and retried.
    await db.deleteFrom('idempotency_key').where('scope', '=', scope).where('key', '=', key).execute();
  }
  return answer;
}
