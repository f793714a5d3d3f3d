import { fromPromise } from 'xstate';
import { loadBlogPosts, withImages } from '../api/blog';
import type { BlogPostRow } from '../../contract/blog';
import { keepBlogPost, keptBlogPost } from '../offline/kept-blog';
import { pagedList } from '../machines/paged-list.machine';

/**
 * A blog post's page (the shared paged list: a list of one, selected by its slug) with its live
 * effects: the post with its image, this post as kept on the device by an earlier visit (its page,
 * or a list that showed it), and keeping it.
 */
export const blogPostLive = pagedList<BlogPostRow, string>({ keyOf: (row) => row.blog_id }).provide({
  actors: {
    loadPage: fromPromise(async ({ input }) =>
      withImages(await loadBlogPosts({ slug: input.query, page_size: 1 })),
    ),
    loadKept: fromPromise(({ input }) => keptBlogPost(input.query)),
  },
  actions: {
    keepCopy: (_, { rows }) => {
      keepBlogPost(rows).catch(() => undefined); // storage full or off: the page works without a copy
    },
    reportFailure: (_, { error }) => console.warn('Error fetching the blog post:', error),
  },
});
