import type { MigrationDb } from '../migrate';

/**
 * Authors of blog posts (docs/decisions/025-blog-publishing.md): staff have a display name (`admin_user.display_name`, '' until
 * they choose one; only a name they chose is ever shown to readers), and a post has an author
 * (`blog_post.author_id`, the writer by default; null for posts written before, or when the
 * author's account is deleted).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('admin_user')
    .addColumn('display_name', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('blog_post')
    .addColumn('author_id', 'integer', (col) => col.references('admin_user.user_id').onDelete('set null'))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('blog_post').dropColumn('author_id').execute();
  await db.schema.alterTable('admin_user').dropColumn('display_name').execute();
}
