import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { makePreviewLink, revokePreviewLinks } from '../../../api/blog-admin';
import { showToast } from '../../../components/toasts';
import { postPreviewMachine } from '../../../machines/post-preview.machine';

/** The blog editor's Preview with its live effects: the share link from the server (made and revoked), copied on request. */
export const postPreviewLive = (i18n: I18n) =>
  postPreviewMachine.provide({
    actors: {
      makeLink: fromPromise(({ input }) => makePreviewLink(input.blogId)),
      revokeLinks: fromPromise(({ input }) => revokePreviewLinks(input.blogId)),
    },
    actions: {
      copyLink: (_, { url }) =>
        void navigator.clipboard?.writeText(url).then(
          () => showToast('success', { message: i18n.t('blog-admin:preview.copied') }),
          () => undefined,
        ),
    },
  });
