import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { isSessionEnded } from '../../api/client';
import { deleteBlogPost, loadAdminBlogPosts, saveBlogStatus, withImages } from '../../api/blog';
import { BLOG_TOAST_MS, blogStatusOf } from '../../api/contract/blog';
import { showToast } from '../../components/toasts';
import { blogManagementMachine, blogPostsList } from '../../machines/blog-management.machine';
import { toastFailure, toastTheirs } from './admin-toasts';

/**
 * Blog Management with its live effects: a page of every post (drafts included) with its image,
 * the badge's publish/unpublish, deletion, and the toasts, written in the language of the moment
 * they appear.
 */
export const blogManagementLive = (i18n: I18n) => {
  const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, { ns: 'blog-admin', ...values });
  return blogManagementMachine.provide({
    actors: {
      list: blogPostsList.provide({
        actors: {
          loadPage: fromPromise(async ({ input }) =>
            withImages(
              await loadAdminBlogPosts({
                search: input.query.search,
                page_number: input.page,
                page_size: input.pageSize,
              }),
            ),
          ),
        },
        actions: {
          reportFailure: (_, { error }) => {
            if (!isSessionEnded(error)) console.warn('Error fetching blog posts:', error);
          },
        },
      }),
      saveStatus: fromPromise(async ({ input }) => {
        const { row } = await saveBlogStatus(input.post, input.status);
        if (!row) throw new Error('The server did not answer the saved post');
        return (await withImages([row]))[0];
      }),
      deletePost: fromPromise(({ input }) => deleteBlogPost(input.post.blog_id)),
    },
    actions: {
      notifyStatusUpdated: (_, { row }) =>
        showToast('success', {
          title: t('toast.statusUpdated'),
          message: t('toast.statusText', {
            title: row.title,
            status: t(`status.${blogStatusOf(row.status)}`),
          }),
          duration: BLOG_TOAST_MS,
        }),
      notifyOvertaken: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'overtaken'),
      notifyStatusFailed: (_, { error }) =>
        toastFailure(error, {
          message: t('toast.statusFailed'),
          serverWords: false,
          duration: BLOG_TOAST_MS,
          log: 'Publication status could not be saved:',
        }),
      notifyDeleted: () =>
        showToast('success', {
          title: t('toast.deleted'),
          message: t('toast.deletedText'),
          duration: BLOG_TOAST_MS,
        }),
      notifyDeleteFailed: (_, { error }) =>
        toastFailure(error, {
          message: t('toast.deleteFailed'),
          serverWords: false,
          duration: BLOG_TOAST_MS,
          log: 'Blog post could not be deleted:',
        }),
    },
  });
};
