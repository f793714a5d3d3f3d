import { assign, fromCallback, fromPromise, raise, setup, type EventObject } from 'xstate';
import { htmlToText } from '../../contract/rich-text';
import {
  BLOG_ERROR_DISPLAY_MS,
  isHttpUrl,
  type BlogPostRow,
  type ManageBlogResponse,
  DRAFT,
  formatPublicationDate,
  PUBLISHED,
  SCHEDULED,
} from '../../contract/blog';
import {
  BLOG_ERROR_CODES,
  BLOG_FIELDS,
  blogFormErrors,
  type BlogField,
  type BlogFormErrors,
  type BlogPostForm,
  type BlogTag,
  type BlogAuthor,
  readTimeOf,
} from '../../contract/blog-form';
import { codesFor } from '../../contract/form-rules';
import { isQueued, type QueuedSubmission } from '../offline/queued';
import { changedOf, conflictIn, meetTheirs, type EditConflict, type ReadField } from './edit-conflict';

/**
 * The 'Create New Blog Post' / 'Edit Blog Post' dialog.
 *
 * - `closed` -> `editing` on `editor.open` (with a post: edit mode, fields pre-filled; without:
 *   create mode, publication date today in long English form, 'Publish immediately' unchecked so
 *   a new post is a Draft).
 * - `editor.submit` checks every rule of section 5 (the shared rules of the contract). Errors show
 *   in `editing.invalid` and clear after `errorDisplay` (2.5 s); the first failing field gets the
 *   focus (`focusField`).
 * - `submitting` sends the form (the `saveBlogPost` callback actor reports `upload.progress`, then
 *   `save.succeeded` or `save.failed`). Success closes and resets the dialog (`notifySaved`); a
 *   failure keeps everything typed, shows the server's field errors, and `notifyFailed`.
 * - `editor.cancel` closes and resets (not while submitting). A backdrop click or Escape
 *   (`editor.dismiss`) closes an unchanged dialog at once and asks 'Discard what you typed?'
 *   (`confirmingDiscard`) when something changed, like the apply and job dialogs.
 * - What is typed is kept on the device (`autosave`, 2 s after the first unsaved change); opening
 *   the dialog finds a draft that differs from it and offers it (`restore`); saving, Cancel and
 *   Discard remove it (`forgetDraft`). A chosen image file is not kept.
 * - An edit is based on the post's version (docs/decisions/022-versions-and-conflicts.md) and
 *   sends only the fields the person changed, so an untouched 'Publish immediately' tick is never
 *   written back. When someone else saved the post meanwhile, the fields only they changed take
 *   their values and the save goes again at once (`notifyMerged`); when both changed a field,
 *   `conflict` shows theirs beside mine and waits: keep mine, take theirs, or keep both texts of
 *   the content to merge by hand.
 * - Without a connection, the save is kept in the device's send queue with the version it is based
 *   on (`save.queued`): the dialog closes saying it waits (`notifyQueued`). One that met someone
 *   else's change before it could be sent is taken up again (`editor.resume`): the dialog opens on
 *   the post as it was read, the fields as they were opened and as saved, and sends again, which
 *   meets their change as above. Once saved, the queue's entry is removed (`forgetQueued`).
 * - Publishing (docs/decisions/025-blog-publishing.md): 'Publish immediately', or a time to publish at (the editor's own time
 *   zone in the form, UTC on the wire): the post is then Scheduled, and its publication date
 *   follows the chosen day. The read time follows the text until the person types their own.
 *   The address (slug), the cover's alt text, the tags and the search and social fields are fields
 *   too, and the author (the writer of a new post). The tags in use and the staff who may write
 *   are loaded as choices (`editing.suggestions`, the `loadChoices` actor).
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

export interface BlogEditorFields {
  title: string;
  excerpt: string;
  content: string;
  publication_date: string;
  read_time: string;
  /** An http(s) address, or the storage key of the image the post already has. */
  featured_image_url: string;
  /** 'Publish immediately': checked -> Published, unchecked -> Draft (or Scheduled, with a time). */
  publish: boolean;
  /** When to publish, in the editor's time zone as a datetime-local input holds it ('2026-12-01T09:00'), or ''. */
  publish_at: string;
  /** The address after /blog/ ('' on a new post: made from the title). */
  slug: string;
  cover_alt: string;
  meta_title: string;
  meta_description: string;
  social_image_url: string;
  canonical_url: string;
  /** The tags, ', ' between them. */
  tags: string;
  /** The author's user id, '' for none (a new post: the writer). */
  author_id: string;
}

export interface BlogEditorContext {
  mode: 'create' | 'edit';
  original: BlogPostRow | null;
  fields: BlogEditorFields;
  /** A chosen image file (replaces the address when set). */
  file: File | null;
  errors: BlogFormErrors;
  /** Upload progress 0..1 while submitting, else null. */
  progress: number | null;
  /** What the dialog opened with (empty with today's date, or the post): what "unchanged" means. */
  opened: BlogEditorFields;
  /** A draft of this post found on the device that differs from the form, offered to restore. */
  draft: BlogDraft | null;
  /** The device's draft was looked for (and any offer answered) since the dialog opened. */
  draftChecked: boolean;
  /** The version of the post the dialog is based on (edit), null for a new post. */
  version: number | null;
  /** Someone else's save that crossed this one on the same fields, while `conflict`. */
  conflict: EditConflict<BlogEditorFields> | null;
  /** The send-queue entry this dialog took up (`editor.resume`), removed once the change is saved. */
  queued: string | null;
  /** The tags in use (offered while typing one) and the staff who may write (the author choice). */
  choices: EditorChoices;
}

export interface EditorChoices {
  tags: BlogTag[];
  authors: BlogAuthor[];
}
const NO_CHOICES: EditorChoices = { tags: [], authors: [] };

/** A change kept in the send queue that met someone else's, taken up again by its author. */
export interface QueuedPostChange {
  /** The entry's id in the send queue. */
  id: string;
  /** The post as it was read when the change was made; its version is the change's base. */
  post: BlogPostRow;
  /** The dialog as it was opened, and as it was saved (with the image file chosen, if any). */
  base: BlogEditorFields;
  values: BlogEditorFields;
  file: File | null;
}

/** What the save actor sends (mode 1 create, 2 update). */
export type SaveInput = BlogPostForm;
/** The save actor's input: the form, and the dialog it came from (kept with a save made offline). */
export type SaveRequest = SaveInput & {
  context: Pick<BlogEditorContext, 'opened' | 'fields' | 'original'>;
};

export type BlogEditorEvent =
  /** `author`: the writer's user id, a new post's author. */
  | { type: 'editor.open'; post?: BlogPostRow; today: string; author?: string }
  /** Takes up a change made offline that met someone else's (see QueuedPostChange). */
  | { type: 'editor.resume'; change: QueuedPostChange }
  | { type: 'field.change'; field: TextField; value: string }
  | { type: 'publish.change'; publish: boolean }
  | { type: 'image.choose'; file: File | null }
  | { type: 'image.clear' }
  | { type: 'editor.submit' }
  | { type: 'editor.cancel' }
  /** A click on the backdrop or Escape: closes an unchanged dialog, asks first when something changed. */
  | { type: 'editor.dismiss' }
  | { type: 'discard.confirm' }
  | { type: 'discard.cancel' }
  /** 'Restore unsaved changes from {time}?': yes, or no (the draft is dropped). */
  | { type: 'draft.restore' }
  | { type: 'draft.ignore' }
  /** Raised by the machine itself when what the dialog holds changed: keep it on the device. */
  | { type: 'draft.touch' }
  | { type: 'upload.progress'; loaded: number; total: number }
  | { type: 'save.succeeded'; answer: ManageBlogResponse }
  | { type: 'save.failed'; error: unknown }
  /** No connection: the save was kept in the send queue under this id. */
  | { type: 'save.queued'; id: string }
  /** After a conflict: save mine over theirs, take theirs, or keep both texts of the content. */
  | { type: 'conflict.keepMine' }
  | { type: 'conflict.takeTheirs' }
  | { type: 'conflict.keepBoth' };

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

/** A post kept on the device as it was typed (its text fields; a chosen image file is not kept). */
export interface BlogDraft {
  values: BlogEditorFields;
  savedAt: string;
}
/** Which draft: the post's (its id), or the one new post being written (0). */
export interface BlogDraftRef {
  blogId: number;
}

/** The dialog's fields, in the order it shows them. */
export const EDITOR_FIELDS = [
  'title',
  'excerpt',
  'content',
  'publication_date',
  'read_time',
  'featured_image_url',
  'cover_alt',
  'tags',
  'author_id',
  'publish',
  'publish_at',
  'slug',
  'meta_title',
  'meta_description',
  'social_image_url',
  'canonical_url',
] as const satisfies readonly (keyof BlogEditorFields)[];
export type EditorField = (typeof EDITOR_FIELDS)[number];

/** How a person reads a field: the content as text, a line trimmed, the tick as yes or no. */
export const readEditorField: ReadField<BlogEditorFields> = (field, value) =>
  field === 'content' ? htmlToText(String(value)) : String(value).trim();

/** The fields whose values differ as a person reads them. */
export const changedFields = (fields: BlogEditorFields, opened: BlogEditorFields): EditorField[] =>
  changedOf(EDITOR_FIELDS, readEditorField, fields, opened) as EditorField[];

/** Whether the dialog holds a change a person would lose (text trimmed, the content as text, a chosen image). */
export function isChanged(context: Pick<BlogEditorContext, 'fields' | 'opened' | 'file'>): boolean {
  return context.file !== null || changedFields(context.fields, context.opened).length > 0;
}

const conflictOf = (error: unknown) => conflictIn<BlogPostRow>(error);

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
const serverErrors = (error: unknown): BlogFormErrors =>
  codesFor(
    (error as { codes?: Record<string, string> } | null)?.codes,
    BLOG_FIELDS,
    BLOG_ERROR_CODES,
    'invalid',
  );

/**
 * The save actor from a function that sends the form and reports progress (src/api/blog.ts):
 * `actors: { saveBlogPost: savingActor((input, onProgress, signal) => saveBlogPost(input, { onProgress, signal })) }`.
 */
export function savingActor(
  save: (
    input: SaveInput,
    onProgress: (loaded: number, total: number) => void,
    signal: AbortSignal,
    /** The dialog as it was opened and as saved, and the post it is based on (kept with a queued save). */
    context: SaveRequest['context'],
  ) => Promise<ManageBlogResponse | QueuedSubmission>,
) {
  return fromCallback<EventObject, SaveRequest>(({ input, sendBack }) => {
    const controller = new AbortController();
    let active = true;
    const { context, ...form } = input;
    save(
      form,
      (loaded, total) => active && sendBack({ type: 'upload.progress', loaded, total }),
      controller.signal,
      context,
    ).then(
      (answer) =>
        active &&
        sendBack(
          isQueued(answer) ? { type: 'save.queued', id: answer.id } : { type: 'save.succeeded', answer },
        ),
      (error: unknown) => active && sendBack({ type: 'save.failed', error }),
    );
    return () => {
      active = false;
      controller.abort();
    };
  });
}

export const blogEditorMachine = setup({
  types: {
    context: {} as BlogEditorContext,
    events: {} as BlogEditorEvent,
  },
  actors: {
    saveBlogPost: fromCallback<EventObject, SaveRequest>(({ sendBack }) => {
      sendBack({ type: 'save.failed', error: new Error('saveBlogPost is provided by the app') });
    }),
    /** This post's draft on the device, or null. */
    readDraft: fromPromise<BlogDraft | null, BlogDraftRef>(async () => null),
    /** Keeps what the dialog holds on the device. */
    writeDraft: fromPromise<void, BlogDraftRef & { values: BlogEditorFields }>(async () => {}),
    /** The tags in use and the staff who may write (GET /api/admin/blog-tags, blog-authors). */
    loadChoices: fromPromise<EditorChoices>(async () => NO_CHOICES),
  },
  delays: {
    errorDisplay: BLOG_ERROR_DISPLAY_MS,
    /** What is typed is kept on the device at most this long after the first unsaved change. */
    draftDelay: 2000,
  },
  actions: {
    openCreate: assign((_, params: { today: string; author?: string }) => ({
      mode: 'create' as const,
      version: null,
      conflict: null,
      queued: null,
      original: null,
      fields: { ...EMPTY, publication_date: params.today, author_id: params.author ?? '' },
      opened: { ...EMPTY, publication_date: params.today, author_id: params.author ?? '' },
      draft: null,
      draftChecked: false,
      file: null,
      errors: {},
      progress: null,
    })),
    openEdit: assign((_, params: { post: BlogPostRow }) => ({
      mode: 'edit' as const,
      version: params.post.version ?? null,
      conflict: null,
      queued: null,
      original: params.post,
      fields: fieldsOf(params.post),
      opened: fieldsOf(params.post),
      draft: null,
      draftChecked: false,
      file: null,
      errors: {},
      progress: null,
    })),
    resume: assign((_, params: { change: QueuedPostChange }) => ({
      mode: 'edit' as const,
      version: params.change.post.version ?? null,
      conflict: null,
      queued: params.change.id,
      original: params.change.post,
      fields: params.change.values,
      opened: params.change.base,
      draft: null,
      file: params.change.file,
      errors: {},
      progress: null,
    })),
    reset: assign({
      mode: 'create' as const,
      version: null,
      conflict: null,
      queued: null,
      original: null,
      fields: EMPTY,
      opened: EMPTY,
      draft: null,
      draftChecked: false,
      file: null,
      errors: {},
      progress: null,
    }),
    /**
     * A field changes. The read time follows the text while it is empty or still the one the
     * text gave; a time to publish at makes that day the publication date.
     */
    setField: assign({
      fields: ({ context }, params: { field: TextField; value: string }) => {
        const before = context.fields;
        const next = { ...before, [params.field]: params.value };
        if (
          params.field === 'content' &&
          (before.read_time.trim() === '' || before.read_time.trim() === readTimeOf(before.content))
        )
          next.read_time = htmlToText(params.value) ? readTimeOf(params.value) : before.read_time;
        if (params.field === 'publish_at' && isoOfLocal(params.value))
          next.publication_date = formatPublicationDate(new Date(isoOfLocal(params.value)), { local: true });
        return next;
      },
    }),
    setPublish: assign({
      fields: ({ context }, params: { publish: boolean }) => ({ ...context.fields, publish: params.publish }),
    }),
    setFile: assign({ file: (_, params: { file: File | null }) => params.file }),
    clearImage: assign({
      file: null,
      fields: ({ context }) => ({ ...context.fields, featured_image_url: '' }),
    }),
    showErrors: assign({ errors: (_, params: { errors: BlogFormErrors }) => params.errors }),
    clearErrors: assign({ errors: {} }),
    setProgress: assign({
      progress: (_, params: { loaded: number; total: number }) =>
        params.total > 0 ? Math.min(1, Math.max(0, params.loaded / params.total)) : null,
    }),
    startProgress: assign({ progress: 0 }),
    stopProgress: assign({ progress: null }),
    /** Focus the first failing field (the screen supplies it). */
    focusField: (_, _params: { field: BlogField }) => {},
    /** The post was saved: toast, and update the list. */
    notifySaved: (_, _params: { row: BlogPostRow | undefined; created: boolean; message: string }) => {},
    notifyFailed: (_, _params: { error: unknown }) => {},
    /** Kept on the device, to be sent when the connection is back ('Waiting to send'). */
    notifyQueued: () => {},
    /** Removes the send-queue entry this dialog took up (saved, or kept again as a new entry). */
    forgetQueued: (_, _params: { id: string | null }) => {},
    /** Removes this post's draft from the device (saved or discarded); supplied by the screen. */
    forgetDraft: (_, _params: BlogDraftRef) => {},
    offerDraft: assign({ draft: (_, params: { draft: BlogDraft }) => params.draft }),
    restoreDraft: assign(({ context }) => ({
      fields: context.draft?.values ?? context.fields,
      draft: null,
      draftChecked: true,
    })),
    dropOffer: assign({ draft: null, draftChecked: true }),
    draftChecked: assign({ draftChecked: true }),
    touchDraft: raise({ type: 'draft.touch' as const }),
    /** Their save is the new base: fields only they changed take their values (edit-conflict.ts). */
    meetTheirs: assign(({ context }, params: { error: unknown }) => {
      const met = conflictOf(params.error)!;
      const theirs = fieldsOf(met.current);
      const { merged, both } = meetTheirs(
        EDITOR_FIELDS,
        readEditorField,
        context.fields,
        context.opened,
        theirs,
      );
      return {
        fields: merged,
        opened: theirs,
        original: met.current,
        version: met.current.version ?? null,
        conflict: {
          theirs,
          version: met.current.version ?? 0,
          changedBy: met.changedBy,
          changedAt: met.changedAt,
          fields: both,
        },
      };
    }),
    takeTheirs: assign(({ context }) => ({
      fields: context.conflict
        ? (Object.fromEntries(
            EDITOR_FIELDS.map((f) => [
              f,
              context.conflict!.fields.includes(f) ? context.conflict!.theirs[f] : context.fields[f],
            ]),
          ) as unknown as BlogEditorFields)
        : context.fields,
      conflict: null,
    })),
    /** Their content, then mine, to merge by hand; the other fields as I had them. */
    keepBoth: assign(({ context }) => ({
      fields: {
        ...context.fields,
        content: `${context.conflict?.theirs.content ?? ''}${context.fields.content}`,
      },
      conflict: null,
    })),
    clearConflict: assign({ conflict: null }),
    keepChoices: assign({ choices: (_, params: { choices: EditorChoices }) => params.choices }),
    /** Saved together with someone else's change to other fields. */
    notifyMerged: (_, _params: { changedBy: string | null }) => {},
  },
  guards: {
    isValid: ({ context }) => firstError(editorErrors(context)) === undefined,
    isChanged: ({ context }) => isChanged(context),
    /** A draft that holds something other than what the dialog shows now. */
    isDifferentDraft: ({ context }, params: { draft: BlogDraft | null }) =>
      params.draft != null && isChanged({ fields: params.draft.values, opened: context.fields, file: null }),
    isImageFile: (_, params: { file: File | null }) => !params.file || /^image\//.test(params.file.type),
    /** Someone else saved meanwhile, on other fields only: save again on their version. */
    isMergeable: ({ context }, params: { error: unknown }) => {
      const met = conflictOf(params.error);
      return (
        met !== null &&
        meetTheirs(EDITOR_FIELDS, readEditorField, context.fields, context.opened, fieldsOf(met.current)).both
          .length === 0
      );
    },
    isConflict: (_, params: { error: unknown }) => conflictOf(params.error) !== null,
    /** The content is among the fields both changed: 'Keep both' is offered. */
    canKeepBoth: ({ context }) => context.conflict?.fields.includes('content') ?? false,
  },
}).createMachine({
  id: 'blogEditor',
  initial: 'closed',
  context: {
    mode: 'create',
    version: null,
    conflict: null,
    queued: null,
    original: null,
    fields: EMPTY,
    opened: EMPTY,
    draft: null,
    draftChecked: false,
    file: null,
    errors: {},
    progress: null,
    choices: NO_CHOICES,
  },
  states: {
    closed: {
      on: {
        'editor.open': [
          {
            guard: ({ event }) => !!event.post,
            target: 'editing',
            actions: { type: 'openEdit', params: ({ event }) => ({ post: event.post! }) },
          },
          {
            target: 'editing',
            actions: {
              type: 'openCreate',
              params: ({ event }) => ({ today: event.today, author: event.author }),
            },
          },
        ],
        'editor.resume': {
          target: 'submitting',
          actions: { type: 'resume', params: ({ event }) => ({ change: event.change }) },
        },
      },
    },
    /**
     * Four regions: `display` (errors shown for a while after a refused submit), `restore` (a
     * draft of this post found on the device), `autosave` (what is typed, kept on the device) and
     * `suggestions` (the tags in use; without them the field works as plain text).
     */
    editing: {
      type: 'parallel',
      on: {
        'field.change': {
          actions: [
            { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) },
            'touchDraft',
          ],
        },
        'publish.change': {
          actions: [
            { type: 'setPublish', params: ({ event }) => ({ publish: event.publish }) },
            'touchDraft',
          ],
        },
        'image.choose': [
          {
            guard: { type: 'isImageFile', params: ({ event }) => ({ file: event.file }) },
            actions: { type: 'setFile', params: ({ event }) => ({ file: event.file }) },
          },
          {
            target: '.display.invalid',
            reenter: true,
            actions: [
              { type: 'setFile', params: { file: null } },
              {
                type: 'showErrors',
                params: ({ context }) => ({
                  errors: { ...context.errors, featured_image: 'imageInvalidFile' },
                }),
              },
            ],
          },
        ],
        'image.clear': { actions: ['clearImage', 'touchDraft'] },
        'editor.submit': [
          { guard: 'isValid', target: 'submitting', actions: 'clearErrors' },
          {
            target: '.display.invalid',
            reenter: true,
            actions: [
              { type: 'showErrors', params: ({ context }) => ({ errors: editorErrors(context) }) },
              {
                type: 'focusField',
                params: ({ context }) => ({ field: firstError(editorErrors(context))! }),
              },
            ],
          },
        ],
        'editor.cancel': {
          target: 'closed',
          actions: [
            { type: 'forgetDraft', params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }) },
            'reset',
          ],
        },
        'editor.dismiss': [
          { guard: 'isChanged', target: 'confirmingDiscard' },
          {
            target: 'closed',
            actions: [
              { type: 'forgetDraft', params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }) },
              'reset',
            ],
          },
        ],
      },
      states: {
        display: {
          initial: 'clean',
          states: {
            clean: {},
            invalid: {
              after: { errorDisplay: { target: 'clean', actions: 'clearErrors' } },
            },
          },
        },
        restore: {
          initial: 'deciding',
          states: {
            // looked for once per opening: coming back to the form (Keep editing, a failed save,
            // a conflict) is not opening it, and the draft autosave keeps is this very form
            deciding: {
              always: [
                { guard: ({ context }) => context.draftChecked, target: 'none' },
                { target: 'checking' },
              ],
            },
            checking: {
              invoke: {
                id: 'readDraft',
                src: 'readDraft',
                input: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }),
                onDone: [
                  {
                    guard: { type: 'isDifferentDraft', params: ({ event }) => ({ draft: event.output }) },
                    target: 'offering',
                    actions: { type: 'offerDraft', params: ({ event }) => ({ draft: event.output! }) },
                  },
                  { target: 'none', actions: 'draftChecked' },
                ],
                onError: { target: 'none', actions: 'draftChecked' },
              },
            },
            offering: {
              on: {
                'draft.restore': { target: 'none', actions: 'restoreDraft' },
                'draft.ignore': {
                  target: 'none',
                  actions: [
                    'dropOffer',
                    {
                      type: 'forgetDraft',
                      params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }),
                    },
                  ],
                },
              },
            },
            none: {},
          },
        },
        suggestions: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadChoices',
                src: 'loadChoices',
                onDone: {
                  target: 'loaded',
                  actions: { type: 'keepChoices', params: ({ event }) => ({ choices: event.output }) },
                },
                onError: 'unavailable',
              },
            },
            loaded: {},
            unavailable: {},
          },
        },
        autosave: {
          initial: 'kept',
          states: {
            kept: { on: { 'draft.touch': 'changed', 'draft.restore': 'changed' } },
            changed: { after: { draftDelay: 'keeping' } },
            keeping: {
              invoke: {
                id: 'writeDraft',
                src: 'writeDraft',
                input: ({ context }) => ({ blogId: context.original?.blog_id ?? 0, values: context.fields }),
                onDone: 'kept',
                onError: 'kept',
              },
              on: { 'draft.touch': 'changed' },
            },
          },
        },
      },
    },
    /** 'Discard what you typed?' over the form, after a backdrop click or Escape with changes. */
    confirmingDiscard: {
      on: {
        'discard.confirm': {
          target: 'closed',
          actions: [
            { type: 'forgetDraft', params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }) },
            'reset',
          ],
        },
        // back to the form: what was typed just before is kept on the device as well
        'discard.cancel': { target: 'editing', actions: 'touchDraft' },
        'editor.dismiss': { target: 'editing', actions: 'touchDraft' },
        'editor.cancel': {
          target: 'closed',
          actions: [
            { type: 'forgetDraft', params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }) },
            'reset',
          ],
        },
      },
    },
    submitting: {
      entry: 'startProgress',
      exit: 'stopProgress',
      invoke: {
        id: 'saveBlogPost',
        src: 'saveBlogPost',
        input: ({ context }) => ({
          ...saveInput(context),
          context: { opened: context.opened, fields: context.fields, original: context.original },
        }),
        onError: {
          target: 'editing',
          actions: { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: {
        'upload.progress': {
          actions: {
            type: 'setProgress',
            params: ({ event }) => ({ loaded: event.loaded, total: event.total }),
          },
        },
        'save.succeeded': {
          target: 'closed',
          actions: [
            {
              type: 'notifySaved',
              params: ({ context, event }) => ({
                row: event.answer.row,
                created: context.mode === 'create',
                message: event.answer.message,
              }),
            },
            { type: 'forgetQueued', params: ({ context }) => ({ id: context.queued }) },
            { type: 'forgetDraft', params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }) },
            'reset',
          ],
        },
        // no connection: the send queue holds it now (and its draft is no longer needed)
        'save.queued': {
          target: 'closed',
          actions: [
            'notifyQueued',
            { type: 'forgetQueued', params: ({ context }) => ({ id: context.queued }) },
            { type: 'forgetDraft', params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }) },
            'reset',
          ],
        },
        'save.failed': [
          {
            guard: { type: 'isMergeable', params: ({ event }) => ({ error: event.error }) },
            target: 'submitting',
            reenter: true,
            actions: [
              { type: 'meetTheirs', params: ({ event }) => ({ error: event.error }) },
              { type: 'notifyMerged', params: ({ context }) => ({ changedBy: context.conflict!.changedBy }) },
              'clearConflict',
            ],
          },
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'conflict',
            actions: { type: 'meetTheirs', params: ({ event }) => ({ error: event.error }) },
          },
          {
            // the server named fields (400, 413, 415): show them like the dialog's own messages
            guard: ({ event }) => firstError(serverErrors(event.error)) !== undefined,
            target: 'editing.display.invalid',
            actions: [
              { type: 'showErrors', params: ({ event }) => ({ errors: serverErrors(event.error) }) },
              { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
            ],
          },
          {
            target: 'editing',
            actions: { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    /**
     * '<name> changed this at 10:42 while you were editing': theirs beside mine for the fields both
     * changed; the dialog keeps what was typed until the person chooses.
     */
    conflict: {
      on: {
        'conflict.keepMine': { target: 'submitting', actions: 'clearConflict' },
        // the choice is made: the device's copy of what was typed before it is not offered again
        'conflict.takeTheirs': {
          target: 'editing',
          actions: [
            'takeTheirs',
            { type: 'forgetDraft', params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }) },
          ],
        },
        'conflict.keepBoth': {
          guard: 'canKeepBoth',
          target: 'editing',
          actions: [
            'keepBoth',
            { type: 'forgetDraft', params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }) },
          ],
        },
        'editor.cancel': {
          target: 'closed',
          actions: [
            { type: 'forgetDraft', params: ({ context }) => ({ blogId: context.original?.blog_id ?? 0 }) },
            'reset',
          ],
        },
      },
    },
  },
});
