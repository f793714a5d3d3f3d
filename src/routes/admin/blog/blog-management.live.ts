import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { isSessionEnded } from '../../../api/client';
import { deleteBlogPost, loadAdminBlogPosts, saveBlogStatus, withImages } from '../../../api/blog';
import { BLOG_TOAST_MS, BlogPostRow, blogStatusOf } from '../../../../contract/blog';
import { showToast } from '../../../components/toasts';
import {
  EDITOR_FIELDS,
  type BlogEditorFields,
  type QueuedPostChange,
} from '../../../machines/blog-editor.machine';
import { blogManagementMachine, blogPostsList, blogQueued } from '../../../machines/blog-management.machine';
import type { OutboxItem } from '../../../offline/send-queue';
import { queuedLive } from '../shared/queued-changes.live';
import { toastFailure, toastTheirs } from '../shared/admin-toasts';
import { connectionEvents } from '../../../offline/online-status';
import { listChanges } from '../shared/staff-changes';

/**
 * The dialog's fields a queued change kept, when they can be read: a field an older build did not
 * have yet is empty (as the post's is until someone fills it).
 */
const editorFields = (value: unknown): BlogEditorFields | null => {
  const v = value as Partial<BlogEditorFields> | null;
  if (!v || typeof v !== 'object' || typeof v.publish !== 'boolean') return null;
  if (!EDITOR_FIELDS.every((f) => f === 'publish' || v[f] === undefined || typeof v[f] === 'string'))
    return null;
  return Object.fromEntries(EDITOR_FIELDS.map((f) => [f, v[f] ?? ''])) as unknown as BlogEditorFields;
};

/** A change kept in the send queue, as the blog dialog takes it up; null when it cannot be read. */
function postChangeOf(item: OutboxItem): QueuedPostChange | null {
  const post = BlogPostRow.safeParse(item.edit?.record);
  const base = editorFields(item.edit?.base);
  const values = editorFields(item.edit?.values);
  if (!post.success || !base || !values) return null;
  const kept = item.body.type === 'form' ? item.body.files.featured_image : undefined;
  const file = kept ? new File([kept.blob], kept.name, { type: kept.blob.type }) : null;
  return {
    id: item.id,
    recordId: post.data.blog_id,
    version: post.data.version ?? null,
    original: post.data,
    base,
    values,
    file,
  };
}

/**
 * Blog Management with its live effects: a page of every post (drafts included) with its image,
 * the badge's publish/unpublish, deletion, the toasts, written in the language of the moment
 * they appear, and this person's (`owner`) changes made offline: told when one is sent or meets
 * someone else's, and read from the queue for the dialog to take up.
 */
export const blogManagementLive = (i18n: I18n, owner: number) => {
  const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, { ns: 'blog-admin', ...values });
  return blogManagementMachine.provide({
    actors: {
      list: blogPostsList.provide({
        actors: {
          // a page that failed offline loads again when the connection is back
          connectionEvents,
          // a colleague's change shows without a reload
          changeEvents: listChanges(['post.added', 'post.edited', 'post.deleted']),
          loadPage: fromPromise(async ({ input }) =>
            withImages(
              await loadAdminBlogPosts({
                search: input.query.search,
                status: input.query.status || undefined,
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
      queued: queuedLive(blogQueued, { kind: 'blog-post', owner, read: postChangeOf, i18n }),
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
