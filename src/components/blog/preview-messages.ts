/**
 * The blog editor and its live preview (routes/blog-preview.tsx) talk with `postMessage`, on this
 * site only: the frame says it is ready, the editor sends the post it holds.
 */
export const LIVE_PREVIEW = 'live';
export const LIVE_PREVIEW_PATH = `/blog/preview/${LIVE_PREVIEW}`;
export const PREVIEW_MESSAGE = 'manna:blog-preview';
export const PREVIEW_READY = 'manna:blog-preview-ready';
