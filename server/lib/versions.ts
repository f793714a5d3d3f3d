import { versionOfEtag, VERSION_MESSAGES } from '../../src/api/contract/versions';
import { HttpError } from '../http-error';

/**
 * The server's half of the version check (src/api/contract/versions.ts,
 * docs/decisions/022-versions-and-conflicts.md): the version a change is based on, from its
 * `If-Match` header (428 without one), and the 409 of a change that came too late.
 */
export function versionOfRequest(headers: Record<string, string | string[] | undefined>): number {
  const header = headers['if-match'];
  const version = versionOfEtag(Array.isArray(header) ? header[0] : header);
  if (version === null) throw new HttpError(428, VERSION_MESSAGES.required);
  return version;
}

/** 409: the record as it is now, who changed it last and when. */
export function staleVersion(
  current: unknown,
  last: { actor_email: string | null; at: string } | undefined,
): HttpError {
  return new HttpError(409, VERSION_MESSAGES.stale, undefined, undefined, {
    current,
    changed_by: last?.actor_email ?? null,
    changed_at: last?.at ?? null,
  });
}
