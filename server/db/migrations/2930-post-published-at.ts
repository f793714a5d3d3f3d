import { sql } from 'kysely';
import type { MigrationDb } from '../migrate';

/**
 * When a post last went public (ISO 8601, UTC): the RSS item's pubDate and anything else that
 * tells when a post came out, to the minute. A post published before keeps its publication day at
 * midnight, the only time known of it; a post not public has none.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('blog_post').addColumn('published_at', 'varchar(30)').execute();
  await sql`update blog_post set published_at = publication_day || 'T00:00:00.000Z' where status = 'Published'`.execute(
    db,
  );
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('blog_post').dropColumn('published_at').execute();
}
