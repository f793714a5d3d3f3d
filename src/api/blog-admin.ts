import { adminWrite, fetchJson } from './client';
import { BlogAuthors, BlogPreviewLink, BlogTags, type BlogAuthor, type BlogTag } from './contract/blog-form';

/**
 * The blog editor's own calls (the back office only; the posts' list and saves are blog.ts):
 * the choices it offers and a share preview's address.
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
