import { fromPromise } from 'xstate';
import { uploadTextImage } from '../../../api/blog-admin';
import type { BlogTextImage } from '../../../../contract/blog-form';
import { textImageMachine } from '../../../machines/text-image.machine';

/**
 * The image panel of the blog editor with its live effects: the upload (stopped when the panel is
 * cancelled) and the insertion into the text (`insert`, the editor's own).
 */
export const textImageLive = (insert: (image: BlogTextImage, alt: string) => void) =>
  textImageMachine.provide({
    actors: {
      uploadImage: fromPromise(({ input, signal }) => uploadTextImage(input.file, { signal })),
    },
    actions: {
      insertImage: (_, { image, alt }) => insert(image, alt),
    },
  });
