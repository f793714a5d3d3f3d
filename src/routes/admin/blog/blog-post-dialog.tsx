import { useMachine } from '@xstate/react';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BLOG_IMAGE_ACCEPT,
  formatPublicationDate,
  isHttpUrl,
  parsePublicationDate,
  type BlogPostRow,
} from '../../../../contract/blog';
import {
  BLOG_MESSAGES,
  type BlogAuthor,
  type BlogField,
  type BlogTextImage,
} from '../../../../contract/blog-form';
import { htmlToText } from '../../../../contract/rich-text';
import { formatPostDate } from '../../../components/blog/blog-parts';
import {
  isChanged,
  isoOfLocal,
  statusOfFields,
  type BlogEditorFields,
  type EditorField,
  type TextField,
} from '../../../machines/blog-editor.machine';
import { PostPreview, type PostPreviewHandle } from './post-preview';
import { PostTextImage, type PostTextImageHandle } from './post-text-image';
import type { RichTextEditorHandle } from '../../../components/rich-text-editor';
import { PostSeoFields } from './post-seo-fields';
import { PostTagsField } from './post-tags-field';
import { useAdminSession } from '../shared/admin-context';
import { RichTextEditor } from '../shared/lazy-editor';
import { RecordEditorFrame, useRecordEditorHandle, type RecordEditorHandle } from '../shared/record-editor-frame';
import { blogPostDialogLive } from './blog-post-dialog.live';
import s from './blog-management.module.css';
import { FieldError } from '../shared/field-error';

/** Each field's label in the dialog. */
const LABELS: Record<EditorField, string> = {
  title: 'dialog.title',
  excerpt: 'dialog.excerpt',
  content: 'dialog.content',
  publication_date: 'dialog.publicationDate',
  read_time: 'dialog.readTime',
  featured_image_url: 'dialog.featuredImage',
  cover_alt: 'dialog.coverAlt',
  publish: 'dialog.publish',
  publish_at: 'dialog.publishAt',
  slug: 'dialog.slug',
  meta_title: 'dialog.metaTitle',
  meta_description: 'dialog.metaDescription',
  social_image_url: 'dialog.socialImage',
  canonical_url: 'dialog.canonical',
  tags: 'dialog.tags',
  author_id: 'dialog.author',
};

// The editor (quill) is its own chunk, shared with the job form: loaded with the first dialog.

export type BlogPostDialogHandle = RecordEditorHandle<BlogPostRow, BlogEditorFields>;

/** The 'Create New Blog Post' / 'Edit Blog Post' dialog: the record editor's frame with the post's fields. */
export function BlogPostDialog({
  onSaved,
  ref,
}: {
  onSaved(row: BlogPostRow | undefined, created: boolean): void;
  ref?: Ref<BlogPostDialogHandle>;
}) {
  const { t, i18n } = useTranslation('blog-admin');
  const { user } = useAdminSession();
  const fileInput = useRef<HTMLInputElement>(null);
  const editorRef = useRef<RichTextEditorHandle>(null);
  const imagePanel = useRef<PostTextImageHandle>(null);
  const focusEditor = useCallback(() => editorRef.current?.focus(), []);
  const insertImage = useCallback(
    (image: BlogTextImage, alt: string) => editorRef.current?.insertImage(image, alt),
    [],
  );
  const [machine] = useState(() => blogPostDialogLive(i18n, user.user_id, onSaved));
  const [state, send] = useMachine(machine);
  // a new post: today's date in the form's own words, and the writer as its author
  const defaults = useCallback(
    () => ({
      publication_date: formatPublicationDate(new Date(), { local: true }),
      author_id: String(user.user_id),
    }),
    [user.user_id],
  );
  useRecordEditorHandle(ref, state, send, defaults);

  const { fields, errors, file, mode, original, progress } = state.context;
  // while someone else's save is shown beside this one, the dialog waits for a choice
  const saving = state.matches('submitting') || state.matches('conflict');
  /** A field's value as a person reads it (the content as text, the tick as the post's status). */
  const readable = (field: EditorField, value: unknown) =>
    field === 'publish'
      ? t(value ? 'status.Published' : 'status.Draft')
      : field === 'content'
        ? htmlToText(String(value ?? ''))
        : String(value ?? '');
  const change = (field: TextField, value: string) => send({ type: 'field.change', field, value });
  const message = (field: BlogField) => {
    const code = errors[field];
    return code ? t(`errors.${code}`, { defaultValue: BLOG_MESSAGES[code] }) : null;
  };
  const errorId = (field: BlogField) => `blog-${field}-error`;
  const invalid = (field: BlogField) =>
    errors[field] ? { 'aria-invalid': true, 'aria-describedby': errorId(field) } : {};

  // what the preview shows: the chosen file, a typed address, or the post's stored image
  const storedKey =
    !!original &&
    fields.featured_image_url === (original.featured_image_url ?? '') &&
    !isHttpUrl(fields.featured_image_url) &&
    fields.featured_image_url !== '';
  const fileUrl = useObjectUrl(file);
  const previewSrc =
    fileUrl ??
    (isHttpUrl(fields.featured_image_url)
      ? fields.featured_image_url
      : storedKey
        ? (original?.image_url ?? null)
        : null);
  const urlValue = storedKey ? '' : fields.featured_image_url;
  const preview = useRef<PostPreviewHandle | null>(null);
  /** The post as the dialog holds it, as readers would see it (Preview). */
  const previewPost = (): BlogPostRow => {
    const status = statusOfFields(fields);
    return {
      ...(original ?? {}),
      blog_id: original?.blog_id ?? 0,
      title: fields.title,
      excerpt: fields.excerpt,
      content: fields.content,
      publication_date: fields.publication_date,
      read_time: fields.read_time,
      featured_image_url: fields.featured_image_url,
      image_url: previewSrc,
      cover_alt: fields.cover_alt,
      tags: fields.tags,
      status,
      publish_at: isoOfLocal(fields.publish_at) || null,
    };
  };
  const timeZone = useMemo(() => Intl.DateTimeFormat().resolvedOptions().timeZone, []);

  return (
    <RecordEditorFrame
      state={state}
      send={send}
      entity="blog_post"
      title={t(mode === 'edit' ? 'dialog.editTitle' : 'dialog.createTitle')}
      labelOf={(field) => t(LABELS[field] ?? field)}
      readable={readable}
      statusLabel={(value) => t(`status.${String(value)}`, { defaultValue: String(value ?? '') })}
      changed={isChanged(state.context)}
      submitLabel={
        state.matches('submitting')
          ? t('dialog.saving')
          : t(mode === 'edit' ? 'dialog.update' : 'dialog.create')
      }
      busy={
        <div className={s.progress} role="status">
          <progress max={1} value={progress ?? undefined} aria-label={t('dialog.saving')} />
          <span>
            {progress !== null && file
              ? t('dialog.uploading', { percent: Math.round(progress * 100) })
              : t('dialog.saving')}
          </span>
        </div>
      }
      actions={
        <button
          type="button"
          className={s.secondary}
          disabled={saving}
          onClick={() => preview.current?.open(previewPost())}
        >
          {t('dialog.previewButton')}
        </button>
      }
      onRestored={(row) => onSaved(row, false)}
    >
      <div className={s.field}>
        <label htmlFor="blog-title">{t('dialog.title')}</label>
        <input
          id="blog-title"
          value={fields.title}
          placeholder={t('dialog.placeholder.title')}
          disabled={saving}
          onChange={(e) => change('title', e.target.value)}
          {...invalid('title')}
        />
        <FieldError id={errorId('title')} message={message('title')} />
      </div>

      <div className={s.field}>
        <label htmlFor="blog-excerpt">{t('dialog.excerpt')}</label>
        <textarea
          id="blog-excerpt"
          rows={2}
          value={fields.excerpt}
          placeholder={t('dialog.placeholder.excerpt')}
          disabled={saving}
          onChange={(e) => change('excerpt', e.target.value)}
          {...invalid('excerpt')}
        />
        <FieldError id={errorId('excerpt')} message={message('excerpt')} />
      </div>

      <div className={s.field}>
        <span className={s.label} id="blog-content-label">
          {t('dialog.content')}
        </span>
        <Suspense
          fallback={
            <div className={s.editorLoading} role="status">
              {t('dialog.editorLoading')}
            </div>
          }
        >
          <RichTextEditor
            ref={editorRef}
            id="blog-content"
            label={t('dialog.content')}
            value={fields.content}
            onChange={(html) => change('content', html)}
            placeholder={t('dialog.placeholder.content')}
            disabled={saving}
            invalid={!!errors.content}
            describedBy={errors.content ? errorId('content') : undefined}
            blocks
            onImage={(dropped) => imagePanel.current?.open(dropped)}
          />
        </Suspense>
        <PostTextImage ref={imagePanel} disabled={saving} onInsert={insertImage} onClose={focusEditor} />
        <FieldError id={errorId('content')} message={message('content')} />
      </div>

      <div className={s.row}>
        <div className={s.field}>
          <label htmlFor="blog-publication-date">{t('dialog.publicationDate')}</label>
          <div className={s.dateRow}>
            <input
              id="blog-publication-date"
              value={fields.publication_date}
              placeholder={t('dialog.placeholder.publicationDate')}
              disabled={saving}
              onChange={(e) => change('publication_date', e.target.value)}
              {...invalid('publication_date')}
              aria-describedby={errors.publication_date ? errorId('publication_date') : 'blog-date-shown'}
            />
            {/* the calendar: the day picked is written in the form's own words ('August 6, 2025') */}
            <input
              type="date"
              className={s.calendar}
              aria-label={t('dialog.pickDate')}
              value={parsePublicationDate(fields.publication_date) ?? ''}
              disabled={saving}
              onChange={(e) =>
                e.target.value &&
                change('publication_date', formatPublicationDate(new Date(`${e.target.value}T00:00:00Z`)))
              }
            />
          </div>
          {!errors.publication_date && parsePublicationDate(fields.publication_date) && (
            <p id="blog-date-shown" className={s.hint}>
              {t('dialog.dateShown', {
                date: formatPostDate(fields.publication_date, i18n.language).label,
              })}
            </p>
          )}
          <FieldError id={errorId('publication_date')} message={message('publication_date')} />
        </div>
        <div className={s.field}>
          <label htmlFor="blog-read-time">{t('dialog.readTime')}</label>
          <input
            id="blog-read-time"
            value={fields.read_time}
            placeholder={t('dialog.placeholder.readTime')}
            disabled={saving}
            onChange={(e) => change('read_time', e.target.value)}
            {...invalid('read_time')}
            aria-describedby={errors.read_time ? errorId('read_time') : 'blog-read-time-hint'}
          />
          <p id="blog-read-time-hint" className={s.hint}>
            {t('dialog.readTimeHint')}
          </p>
          <FieldError id={errorId('read_time')} message={message('read_time')} />
        </div>
      </div>

      <PostTagsField
        value={fields.tags}
        suggestions={state.context.choices.tags}
        disabled={saving}
        onChange={(value) => change('tags', value)}
        message={message('tags')}
        invalid={invalid('tags')}
        errorId={errorId}
      />

      <div className={s.field}>
        <label htmlFor="blog-author">{t('dialog.author')}</label>
        <select
          id="blog-author"
          value={fields.author_id}
          disabled={saving}
          onChange={(e) => change('author_id', e.target.value)}
          {...invalid('author_id')}
        >
          <option value="">{t('dialog.noAuthor')}</option>
          {authorChoices(state.context.choices.authors, fields.author_id, original).map((a) => (
            <option key={a.user_id} value={String(a.user_id)}>
              {a.name}
            </option>
          ))}
        </select>
        <FieldError id={errorId('author_id')} message={message('author_id')} />
      </div>

      <fieldset className={s.imageField} disabled={saving}>
        <legend>{t('dialog.featuredImage')}</legend>
        <div className={s.imageRow}>
          <label htmlFor="blog-image-url" className="visually-hidden">
            {t('dialog.imageUrl')}
          </label>
          <input
            id="blog-image-url"
            type="url"
            inputMode="url"
            value={file ? '' : urlValue}
            placeholder={t('dialog.placeholder.imageUrl')}
            disabled={!!file}
            onChange={(e) => change('featured_image_url', e.target.value)}
            {...invalid('featured_image')}
          />
          <input
            ref={fileInput}
            id="blog-image-file"
            className="visually-hidden"
            type="file"
            accept={BLOG_IMAGE_ACCEPT}
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => {
              send({ type: 'file.choose', file: e.target.files?.[0] ?? null });
              e.target.value = '';
            }}
          />
          <button type="button" className={s.secondary} onClick={() => fileInput.current?.click()}>
            {t('dialog.upload')}
          </button>
          {(file || previewSrc) && (
            <button type="button" className={s.linkButton} onClick={() => send({ type: 'file.clear' })}>
              {t('dialog.removeImage')}
            </button>
          )}
        </div>
        {file && <p className={s.fileName}>{t('dialog.chosenFile', { name: file.name })}</p>}
        {storedKey && !file && <p className={s.fileName}>{t('dialog.storedImage')}</p>}
        {previewSrc && <ImagePreview src={previewSrc} alt={t('dialog.preview')} />}
        <FieldError id={errorId('featured_image')} message={message('featured_image')} />
        <div className={s.field}>
          <label htmlFor="blog-cover-alt">{t('dialog.coverAlt')}</label>
          <input
            id="blog-cover-alt"
            value={fields.cover_alt}
            placeholder={t('dialog.placeholder.coverAlt')}
            onChange={(e) => change('cover_alt', e.target.value)}
            {...invalid('cover_alt')}
            aria-describedby={errors.cover_alt ? errorId('cover_alt') : 'blog-cover-alt-hint'}
          />
          <p id="blog-cover-alt-hint" className={s.hint}>
            {t('dialog.coverAltHint')}
          </p>
          <FieldError id={errorId('cover_alt')} message={message('cover_alt')} />
        </div>
      </fieldset>

      <fieldset className={s.publishing} disabled={saving}>
        <legend>{t('dialog.publishing')}</legend>
        <label className={s.check}>
          <input
            type="checkbox"
            checked={fields.publish}
            onChange={(e) => send({ type: 'field.change', field: 'publish', value: e.target.checked })}
          />
          {t('dialog.publish')}
        </label>
        <div className={s.field}>
          <label htmlFor="blog-publish-at">{t('dialog.publishAt')}</label>
          <input
            id="blog-publish-at"
            type="datetime-local"
            value={fields.publish_at}
            disabled={fields.publish}
            onChange={(e) => change('publish_at', e.target.value)}
            {...invalid('publish_at')}
            aria-describedby={errors.publish_at ? errorId('publish_at') : 'blog-publish-at-hint'}
          />
          <p id="blog-publish-at-hint" className={s.hint}>
            {t('dialog.timeZone', { zone: timeZone })}
          </p>
          <FieldError id={errorId('publish_at')} message={message('publish_at')} />
        </div>
      </fieldset>

      <PostSeoFields
        fields={fields}
        slugOf={original?.slug}
        imageSrc={previewSrc}
        disabled={saving}
        change={change}
        message={message}
        invalid={invalid}
        errorId={errorId}
        open={['slug', 'meta_title', 'meta_description', 'social_image_url', 'canonical_url'].some(
          (f) => !!errors[f as BlogField],
        )}
      />

      <PostPreview ref={preview} />
    </RecordEditorFrame>
  );
}

/**
 * The author choice: the staff who may write, and the post's author even when not among them (the
 * list not loaded yet, or their role changed), by the name readers see or their number.
 */
function authorChoices(authors: BlogAuthor[], chosen: string, original: BlogPostRow | null): BlogAuthor[] {
  if (chosen === '' || authors.some((a) => String(a.user_id) === chosen)) return authors;
  const name = original && String(original.author_id) === chosen ? original.author_name : null;
  return [...authors, { user_id: Number(chosen), name: name || `#${chosen}` }];
}

/** An object URL for a chosen file, revoked when the file changes or the dialog goes. */
function useObjectUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

function ImagePreview({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === src) return null;
  return (
    <div className={s.preview}>
      <img src={src} alt={alt} referrerPolicy="no-referrer" onError={() => setFailed(src)} />
    </div>
  );
}
