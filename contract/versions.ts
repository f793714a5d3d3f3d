import { z, type ZodMiniType } from 'zod/mini';

/**
 * Versions of the records staff edit (docs/decisions/022-versions-and-conflicts.md): the one
 * mechanism for client and server. A read gives a record's `version` (and an `ETag` of it); a
 * change sends it back as `If-Match`. Without it the server answers 428; when the record has
 * changed since, 409 with the record as it is now and who changed it when (`ConflictAnswer`).
 */

/** The ETag of a version: `"3"`. */
export const etagOf = (version: number): string => `"${version}"`;

/** The version an `If-Match` header names (`"3"`, `W/"3"` or `3`), or null when it names none. */
export function versionOfEtag(header: string | null | undefined): number | null {
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header ?? '');
  if (!match) return null;
  const n = Number(match[1]);
  return n >= 1 ? n : null;
}

/** The `If-Match` header of a change based on `version`. */
export const ifMatch = (version: number): Record<string, string> => ({ 'If-Match': etagOf(version) });

export const VERSION_MESSAGES = {
  required: 'This change must say which version of the record it is based on (If-Match)',
  stale: 'Someone else changed this record after you opened it',
} as const;

/** A 409 answer: the record as it is now, and who changed it last, when (null when unknown). */
export const conflictAnswer = <T>(current: ZodMiniType<T>) =>
  z.object({
    message: z.string(),
    current,
    changed_by: z.nullable(z.string()),
    changed_at: z.nullable(z.string()),
  });

export interface Conflict<T> {
  current: T;
  changedBy: string | null;
  changedAt: string | null;
}

/** The conflict a 409 answer's body holds, read with the record's schema; null when it is not one. */
export function conflictOf<T>(current: ZodMiniType<T>, status: number, body: unknown): Conflict<T> | null {
  if (status !== 409) return null;
  const parsed = conflictAnswer(current).safeParse(body);
  return parsed.success
    ? { current: parsed.data.current, changedBy: parsed.data.changed_by, changedAt: parsed.data.changed_at }
    : null;
}

/** A change refused because the record changed since it was read (thrown by the live layer). */
export class VersionConflict<T> extends Error {
  override name = 'VersionConflict';
  constructor(readonly conflict: Conflict<T>) {
    super(VERSION_MESSAGES.stale);
  }
}
