import path from 'node:path';
import { Readable } from 'node:stream';
import { BLOG_COMPANY_ID, parsePublicationDate } from '../../../contract/blog';
import { BLOG_IMAGE_KIND, withCleanContent } from '../blog.repo';
import { createLocalStorage } from '../../storage/local';
import type { Seeder } from './index';
import { featuredImageSvg, type Motif } from './blog-seed-art';
import { SEED_POSTS } from './blog-seed-posts';
import { recordStoredFile } from '../files.repo';

/**
 * Demo blog: a dozen posts about the writing process and historical research (nine published,
 * three drafts), each with original SVG artwork stored through the storage under a generated
 * `blog/<uuid>.svg` key, exactly like an uploaded image. Idempotent: a post whose slug exists is
 * left alone (and its image is not stored again).
 */
/** What each drawn cover shows, for readers who cannot see it (blog-seed-art.ts). */
const COVER_ALT: Record<Motif, string> = {
  notebook: 'Drawing of an open notebook with dated lines',
  manuscript: 'Drawing of a page of old handwriting',
  draft: 'Drawing of a typed draft with corrections',
  letter: 'Drawing of a folded letter and its envelope',
  archive: 'Drawing of archive boxes on a shelf',
  revision: 'Drawing of a page marked up for revision',
  scales: 'Drawing of a pair of scales',
  footnote: 'Drawing of a page with numbered footnotes',
  interview: 'Drawing of a microphone and a notepad',
  timeline: 'Drawing of a timeline with marked dates',
  newspaper: 'Drawing of a folded newspaper',
  desk: 'Drawing of a writing desk with a lamp',
};

const seedBlog: Seeder = async (db, config) => {
  const existing = new Set(
    (
      await db
        .selectFrom('blog_post')
        .select('slug')
        .where(
          'slug',
          'in',
          SEED_POSTS.map((p) => p.slug),
        )
        .execute()
    ).map((r) => r.slug),
  );
  const missing = SEED_POSTS.map((post, index) => ({ post, index })).filter(
    ({ post }) => !existing.has(post.slug),
  );
  if (missing.length === 0) return;

  const storage = await createLocalStorage(path.join(config.DATA_DIR, 'files'));
  // oldest first, so ids grow with the publication date like posts written over time
  for (const { post, index } of missing.reverse()) {
    const svg = Buffer.from(featuredImageSvg(post.motif, index));
    const key = await storage.put(Readable.from([svg]), {
      prefix: 'blog',
      ext: 'svg',
      contentType: 'image/svg+xml',
    });
    const day = parsePublicationDate(post.publication_date);
    if (!day) throw new Error(`Seed post ${post.slug} has an invalid date ${post.publication_date}`);
    const at = `${day}T09:00:00.000Z`;
    await db.transaction().execute(async (trx) => {
      await recordStoredFile(
        trx,
        {
          file_key: key,
          kind: BLOG_IMAGE_KIND,
          content_type: 'image/svg+xml',
          byte_size: svg.length,
          original_name: `${post.slug}.svg`,
        },
        new Date(at),
      );
      await trx
        .insertInto('blog_post')
        .values({
          company_id: BLOG_COMPANY_ID,
          title: post.title,
          slug: post.slug,
          excerpt: post.excerpt,
          ...withCleanContent({ content: post.content }),
          publication_date: post.publication_date,
          publication_day: day,
          read_time: post.read_time,
          featured_image_url: key,
          cover_alt: COVER_ALT[post.motif],
          status: post.status,
          created_at: at,
          updated_at: at,
        })
        .execute();
    });
  }
};

export default seedBlog;
