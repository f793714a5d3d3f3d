import { fromPromise } from 'xstate';
import { loadBlogPosts, withImages } from '../api/blog';
import { keepBlogPost, keptBlogPost } from '../offline/kept-blog';
import { blogListMachine } from '../machines/blog-list.machine';

/**
 * A blog post's page with its live effects: the post by its slug with its image, this post as
 * kept on the device by an earlier visit (its page, or a list that showed it), and keeping it.
 */
export const blogPostLive = blogListMachine.provide({
  actors: {
    loadPosts: fromPromise(async ({ input }) =>
      withImages(await loadBlogPosts({ slug: input.slug, page_size: 1 })),
    ),
    loadKeptCopy: fromPromise(({ input }) => keptBlogPost(input.slug ?? '')),
  },
  actions: {
    rememberCopy: (_, { rows }) => {
      keepBlogPost(rows).catch(() => undefined); // storage full or off: the page works without a copy
    },
    reportLoadFailure: (_, { error }) => console.warn('Error fetching the blog post:', error),
  },
});
