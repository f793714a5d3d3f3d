import type { MigrationDb } from '../migrate';

/**
 * Tags of blog posts (docs/decisions/025-blog-publishing.md). A post keeps its tags as
 * written (`blog_post.tags`, 'Archives, Palaeography': what the editor and a revision show), and
 * one row per tag in `blog_post_tag` with the tag's address (`/blog/tag/{tag_slug}`), which the
 * tag pages, their feeds and the editor's suggestions read. Both are written in the post's save.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('blog_post')
    .addColumn('tags', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('blog_post_tag')
    .addColumn('blog_id', 'integer', (col) =>
      col.notNull().references('blog_post.blog_id').onDelete('cascade'),
    )
    .addColumn('tag_slug', 'text', (col) => col.notNull())
    .addColumn('tag_name', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('blog_post_tag_pk', ['blog_id', 'tag_slug'])
    .execute();
  await db.schema
    .createIndex('blog_post_tag_slug')
    .on('blog_post_tag')
    .columns(['tag_slug', 'blog_id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('blog_post_tag').execute();
  await db.schema.alterTable('blog_post').dropColumn('tags').execute();
}
