/**
 * Errors that mean a dependency (the disk, the file store, the database) is unavailable rather
 * than that the request or our code is wrong. The app answers them 503 `{ message }` with
 * Retry-After (app.ts), never 500, and recovers by itself once the dependency is back.
 */

/** File system: full, read-only, no permission, broken device. */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'EMFILE', 'ENFILE']);
/** Network: a database or object store that does not answer. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLite: locked too long, disk full, I/O error, read-only, cannot open. */
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN)/;

export const STORAGE_UNAVAILABLE = 'The server cannot store files right now. Please try again later.';
export const DATABASE_UNAVAILABLE = 'The service is temporarily unavailable. Please try again in a moment.';

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The message to answer with when `err` is a dependency being unavailable, else null. */
export function unavailableMessage(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = codeOf(e);
    const message = e instanceof Error ? e.message : '';
    if (code && STORAGE_CODES.has(code)) return STORAGE_UNAVAILABLE;
    if (code && SQLITE_CODES.test(code))
      return code.startsWith('SQLITE_FULL') || code.startsWith('SQLITE_IOERR')
        ? STORAGE_UNAVAILABLE
        : DATABASE_UNAVAILABLE;
    if (code && NETWORK_CODES.has(code)) return DATABASE_UNAVAILABLE;
    // PostgreSQL: connection exceptions (08xxx), shutting down (57P0x), too many connections (53300)
    if (code && /^(08...|57P0[1-3]|53300)$/.test(code)) return DATABASE_UNAVAILABLE;
    // node-postgres: a pool or client that lost its connection
    if (/Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)) {
      return DATABASE_UNAVAILABLE;
    }
    // the AWS SDK: the object store answered 5xx or could not be reached
    const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (typeof status === 'number' && status >= 500) return STORAGE_UNAVAILABLE;
  }
  return null;
}
