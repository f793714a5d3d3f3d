import { htmlToText } from '../../contract/rich-text';
import {
  BLOG_ERROR_DISPLAY_MS,
  isHttpUrl,
  type BlogPostRow,
  DRAFT,
  formatPublicationDate,
  PUBLISHED,
  SCHEDULED,
} from '../../contract/blog';
import {
  BLOG_ERROR_CODES,
  BLOG_FIELDS,
  POST_FIELDS,
  blogFormErrors,
  type PostField,
  type BlogErrorCode,
  type BlogField,
  type BlogFormErrors,
  type BlogPostForm,
  type BlogTag,
  type BlogAuthor,
  readTimeOf,
} from '../../contract/blog-form';
import { codesFor } from '../../contract/form-rules';
import {
  changedOf,
  isChangedIn,
  recordEditor,
  type QueuedChange,
  type ReadField,
  type RecordDraft,
  type RecordEditorContext,
} from './record-editor.machine';

/**
 * The 'Create New Blog Post' / 'Edit Blog Post' dialog: a record editor
 * (record-editor.machine.ts, docs/decisions/036-record-editor.md) with what is the post's own.
 *
 * - A new post opens with today's publication date in long English form and its writer as the
 *   author; 'Publish immediately' unchecked makes it a Draft.
 * - `editor.submit` checks every rule of section 5 (the contract's shared rules); all the errors
 *   show for `BLOG_ERROR_DISPLAY_MS` (2.5 s) and the first failing field gets the focus. The
 *   server's field errors (400, 413, 415) show the same way.
 * - Publishing (docs/decisions/025-blog-publishing.md): 'Publish immediately', or a time to publish
 *   at (the editor's own time zone in the form, UTC on the wire): the post is then Scheduled, and its
 *   publication date follows the chosen day. The read time follows the text until the person types
 *   their own. The cover is an address or a chosen image file (`file.choose`, `file.clear`; a file
 *   is not kept in the device's draft), with its alt text; the address (slug), the tags, the author
 *   and the search and social fields are fields too. The tags in use and the staff who may write
 *   are loaded as choices (the `choices` region). 'Keep both' joins the two texts of the content.
 * - An update sends what the person changed: the tick and the time are the post's status, a chosen
 *   file its image, so an untouched 'Publish immediately' is never written back.
 */

export type TextField =
  | 'title'
  | 'excerpt'
  | 'content'
  | 'publication_date'
  | 'read_time'
  | 'featured_image_url'
  | 'cover_alt'
  | 'publish_at'
  | 'slug'
  | 'meta_title'
  | 'meta_description'
  | 'social_image_url'
  | 'canonical_url'
  | 'tags'
  | 'author_id';

/** What the dialog holds: each text field, and the 'Publish immediately' tick. */
export type BlogEditorFields = Record<TextField, string> & {
  /** 'Publish immediately': checked -> Published, unchecked -> Draft (or Scheduled, with a time). */
  publish: boolean;
};

/** The tags in use (offered while typing one) and the staff who may write (the author choice). */
export interface EditorChoices {
  tags: BlogTag[];
  authors: BlogAuthor[];
}
const NO_CHOICES: EditorChoices = { tags: [], authors: [] };

export type BlogEditorContext = RecordEditorContext<
  BlogPostRow,
  BlogEditorFields,
  BlogField,
  BlogErrorCode,
  EditorChoices
>;
/** A post kept on the device as it was typed. */
export type BlogDraft = RecordDraft<BlogEditorFields>;
/** A change kept in the send queue that met someone else's, taken up again by its author. */
export type QueuedPostChange = QueuedChange<BlogPostRow, BlogEditorFields>;
/** What the save sends (mode 1 create, 2 update). */
export type SaveInput = BlogPostForm;

const EMPTY: BlogEditorFields = {
  title: '',
  excerpt: '',
  content: '',
  publication_date: '',
  read_time: '',
  featured_image_url: '',
  publish: false,
  publish_at: '',
  slug: '',
  cover_alt: '',
  meta_title: '',
  meta_description: '',
  social_image_url: '',
  canonical_url: '',
  tags: '',
  author_id: '',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant (ISO 8601) as a datetime-local input shows it in this browser's time zone, or ''. */
export function localDateTimeOf(iso: string | null | undefined): string {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value ('2026-12-01T09:00', this browser's time zone) as ISO 8601 in UTC, or ''. */
export function isoOfLocal(local: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

export function fieldsOf(post: BlogPostRow): BlogEditorFields {
  return {
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    publication_date: post.publication_date,
    read_time: post.read_time,
    featured_image_url: post.featured_image_url ?? '',
    publish: post.status === PUBLISHED,
    publish_at: post.status === SCHEDULED ? localDateTimeOf(post.publish_at) : '',
    slug: post.slug ?? '',
    cover_alt: post.cover_alt ?? '',
    meta_title: post.meta_title ?? '',
    meta_description: post.meta_description ?? '',
    social_image_url: post.social_image_url ?? '',
    canonical_url: post.canonical_url ?? '',
    tags: post.tags ?? '',
    author_id: post.author_id == null ? '' : String(post.author_id),
  };
}

/** The status the dialog gives the post: the tick, else a time, else a Draft. */
export const statusOfFields = (f: Pick<BlogEditorFields, 'publish' | 'publish_at'>) =>
  f.publish ? PUBLISHED : f.publish_at ? SCHEDULED : DRAFT;

/** The dialog's fields, in the order it shows them: the post's (contract) with the tick for its status. */
export const EDITOR_FIELDS = POST_FIELDS.map((f) => (f === 'status' ? 'publish' : f)) as readonly (
  Exclude<PostField, 'status'> | 'publish'
)[];
export type EditorField = (typeof EDITOR_FIELDS)[number];

/** How a person reads a field: the content as text, a line trimmed, the tick as yes or no. */
export const readEditorField: ReadField<BlogEditorFields> = (field, value) =>
  field === 'content' ? htmlToText(String(value)) : String(value).trim();

/** The fields whose values differ as a person reads them. */
export const changedFields = (fields: BlogEditorFields, opened: BlogEditorFields): EditorField[] =>
  changedOf(EDITOR_FIELDS, readEditorField, fields, opened) as EditorField[];

/** Whether the dialog holds a change a person would lose (text trimmed, the content as text, a chosen image). */
export const isChanged = (context: Pick<BlogEditorContext, 'fields' | 'opened' | 'file'>): boolean =>
  isChangedIn(EDITOR_FIELDS, readEditorField, context);

/** Every rule of the form for what the dialog holds; the post's own stored image counts as given. */
export function editorErrors(
  context: Pick<BlogEditorContext, 'fields' | 'file' | 'original'>,
): BlogFormErrors {
  const { fields, file, original } = context;
  const status = statusOfFields(fields);
  return blogFormErrors(
    {
      ...fields,
      image: file ? { type: file.type, size: file.size } : null,
      status,
      publish_at: status === SCHEDULED ? isoOfLocal(fields.publish_at) : '',
      // a new post's address is made from the title unless one is typed
      slug: original || fields.slug.trim() ? fields.slug : undefined,
    },
    {
      isKnownImageKey: (value) =>
        !!original && value === (original.featured_image_url ?? '') && !isHttpUrl(value) && value !== '',
      // an unchanged schedule is the server's to keep (its time may pass while the dialog is open)
      now:
        status === SCHEDULED &&
        (!original ||
          original.status !== SCHEDULED ||
          fields.publish_at !== localDateTimeOf(original.publish_at))
          ? new Date()
          : undefined,
    },
  );
}

export const firstError = (errors: BlogFormErrors): BlogField | undefined =>
  BLOG_FIELDS.find((f) => errors[f]);

export function saveInput(context: BlogEditorContext): SaveInput {
  const f = context.fields;
  // an update sends what the person changed: the tick and the time are the post's status, a chosen
  // file its image
  const changed = [
    ...new Set(
      changedFields(f, context.opened).flatMap((field) =>
        field === 'publish' ? ['status'] : field === 'publish_at' ? ['status', 'publish_at'] : [field],
      ),
    ),
  ];
  if (changed.includes('status') && !changed.includes('publish_at')) changed.push('publish_at');
  if (context.file && !changed.includes('featured_image_url')) changed.push('featured_image_url');
  const status = statusOfFields(f);
  return {
    version: context.version ?? undefined,
    changed,
    mode: context.mode === 'create' ? 1 : 2,
    blog_id: context.original?.blog_id ?? 0,
    title: f.title.trim(),
    excerpt: f.excerpt.trim(),
    content: f.content,
    publication_date: f.publication_date.trim(),
    read_time: f.read_time.trim(),
    status,
    featured_image_url: context.file ? '' : f.featured_image_url.trim(),
    featured_image: context.file,
    publish_at: status === SCHEDULED ? isoOfLocal(f.publish_at) : '',
    slug: f.slug.trim(),
    cover_alt: f.cover_alt.trim(),
    meta_title: f.meta_title.trim(),
    meta_description: f.meta_description.trim(),
    social_image_url: f.social_image_url.trim(),
    canonical_url: f.canonical_url.trim(),
    tags: f.tags,
    author_id: f.author_id,
  };
}

/** The codes of a refusal (form-rules.ts), for the form's fields; one the form does not know is 'invalid'. */
export const serverErrors = (error: unknown): BlogFormErrors =>
  codesFor(
    (error as { codes?: Record<string, string> } | null)?.codes,
    BLOG_FIELDS,
    BLOG_ERROR_CODES,
    'invalid',
  );

/**
 * A field changed. The read time follows the text while it is empty or still the one the text
 * gave; a time to publish at makes that day the publication date.
 */
export function changeField(
  before: BlogEditorFields,
  field: keyof BlogEditorFields,
  value: BlogEditorFields[keyof BlogEditorFields],
): BlogEditorFields {
  const next = { ...before, [field]: value };
  if (
    field === 'content' &&
    (before.read_time.trim() === '' || before.read_time.trim() === readTimeOf(before.content))
  )
    next.read_time = htmlToText(String(value)) ? readTimeOf(String(value)) : before.read_time;
  if (field === 'publish_at' && isoOfLocal(String(value)))
    next.publication_date = formatPublicationDate(new Date(isoOfLocal(String(value))), { local: true });
  return next;
}

export const blogEditorMachine = recordEditor<
  BlogPostRow,
  BlogEditorFields,
  BlogField,
  BlogErrorCode,
  EditorChoices,
  SaveInput
>({
  id: 'blogEditor',
  fields: EDITOR_FIELDS,
  empty: EMPTY,
  fieldsOf,
  idOf: (post) => post.blog_id,
  read: readEditorField,
  change: changeField,
  errorsOf: editorErrors,
  errorFields: BLOG_FIELDS,
  serverErrors,
  errorDisplayMs: BLOG_ERROR_DISPLAY_MS,
  joinable: (field) => field === 'content',
  saveInput,
  file: {
    accepts: (file) => /^image\//.test(file.type),
    error: 'featured_image',
    code: 'imageInvalidFile',
    replaces: 'featured_image_url',
  },
  choices: NO_CHOICES,
});
