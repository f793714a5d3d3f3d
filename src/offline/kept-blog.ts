import { BlogPostRows, type BlogPostRow } from '../../contract/blog';
import { deleteCopy, readCopy, saveCopy } from './cache';

/** The blog's pages and posts as last read, kept on this device for a visit without network (cache.ts). */

/**
 * Copies kept on this device for reading without a network: every page of
 * the public list as last fetched (no search), and every post seen in a list or on its own page,
 * by slug, so a post opened from the list works offline too.
 */
const pageKey = (page: number, tag?: string) =>
  tag ? `tag-${tag}-page-${page}` : page === 1 ? 'firstPage' : `page-${page}`;
const postKey = (slug: string) => `post-${slug}`;

/** Keeps a page of the public list (or of a tag's) and each of its posts (an empty page removes the page copy). */
export async function keepBlogPage(page: number, rows: BlogPostRow[], tag?: string): Promise<void> {
  if (rows.length === 0) {
    await deleteCopy('blog', pageKey(page, tag));
    return;
  }
  await saveCopy('blog', pageKey(page, tag), rows);
  await Promise.all(rows.filter((row) => row.slug).map((row) => saveCopy('blog', postKey(row.slug!), [row])));
}

/** Keeps a post read on its own page. */
export async function keepBlogPost(rows: BlogPostRow[]): Promise<void> {
  const [row] = rows;
  if (row?.slug) await saveCopy('blog', postKey(row.slug), [row]);
}

async function keptRows(key: string): Promise<{ rows: BlogPostRow[]; savedAt: string } | null> {
  const copy = await readCopy('blog', key);
  if (!copy) return null;
  const parsed = BlogPostRows.safeParse(copy.value);
  return parsed.success && parsed.data.length > 0 ? { rows: parsed.data, savedAt: copy.savedAt } : null;
}

/** A kept page of the list with the time it was saved, or null (none, or no longer the contract's shape). */
export function keptBlogPage(
  page: number,
  tag?: string,
): Promise<{ rows: BlogPostRow[]; savedAt: string } | null> {
  return keptRows(pageKey(page, tag));
}

/** A kept post (a list of one) with the time it was saved, or null. */
export function keptBlogPost(slug: string): Promise<{ rows: BlogPostRow[]; savedAt: string } | null> {
  return keptRows(postKey(slug));
}
