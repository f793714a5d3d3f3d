import { fromPromise } from 'xstate';
import { loadBlogPosts, withImages } from '../api/blog';
import { BLOG_PAGE_SIZE, type BlogPostRow } from '../api/contract/blog';
import { keepBlogPage, keptBlogPage } from '../offline/kept-blog';
import { pagedList } from '../machines/paged-list.machine';

/**
 * The public blog list (the shared paged list) with its live effects: a page of published posts
 * with their images, and the copy kept on the device per page. Used by /blog and by the offline
 * prefetch (src/pwa/prefetch.ts).
 */
export const liveBlogListMachine = pagedList<BlogPostRow>({ keyOf: (row) => row.blog_id }).provide({
  actors: {
    loadPage: fromPromise(async ({ input }) =>
      withImages(await loadBlogPosts({ page_number: input.page, page_size: input.pageSize })),
    ),
    // The page kept on this device (IndexedDB, src/offline/cache.ts) with its date.
    loadKept: fromPromise(({ input }) => keptBlogPage(input.page)),
  },
  actions: {
    keepCopy: (_, { rows, page }) => {
      keepBlogPage(page, rows).catch(() => undefined); // storage full or off: the page works without a copy
    },
    // the spec only logs a failed blog fetch; the page also says so quietly and offers Retry
    reportFailure: (_, { error }) => console.warn('Error fetching blog posts:', error),
  },
});

/** The list's input: 10 posts a page. */
export const blogListInput = { pageSize: BLOG_PAGE_SIZE, query: null };
