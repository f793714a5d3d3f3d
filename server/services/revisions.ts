import type { ManageBlogFields } from '../../contract/blog';
import { RESTORED_FIELDS, REVISION_MESSAGES, type RevisionEntity } from '../../contract/revisions';
import * as repo from '../db/revisions.repo';
import { HttpError } from '../http-error';
import * as blog from './blog';
import type { ServiceContext } from './context';
import * as openings from './openings';

/**
 * The History of a blog post or job opening (docs/decisions/022-versions-and-conflicts.md): its revisions, one with the fields before
 * it (the screen shows a word diff), and "Restore this version". A restore is a change like any
 * other, through the record's own service: based on the version the editor shows (409 otherwise),
 * checked against today's form rules, audited ('restore') and kept as a new revision. It brings
 * back the text fields; the status stays as the record has it now (a restore never publishes or
 * unpublishes).
 */

export const listRevisions = (ctx: ServiceContext, entity: RevisionEntity, id: number) =>
  repo.listRevisions(ctx.db, entity, id);

export async function getRevision(
  ctx: ServiceContext,
  entity: RevisionEntity,
  id: number,
  revisionId: number,
) {
  const found = await repo.getRevision(ctx.db, entity, id, revisionId);
  if (!found) throw new HttpError(404, REVISION_MESSAGES.notFound);
  return found;
}

export async function restoreRevision(
  ctx: ServiceContext,
  entity: RevisionEntity,
  id: number,
  revisionId: number,
  version: number,
) {
  const { fields } = await getRevision(ctx, entity, id, revisionId);
  const restored = Object.fromEntries(
    RESTORED_FIELDS[entity].filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]]),
  );
  const saved =
    entity === 'blog_post'
      ? await blog.savePost(
          ctx,
          id,
          { mode: 2, blog_id: id, ...(restored as Partial<ManageBlogFields>) },
          undefined,
          version,
          revisionId,
        )
      : await openings.updateOpening(
          ctx,
          id,
          { mode: 2, job_id: id, ...restored, job_type_id: Number(restored.job_type_id) },
          version,
          revisionId,
        );
  return { message: REVISION_MESSAGES.restored, row: saved.row };
}
