import { fromPromise } from 'xstate';
import { loadBlogPosts, withImages } from '../api/blog';
import { keepBlogPage, keptBlogPage } from '../offline/kept-blog';
import { blogListMachine } from '../machines/blog-list.machine';

/**
 * The public blog list with its live effects: a page of published posts with their images, and
 * the copy kept on the device per page (and per post). Used by /blog and by the offline prefetch
 * (src/pwa/prefetch.ts).
 */
export const liveBlogListMachine = blogListMachine.provide({
  actors: {
    loadPosts: fromPromise(async ({ input }) =>
      withImages(
        await loadBlogPosts({ search: input.search, page_number: input.page, page_size: input.pageSize }),
      ),
    ),
    // The page kept on this device (IndexedDB, src/offline/cache.ts) with its date.
    loadKeptCopy: fromPromise(({ input }) => keptBlogPage(input.page)),
  },
  actions: {
    rememberCopy: (_, { rows, page }) => {
      keepBlogPage(page, rows).catch(() => undefined); // storage full or off: the page works without a copy
    },
    // the spec only logs a failed blog fetch; the page also says so quietly and offers Retry
    reportLoadFailure: (_, { error }) => console.warn('Error fetching blog posts:', error),
  },
});
