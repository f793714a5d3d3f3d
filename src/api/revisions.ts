import type { ZodMiniType } from 'zod/mini';
import { adminWrite, fetchJson, versioned } from './client';
import { BlogPostRow } from '../../contract/blog';
import { JobOpeningRow } from '../../contract/jobs';
import {
  RestoreAnswer,
  RevisionDetail,
  RevisionRows,
  type RevisionEntity,
  type RevisionRow,
} from '../../contract/revisions';

/** The History of a record (contract/revisions.ts), on this server's /api/admin; never cached. */

/** The row each kind of record answers with (a restore, a 409). */
const ROW: Record<RevisionEntity, ZodMiniType<BlogPostRow | JobOpeningRow>> = {
  blog_post: BlogPostRow,
  job_opening: JobOpeningRow,
};

const base = (entity: RevisionEntity, id: number) => `/api/admin/revisions/${entity}/${id}`;

export function loadRevisions(entity: RevisionEntity, id: number): Promise<RevisionRow[]> {
  return fetchJson(RevisionRows, base(entity, id), { cache: 'no-store' });
}

export function loadRevision(entity: RevisionEntity, id: number, revisionId: number): Promise<RevisionDetail> {
  return fetchJson(RevisionDetail, `${base(entity, id)}/${revisionId}`, { cache: 'no-store' });
}

/**
 * Restores a revision, based on the version the editor shows (a `VersionConflict` when the record
 * changed since); answers the record as it is now.
 */
export async function restoreRevision(
  entity: RevisionEntity,
  id: number,
  revisionId: number,
  version: number,
): Promise<BlogPostRow | JobOpeningRow> {
  const answer = await versioned(
    ROW[entity],
    fetchJson(RestoreAnswer, `${base(entity, id)}/${revisionId}/restore`, adminWrite({}, 'POST', version)),
  );
  return ROW[entity].parse(answer.row);
}
