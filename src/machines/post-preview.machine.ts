import { assign, fromPromise, setup } from 'xstate';
import type { BlogPostRow } from '../../contract/blog';
import type { BlogPreviewLink } from '../../contract/blog-form';

/**
 * The blog editor's Preview (docs/decisions/025-blog-publishing.md): the post as the dialog holds it, saved or not, in the
 * public layout, in a frame at a desktop's or a phone's width; and, for a saved post, "Share
 * preview", a signed address for someone without an account (7 days).
 *
 * - `closed` -> `open` on `preview.open` with the post to show (the screen sends it to the frame).
 * - `open.width`: `desktop` or `phone` (390 px), switched by `width.desktop` / `width.phone`.
 * - `open.share`: `idle` -> `making` (the `makeLink` actor) on `share.make` (a saved post only) ->
 *   `made` with the address (`notifyCopied` after `share.copy`), or `failed` (the error shown, the
 *   button again). A link made is kept until the preview closes. `share.revoke` (a saved post)
 *   -> `revoking` (the `revokeLinks` actor) -> `revoked` (every link made so far has stopped
 *   working; the one shown is forgotten), or `revokeFailed` (they still work).
 * - `preview.close` (the Close button, Escape) closes it from any state.
 */

export interface PostPreviewContext {
  post: BlogPostRow | null;
  link: BlogPreviewLink | null;
  error: unknown;
}

export type PostPreviewEvent =
  | { type: 'preview.open'; post: BlogPostRow }
  | { type: 'preview.close' }
  | { type: 'width.desktop' }
  | { type: 'width.phone' }
  | { type: 'share.make' }
  | { type: 'share.copy' }
  | { type: 'share.revoke' };

export const postPreviewMachine = setup({
  types: { context: {} as PostPreviewContext, events: {} as PostPreviewEvent },
  actors: {
    /** A share link for the saved post (POST /api/admin/blog-posts/:id/preview-link). */
    makeLink: fromPromise<BlogPreviewLink, { blogId: number }>(async () => {
      throw new Error('makeLink is provided by the screen');
    }),
    /** Every share link of the saved post stops working (DELETE .../preview-link). */
    revokeLinks: fromPromise<unknown, { blogId: number }>(async () => {
      throw new Error('revokeLinks is provided by the screen');
    }),
  },
  actions: {
    show: assign((_, params: { post: BlogPostRow }) => ({ post: params.post, link: null, error: null })),
    forget: assign({ post: null, link: null, error: null }),
    keepLink: assign({ link: (_, params: { link: BlogPreviewLink }) => params.link, error: null }),
    keepError: assign({ error: (_, params: { error: unknown }) => params.error }),
    forgetLink: assign({ link: null, error: null }),
    /** Copies the link and says so (supplied by the screen). */
    copyLink: (_, _params: { url: string }) => {},
  },
  guards: {
    /** Only a saved post has an address to share. */
    isSaved: ({ context }) => (context.post?.blog_id ?? 0) > 0,
  },
}).createMachine({
  id: 'postPreview',
  initial: 'closed',
  context: { post: null, link: null, error: null },
  states: {
    closed: {
      on: {
        'preview.open': {
          target: 'open',
          actions: { type: 'show', params: ({ event }) => ({ post: event.post }) },
        },
      },
    },
    open: {
      type: 'parallel',
      on: { 'preview.close': { target: 'closed', actions: 'forget' } },
      states: {
        width: {
          initial: 'desktop',
          states: {
            desktop: { on: { 'width.phone': 'phone' } },
            phone: { on: { 'width.desktop': 'desktop' } },
          },
        },
        share: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'share.make': { guard: 'isSaved', target: 'making' },
                'share.revoke': { guard: 'isSaved', target: 'revoking' },
              },
            },
            making: {
              invoke: {
                id: 'makeLink',
                src: 'makeLink',
                input: ({ context }) => ({ blogId: context.post!.blog_id }),
                onDone: {
                  target: 'made',
                  actions: { type: 'keepLink', params: ({ event }) => ({ link: event.output }) },
                },
                onError: {
                  target: 'failed',
                  actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            made: {
              on: {
                'share.copy': {
                  actions: { type: 'copyLink', params: ({ context }) => ({ url: context.link!.url }) },
                },
                'share.revoke': 'revoking',
              },
            },
            revoking: {
              invoke: {
                id: 'revokeLinks',
                src: 'revokeLinks',
                input: ({ context }) => ({ blogId: context.post!.blog_id }),
                onDone: { target: 'revoked', actions: 'forgetLink' },
                onError: {
                  target: 'revokeFailed',
                  actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            /** The links made so far have stopped working; a new one can be made. */
            revoked: { on: { 'share.make': 'making' } },
            failed: {
              on: {
                'share.make': { guard: 'isSaved', target: 'making' },
                'share.revoke': { guard: 'isSaved', target: 'revoking' },
              },
            },
            /** The links could not be revoked (they still work): say so, and offer it again. */
            revokeFailed: {
              on: {
                'share.make': { guard: 'isSaved', target: 'making' },
                'share.revoke': { guard: 'isSaved', target: 'revoking' },
              },
            },
          },
        },
      },
    },
  },
});
