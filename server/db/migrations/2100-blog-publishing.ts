import type { MigrationDb } from '../migrate';

/**
 * The blog editor (docs/decisions/025-blog-publishing.md):
 * - `publish_at`: when a Scheduled post goes public (ISO 8601, UTC); null for Draft and Published.
 *   The scheduled task (services/blog-schedule.ts) finds due posts by (status, publish_at).
 * - The cover's alt text, and the search and social fields: a meta title and description, a social
 *   image (an http(s) address; the cover when empty), a canonical address override.
 * - `blog_slug_redirect`: every address a published post had before its slug was edited, answered
 *   with 301 to the post's address of today, for as long as the post exists.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('blog_post').addColumn('publish_at', 'text').execute();
  for (const column of ['cover_alt', 'meta_title', 'meta_description', 'social_image_url', 'canonical_url']) {
    await db.schema
      .alterTable('blog_post')
      .addColumn(column, 'text', (col) => col.notNull().defaultTo(''))
      .execute();
  }
  await db.schema
    .createIndex('blog_post_schedule')
    .on('blog_post')
    .columns(['status', 'publish_at'])
    .execute();
  await db.schema
    .createTable('blog_slug_redirect')
    .addColumn('old_slug', 'text', (col) => col.primaryKey())
    .addColumn('blog_id', 'integer', (col) =>
      col.notNull().references('blog_post.blog_id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('blog_slug_redirect_post').on('blog_slug_redirect').column('blog_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('blog_slug_redirect').execute();
  await db.schema.dropIndex('blog_post_schedule').execute();
  for (const column of [
    'canonical_url',
    'social_image_url',
    'meta_description',
    'meta_title',
    'cover_alt',
    'publish_at',
  ]) {
    await db.schema.alterTable('blog_post').dropColumn(column).execute();
  }
}
