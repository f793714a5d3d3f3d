import { assign, fromPromise, setup } from 'xstate';
import { imageFileProblem, type BlogTextImage } from '../../contract/blog-form';
import { BLOG_IMAGE_ALT_MAX } from '../../contract/rich-text-tags';

/**
 * An image put in a post's text (docs/decisions/025-blog-publishing.md): the blog editor's "Image" button, or a picture dropped
 * or pasted into the text, opens a panel that asks for the file and its alt text; the image is
 * uploaded (POST /api/admin/blog-images) and goes in the text where the cursor was, as addresses
 * of this site, never as the image's bytes.
 *
 * - `closed`: `image.open` (with the file dropped or pasted, if any) -> `choosing`.
 * - `choosing`: `image.file` picks a file (refused at once when it is no image or over 5 MB);
 *   `image.alt` types its description; `image.insert` checks both (`fileRequired`,
 *   `altRequired`) and goes to `uploading`; `image.cancel` -> `closed`.
 * - `uploading` (the `uploadImage` actor, given the file): done -> `closed` with `insertImage`
 *   (the addresses and the alt text); failed -> `choosing` with the file and the alt text kept
 *   and why (`uploadError`: the server's refusal of the file, `offline`, or `failed`);
 *   `image.cancel` stops the upload -> `closed`.
 */
export type TextImageError = 'fileRequired' | 'altRequired' | 'notImage' | 'tooLarge' | 'offline' | 'failed';

export interface TextImageContext {
  file: File | null;
  alt: string;
  error: TextImageError | null;
}

export type TextImageEvent =
  | { type: 'image.open'; file?: File }
  | { type: 'image.file'; file: File | null }
  | { type: 'image.alt'; alt: string }
  | { type: 'image.insert' }
  | { type: 'image.cancel' };

/** Alt text longer than this is cut by the sanitisers; the field stops here. */
export const ALT_MAX = BLOG_IMAGE_ALT_MAX;

/** Why an upload failed, from the transport's error (an ApiError: its status and field codes). */
export function uploadError(error: unknown): TextImageError {
  const { status, codes } = (error ?? {}) as { status?: number; codes?: Record<string, string> };
  if (codes?.image === 'imageInvalidFile') return 'notImage';
  if (codes?.image === 'imageTooLarge' || status === 413) return 'tooLarge';
  if (status === 0) return 'offline';
  return 'failed';
}

/** What is wrong with a chosen file before it is sent (the server checks its bytes again). */
export function fileProblem(file: File | null | undefined): TextImageError | null {
  if (!file) return null;
  // the cover's rule: an SVG (a document that can carry script) is no image here either
  const problem = imageFileProblem(file);
  return problem === 'imageInvalidFile' ? 'notImage' : problem === 'imageTooLarge' ? 'tooLarge' : null;
}

const EMPTY: TextImageContext = { file: null, alt: '', error: null };

export const textImageMachine = setup({
  types: {
    context: {} as TextImageContext,
    events: {} as TextImageEvent,
  },
  actors: {
    uploadImage: fromPromise<BlogTextImage, { file: File }>(async () => {
      throw new Error('uploadImage is provided by the screen');
    }),
  },
  actions: {
    start: assign((_, params: { file?: File }) => ({
      ...EMPTY,
      file: params.file ?? null,
      error: fileProblem(params.file),
    })),
    pickFile: assign((_, params: { file: File | null }) => ({
      file: params.file,
      error: fileProblem(params.file),
    })),
    typeAlt: assign(({ context }, params: { alt: string }) => ({
      alt: params.alt.slice(0, ALT_MAX),
      // a problem of the file stays until another file is chosen
      error: fileProblem(context.file),
    })),
    showError: assign((_, params: { error: TextImageError }) => ({ error: params.error })),
    reset: assign(() => EMPTY),
    insertImage: (_, _params: { image: BlogTextImage; alt: string }) => {},
  },
  guards: {
    noFile: ({ context }) => context.file === null,
    badFile: ({ context }) => fileProblem(context.file) !== null,
    noAlt: ({ context }) => context.alt.trim() === '',
  },
}).createMachine({
  id: 'textImage',
  context: EMPTY,
  initial: 'closed',
  states: {
    closed: {
      on: {
        'image.open': {
          target: 'choosing',
          actions: { type: 'start', params: ({ event }) => ({ file: event.file }) },
        },
      },
    },
    choosing: {
      on: {
        'image.file': { actions: { type: 'pickFile', params: ({ event }) => ({ file: event.file }) } },
        'image.alt': { actions: { type: 'typeAlt', params: ({ event }) => ({ alt: event.alt }) } },
        'image.insert': [
          { guard: 'noFile', actions: { type: 'showError', params: { error: 'fileRequired' } } },
          { guard: 'badFile' },
          { guard: 'noAlt', actions: { type: 'showError', params: { error: 'altRequired' } } },
          { target: 'uploading' },
        ],
        'image.cancel': { target: 'closed', actions: 'reset' },
      },
    },
    uploading: {
      invoke: {
        id: 'uploadImage',
        src: 'uploadImage',
        input: ({ context }) => ({ file: context.file! }),
        onDone: {
          target: 'closed',
          actions: [
            {
              type: 'insertImage',
              params: ({ context, event }) => ({ image: event.output, alt: context.alt.trim() }),
            },
            'reset',
          ],
        },
        onError: {
          target: 'choosing',
          actions: { type: 'showError', params: ({ event }) => ({ error: uploadError(event.error) }) },
        },
      },
      on: { 'image.cancel': { target: 'closed', actions: 'reset' } },
    },
  },
});
