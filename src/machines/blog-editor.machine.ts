import { assign, fromCallback, setup, type EventObject } from 'xstate';
import {
  BLOG_ERROR_DISPLAY_MS,
  BLOG_FIELDS,
  blogFormErrors,
  isHttpUrl,
  plainText,
  type BlogField,
  type BlogFormErrors,
  type BlogPostRow,
  type BlogStatus,
  type ManageBlogResponse,
  DRAFT,
  PUBLISHED,
} from '../api/contract/blog';

/**
 * The 'Create New Blog Post' / 'Edit Blog Post' dialog (spec sections 2, 4, 5 and 8).
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
 */

export type TextField =
  'title' | 'excerpt' | 'content' | 'publication_date' | 'read_time' | 'featured_image_url';

export interface BlogEditorFields {
  title: string;
  excerpt: string;
  content: string;
  publication_date: string;
  read_time: string;
  /** An http(s) address, or the storage key of the image the post already has. */
  featured_image_url: string;
  /** 'Publish immediately': checked -> Published, unchecked -> Draft. */
  publish: boolean;
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
}

/** What the save actor sends (spec section 7: mode 1 create, 2 update). */
export interface SaveInput {
  mode: 1 | 2;
  blog_id: number;
  title: string;
  excerpt: string;
  content: string;
  publication_date: string;
  read_time: string;
  status: BlogStatus;
  featured_image_url: string;
  featured_image: File | null;
}

export type BlogEditorEvent =
  | { type: 'editor.open'; post?: BlogPostRow; today: string }
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
  | { type: 'upload.progress'; loaded: number; total: number }
  | { type: 'save.succeeded'; answer: ManageBlogResponse }
  | { type: 'save.failed'; error: unknown };

const EMPTY: BlogEditorFields = {
  title: '',
  excerpt: '',
  content: '',
  publication_date: '',
  read_time: '',
  featured_image_url: '',
  publish: false,
};

export function fieldsOf(post: BlogPostRow): BlogEditorFields {
  return {
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    publication_date: post.publication_date,
    read_time: post.read_time,
    featured_image_url: post.featured_image_url ?? '',
    publish: post.status === PUBLISHED,
  };
}

/** Whether the dialog holds a change a person would lose (text trimmed, the content as text, a chosen image). */
export function isChanged(context: Pick<BlogEditorContext, 'fields' | 'opened' | 'file'>): boolean {
  const { fields, opened } = context;
  return (
    context.file !== null ||
    fields.publish !== opened.publish ||
    plainText(fields.content) !== plainText(opened.content) ||
    (['title', 'excerpt', 'publication_date', 'read_time', 'featured_image_url'] as const).some(
      (f) => fields[f].trim() !== opened[f].trim(),
    )
  );
}

/** Every rule of the form for what the dialog holds; the post's own stored image counts as given. */
export function editorErrors(
  context: Pick<BlogEditorContext, 'fields' | 'file' | 'original'>,
): BlogFormErrors {
  const { fields, file, original } = context;
  return blogFormErrors(
    { ...fields, image: file ? { type: file.type, size: file.size } : null },
    {
      isKnownImageKey: (value) =>
        !!original && value === (original.featured_image_url ?? '') && !isHttpUrl(value) && value !== '',
    },
  );
}

export const firstError = (errors: BlogFormErrors): BlogField | undefined =>
  BLOG_FIELDS.find((f) => errors[f]);

export function saveInput(context: BlogEditorContext): SaveInput {
  const f = context.fields;
  return {
    mode: context.mode === 'create' ? 1 : 2,
    blog_id: context.original?.blog_id ?? 0,
    title: f.title.trim(),
    excerpt: f.excerpt.trim(),
    content: f.content,
    publication_date: f.publication_date.trim(),
    read_time: f.read_time.trim(),
    status: f.publish ? PUBLISHED : DRAFT,
    featured_image_url: context.file ? '' : f.featured_image_url.trim(),
    featured_image: context.file,
  };
}

/** Server field errors (400) mapped to the form's fields. */
function serverErrors(error: unknown): BlogFormErrors {
  const errors = (error as { errors?: Record<string, string> } | null)?.errors ?? {};
  const out: BlogFormErrors = {};
  for (const field of BLOG_FIELDS) {
    const message = errors[field] ?? (field === 'featured_image' ? errors.featured_image_url : undefined);
    if (typeof message === 'string' && message) out[field] = message;
  }
  return out;
}

/**
 * The save actor from a function that sends the form and reports progress (src/api/blog.ts):
 * `actors: { saveBlogPost: savingActor((input, onProgress, signal) => saveBlogPost(input, { onProgress, signal })) }`.
 */
export function savingActor(
  save: (
    input: SaveInput,
    onProgress: (loaded: number, total: number) => void,
    signal: AbortSignal,
  ) => Promise<ManageBlogResponse>,
) {
  return fromCallback<EventObject, SaveInput>(({ input, sendBack }) => {
    const controller = new AbortController();
    let active = true;
    save(
      input,
      (loaded, total) => active && sendBack({ type: 'upload.progress', loaded, total }),
      controller.signal,
    ).then(
      (answer) => active && sendBack({ type: 'save.succeeded', answer }),
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
    saveBlogPost: fromCallback<EventObject, SaveInput>(({ sendBack }) => {
      sendBack({ type: 'save.failed', error: new Error('saveBlogPost is provided by the app') });
    }),
  },
  delays: {
    errorDisplay: BLOG_ERROR_DISPLAY_MS,
  },
  actions: {
    openCreate: assign((_, params: { today: string }) => ({
      mode: 'create' as const,
      original: null,
      fields: { ...EMPTY, publication_date: params.today },
      opened: { ...EMPTY, publication_date: params.today },
      file: null,
      errors: {},
      progress: null,
    })),
    openEdit: assign((_, params: { post: BlogPostRow }) => ({
      mode: 'edit' as const,
      original: params.post,
      fields: fieldsOf(params.post),
      opened: fieldsOf(params.post),
      file: null,
      errors: {},
      progress: null,
    })),
    reset: assign({
      mode: 'create' as const,
      original: null,
      fields: EMPTY,
      opened: EMPTY,
      file: null,
      errors: {},
      progress: null,
    }),
    setField: assign({
      fields: ({ context }, params: { field: TextField; value: string }) => ({
        ...context.fields,
        [params.field]: params.value,
      }),
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
  },
  guards: {
    isValid: ({ context }) => firstError(editorErrors(context)) === undefined,
    isChanged: ({ context }) => isChanged(context),
    isImageFile: (_, params: { file: File | null }) => !params.file || /^image\//.test(params.file.type),
  },
}).createMachine({
  id: 'blogEditor',
  initial: 'closed',
  context: {
    mode: 'create',
    original: null,
    fields: EMPTY,
    opened: EMPTY,
    file: null,
    errors: {},
    progress: null,
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
            actions: { type: 'openCreate', params: ({ event }) => ({ today: event.today }) },
          },
        ],
      },
    },
    editing: {
      initial: 'clean',
      on: {
        'field.change': {
          actions: { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        'publish.change': {
          actions: { type: 'setPublish', params: ({ event }) => ({ publish: event.publish }) },
        },
        'image.choose': [
          {
            guard: { type: 'isImageFile', params: ({ event }) => ({ file: event.file }) },
            actions: { type: 'setFile', params: ({ event }) => ({ file: event.file }) },
          },
          {
            target: '.invalid',
            reenter: true,
            actions: [
              { type: 'setFile', params: { file: null } },
              {
                type: 'showErrors',
                params: ({ context }) => ({
                  errors: { ...context.errors, featured_image: 'Please upload a valid image file' },
                }),
              },
            ],
          },
        ],
        'image.clear': { actions: 'clearImage' },
        'editor.submit': [
          { guard: 'isValid', target: 'submitting', actions: 'clearErrors' },
          {
            target: '.invalid',
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
        'editor.cancel': { target: 'closed', actions: 'reset' },
        'editor.dismiss': [
          { guard: 'isChanged', target: 'confirmingDiscard' },
          { target: 'closed', actions: 'reset' },
        ],
      },
      states: {
        clean: {},
        invalid: {
          after: { errorDisplay: { target: 'clean', actions: 'clearErrors' } },
        },
      },
    },
    /** 'Discard what you typed?' over the form, after a backdrop click or Escape with changes. */
    confirmingDiscard: {
      on: {
        'discard.confirm': { target: 'closed', actions: 'reset' },
        'discard.cancel': 'editing',
        'editor.dismiss': 'editing',
        'editor.cancel': { target: 'closed', actions: 'reset' },
      },
    },
    submitting: {
      entry: 'startProgress',
      exit: 'stopProgress',
      invoke: {
        id: 'saveBlogPost',
        src: 'saveBlogPost',
        input: ({ context }) => saveInput(context),
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
            'reset',
          ],
        },
        'save.failed': [
          {
            // the server named fields (400, 413, 415): show them like the dialog's own messages
            guard: ({ event }) => firstError(serverErrors(event.error)) !== undefined,
            target: 'editing.invalid',
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
  },
});
