import { etagOf, versionOfEtag, VERSION_MESSAGES } from '../../contract/versions';
import { HttpError } from '../http-error';

/**
 * The server's half of the version check (contract/versions.ts,
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

/**
 * The ETag of the one versioned record an answer carries: its own `version` (a person's notice
 * choices), or that of its `row`, `role`, `user` (a save's answer) or `current` (a 409). A list
 * answers no ETag: each of its rows says its version as a field. app.ts sets it on every answer.
 */
export function versionTag(payload: unknown): string | null {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const p = payload as Record<string, unknown>;
  const record = [p, p.row, p.role, p.user, p.current].find(
    (r) => r && typeof r === 'object' && Number.isInteger((r as { version?: unknown }).version),
  ) as { version: number } | undefined;
  return record ? etagOf(record.version) : null;
}
