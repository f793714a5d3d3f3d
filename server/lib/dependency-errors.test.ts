import { describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE, STORAGE_UNAVAILABLE, unavailableMessage } from './dependency-errors';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('unavailableMessage', () => {
  it('names a full, read-only or broken disk as storage being unavailable', () => {
    for (const code of ['ENOSPC', 'EROFS', 'EACCES', 'EIO', 'SQLITE_FULL', 'SQLITE_IOERR_WRITE']) {
      expect(unavailableMessage(withCode(code)), code).toBe(STORAGE_UNAVAILABLE);
    }
  });

  it('names a database that does not answer as the service being unavailable, also when wrapped', () => {
    for (const code of [
      'ECONNREFUSED',
      'ETIMEDOUT',
      '08006',
      '57P01',
      '53300',
      'SQLITE_BUSY',
      'SQLITE_READONLY',
    ]) {
      expect(unavailableMessage(withCode(code)), code).toBe(DATABASE_UNAVAILABLE);
    }
    expect(unavailableMessage(new Error('query failed', { cause: withCode('ECONNREFUSED') }))).toBe(
      DATABASE_UNAVAILABLE,
    );
    expect(unavailableMessage(new Error('Connection terminated unexpectedly'))).toBe(DATABASE_UNAVAILABLE);
  });

  it('an object store answering 5xx is storage being unavailable', () => {
    expect(
      unavailableMessage(Object.assign(new Error('SlowDown'), { $metadata: { httpStatusCode: 503 } })),
    ).toBe(STORAGE_UNAVAILABLE);
  });

  it('leaves bugs and client errors alone', () => {
    expect(unavailableMessage(new TypeError('x is undefined'))).toBeNull();
    expect(unavailableMessage(withCode('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(unavailableMessage(withCode('23505'))).toBeNull();
    expect(
      unavailableMessage(Object.assign(new Error('NoSuchKey'), { $metadata: { httpStatusCode: 404 } })),
    ).toBeNull();
    expect(unavailableMessage(undefined)).toBeNull();
  });
});
