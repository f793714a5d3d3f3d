import { lazy } from 'react';

/**
 * The rich-text editor (quill) as the back office's dialogs load it: its own chunk, fetched when a
 * screen with an editor is shown (`preloadEditor`), not when the dialog first opens, so a dialog
 * opened after the connection dropped still has its editor. A failed fetch is forgotten: the
 * next attempt fetches again.
 */
let loading: Promise<typeof import('../../../components/rich-text-editor')> | null = null;

export function preloadEditor() {
  loading ??= import('../../../components/rich-text-editor').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

export const RichTextEditor = lazy(preloadEditor);
