import { adminDelete, adminWrite, CSRF_HEADERS, fetchJson, uploadForm } from './client';
import { MessageAnswer } from '../../contract/auth';
import type { UploadProgress } from '../../contract/upload';
import {
  BlogAuthors,
  BlogPreviewLink,
  BlogTags,
  BlogTextImage,
  type BlogAuthor,
  type BlogTag,
} from '../../contract/blog-form';

/**
 * The blog editor's own calls (the back office only; the posts' list and saves are blog.ts):
 * the choices it offers, a share preview's address, and the images of a post's text.
 */

/** GET /api/admin/blog-authors: staff who may write posts (the editor's author choice). */
export function loadBlogAuthors(init?: RequestInit): Promise<BlogAuthor[]> {
  return fetchJson(BlogAuthors, '/api/admin/blog-authors', init);
}

/** GET /api/admin/blog-tags: the tags in use, most used first (the editor's suggestions). */
export function loadBlogTags(init?: RequestInit): Promise<BlogTag[]> {
  return fetchJson(BlogTags, '/api/admin/blog-tags', init);
}

/** POST /api/admin/blog-posts/:id/preview-link: a share preview of a saved post, valid 7 days. */
export function makePreviewLink(blogId: number): Promise<BlogPreviewLink> {
  return fetchJson(BlogPreviewLink, `/api/admin/blog-posts/${blogId}/preview-link`, adminWrite({}));
}

/** DELETE /api/admin/blog-posts/:id/preview-link: every share link made so far stops working. */
export function revokePreviewLinks(blogId: number): Promise<{ message: string }> {
  return fetchJson(MessageAnswer, `/api/admin/blog-posts/${blogId}/preview-link`, adminDelete());
}

/** POST /api/admin/blog-images: an image for a post's text, stored at up to three widths. */
export function uploadTextImage(
  file: File,
  { onProgress, signal }: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<BlogTextImage> {
  const form = new FormData();
  form.append('image', file, file.name);
  return uploadForm(BlogTextImage, '/api/admin/blog-images', form, {
    headers: { ...CSRF_HEADERS },
    withCredentials: true,
    onProgress,
    signal,
  });
}
