import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { blogFormParts, blogHeaders, manageBlogUrl, saveBlogPost } from '../../../api/blog';
import { loadBlogAuthors, loadBlogTags } from '../../../api/blog-admin';
import { asActorOutput, formSubmission, sendOrQueue } from '../../../offline/submit';
import { BLOG_TOAST_MS, type BlogPostRow } from '../../../../contract/blog';
import { type BlogField } from '../../../../contract/blog-form';
import { showToast } from '../../../components/toasts';
import { blogEditorMachine, type BlogEditorFields, type SaveInput } from '../../../machines/blog-editor.machine';
import { savingActor, type DraftRef } from '../../../machines/record-editor.machine';
import { draftKey, readDraft, removeDraft, writeDraft } from '../../../offline/drafts';
import { toastFailure, toastTheirs } from '../shared/admin-toasts';
import { queuedSaveEffects } from '../shared/queued-changes.live';

/** The element each field's error focuses. */
const BLOG_FIELD_IDS: Record<BlogField, string> = {
  title: 'blog-title',
  excerpt: 'blog-excerpt',
  content: 'blog-content-editor',
  publication_date: 'blog-publication-date',
  read_time: 'blog-read-time',
  featured_image: 'blog-image-url',
  cover_alt: 'blog-cover-alt',
  publish_at: 'blog-publish-at',
  slug: 'blog-slug',
  meta_title: 'blog-meta-title',
  meta_description: 'blog-meta-description',
  social_image_url: 'blog-social-image',
  canonical_url: 'blog-canonical',
  tags: 'blog-tags',
  author_id: 'blog-author',
};

/**
 * The blog post dialog with its live effects: the draft kept on this device per user and post,
 * the save with upload progress (without a connection kept in the send queue for this user, with
 * the version and the dialog it came from), focus on the first invalid field, and the toasts. `onSaved`
 * tells the list.
 */
export const blogPostDialogLive = (
  i18n: I18n,
  userId: number,
  onSaved: (row: BlogPostRow | undefined, created: boolean) => void,
) => {
  const t = (key: string) => i18n.t(key, { ns: 'blog-admin' });
  const draftOf = ({ id }: DraftRef) => draftKey(userId, 'blog', id);
  return blogEditorMachine.provide({
    actors: {
      readDraft: fromPromise(({ input }) => readDraft<BlogEditorFields>(draftOf(input))),
      writeDraft: fromPromise(({ input }) => writeDraft(draftOf(input), input.values)),
      loadChoices: fromPromise(async () => {
        const [tags, authors] = await Promise.all([loadBlogTags(), loadBlogAuthors()]);
        return { tags, authors };
      }),
      save: savingActor<BlogPostRow, BlogEditorFields, SaveInput>(
        async (input, onProgress, signal, context) => {
          // without a connection the save is kept on this device, sent later under this person's session
          const { fields, file, version } = blogFormParts(input);
          const outcome = await sendOrQueue({
            kind: 'blog-post',
            label: input.title,
            url: manageBlogUrl(),
            body: formSubmission(fields, { featured_image: file }),
            headers: blogHeaders(version),
            owner: userId,
            edit: {
              recordId: input.blog_id,
              version: version ?? null,
              base: context.opened,
              values: context.fields,
              record: context.original,
            },
            signal,
            send: (idempotencyKey) =>
              saveBlogPost(input, {
                onProgress: (p) => onProgress(p.loaded, p.total),
                signal,
                idempotencyKey,
              }),
          });
          return asActorOutput(outcome);
        },
      ),
    },
    actions: {
      forgetDraft: (_, ref) => void removeDraft(draftOf(ref)),
      focusField: (_, { field }) => {
        // after React has shown the message, so the field's description is current
        requestAnimationFrame(() => {
          const element = document.getElementById(BLOG_FIELD_IDS[field]);
          // a field of the closed "Search and social" section: open it first
          const details = element?.closest('details');
          if (details) details.open = true;
          element?.focus();
        });
      },
      notifySaved: (_, { row, created }) => {
        showToast('success', {
          message: t(created ? 'toast.created' : 'toast.updated'),
          duration: BLOG_TOAST_MS,
        });
        onSaved(row, created);
      },
      notifyMerged: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'merged'),
      ...queuedSaveEffects(i18n),
      notifyFailed: (_, { error }) =>
        // offline: the dialog keeps what was typed and says saving waits for the connection
        toastFailure(error, {
          message: t('toast.submitFailed'),
          serverWords: false,
          duration: BLOG_TOAST_MS,
          offline: i18n,
          log: 'Blog post could not be saved:',
        }),
    },
  });
};
