import { fromPromise } from 'xstate';
import { loadBlogPosts, withImages } from '../api/blog';
import { BLOG_PAGE_SIZE, type BlogPostRow } from '../../contract/blog';
import { keepBlogPage, keptBlogPage } from '../offline/kept-blog';
import { pagedList } from '../machines/paged-list.machine';

/**
 * The public blog list (the shared paged list) with its live effects: a page of published posts
 * (of a tag's, on /blog/tag/{tag}) with their images, and the copy kept on the device per page. Used by /blog and by the offline
 * prefetch (src/pwa/prefetch.ts).
 */
export const liveBlogListMachine = pagedList<BlogPostRow, BlogListOf>({
  keyOf: (row) => row.blog_id,
}).provide({
  actors: {
    loadPage: fromPromise(async ({ input }) =>
      withImages(
        await loadBlogPosts({ page_number: input.page, page_size: input.pageSize, tag: input.query?.tag }),
      ),
    ),
    // The page kept on this device (IndexedDB, src/offline/cache.ts) with its date.
    loadKept: fromPromise(({ input }) => keptBlogPage(input.page, input.query?.tag)),
  },
  actions: {
    keepCopy: (_, { rows, page, query }) => {
      // storage full or off: the page works without a copy
      keepBlogPage(page, rows, query?.tag).catch(() => undefined);
    },
    // the spec only logs a failed blog fetch; the page also says so quietly and offers Retry
    reportFailure: (_, { error }) => console.warn('Error fetching blog posts:', error),
  },
});

/** Which posts: every published one (null), or a tag's (its address). */
export type BlogListOf = { tag: string } | null;

/** The list's input: 10 posts a page, of every post or of a tag's. */
export const blogListInput = (tag?: string) => ({
  pageSize: BLOG_PAGE_SIZE,
  query: (tag ? { tag } : null) as BlogListOf,
});
