import type { MigrationDb } from '../migrate';

/**
 * Share links that can be revoked (docs/decisions/009-security-model.md): the generation of a
 * post's share links, signed into each link; "Revoke share links", unpublishing and deleting the
 * post end the links made before. A post without a row is at generation 0, as every link made
 * before this migration is.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('blog_post_share')
    .addColumn('blog_id', 'integer', (col) =>
      col.primaryKey().references('blog_post.blog_id').onDelete('cascade'),
    )
    .addColumn('nonce', 'integer', (col) => col.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('blog_post_share').execute();
}
