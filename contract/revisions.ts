import { z } from 'zod/mini';
import type { Permission } from './auth';
import { ID_MAX, whole } from './ids';

/**
 * Revisions of the records staff write (docs/decisions/022-versions-and-conflicts.md): every save of a blog post or a job opening
 * keeps the record's fields as they were after it, who saved and when, and which fields changed.
 * The History view lists them, shows what each changed (a word diff for text) and restores one
 * (itself a new revision; the record's status stays as it is).
 *
 * - GET  /api/admin/revisions/{entity}/{id}: the list, newest first.
 * - GET  /api/admin/revisions/{entity}/{id}/{revision_id}: one, with the fields before it.
 * - POST /api/admin/revisions/{entity}/{id}/{revision_id}/restore with If-Match: restore it.
 */

export const REVISION_ENTITIES = ['blog_post', 'job_opening'] as const;
export const RevisionEntity = z.enum(REVISION_ENTITIES);
export type RevisionEntity = z.infer<typeof RevisionEntity>;

/** The fields a revision keeps: text, and the opening's job type id. */
export const RevisionFields = z.record(z.string(), z.union([z.string(), z.number()]));
export type RevisionFields = z.infer<typeof RevisionFields>;

export const RevisionRow = z.object({
  revision_id: z.number().check(z.int()),
  version: z.number().check(z.int()),
  at: z.string(),
  actor_email: z.nullable(z.string()),
  changed: z.array(z.string()),
  restored_from: z.nullable(z.number().check(z.int())),
});
export type RevisionRow = z.infer<typeof RevisionRow>;
export const RevisionRows = z.array(RevisionRow);

export const RevisionDetail = z.object({
  revision: RevisionRow,
  fields: RevisionFields,
  previous: z.nullable(RevisionFields),
});
export type RevisionDetail = z.infer<typeof RevisionDetail>;

/** The permission that edits each kind of record: its History and who is editing it need it too. */
export const EDITING_PERMISSION = {
  blog_post: 'blog.manage',
  job_opening: 'jobs.manage',
} as const satisfies Record<RevisionEntity, Permission>;

/** The address of a record (…/{entity}/{id}), and of one of its revisions (…/{revision_id}). */
export const RevisionParams = z.object({ id: whole(1, ID_MAX), revision_id: whole(1, ID_MAX) });

/** The fields a restore brings back (the status stays as the record has it now). */
export const RESTORED_FIELDS: Record<RevisionEntity, readonly string[]> = {
  blog_post: [
    'title',
    'excerpt',
    'content',
    'publication_date',
    'read_time',
    'featured_image_url',
    'cover_alt',
    'meta_title',
    'meta_description',
    'social_image_url',
    'canonical_url',
    'tags',
    'author_id',
  ],
  job_opening: [
    'job_title',
    'department',
    'location',
    'job_type_id',
    'work_type',
    'country',
    'locality',
    'description',
    'requirement',
    'about_role',
    'responsibility',
  ],
};

/** A restore answers the record as it is now (a blog post or a job opening row). */
export const RestoreAnswer = z.object({ message: z.string(), row: z.unknown() });

export const REVISION_MESSAGES = {
  notFound: 'Revision not found',
  restored: 'Version restored',
} as const;
