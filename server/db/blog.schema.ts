import type { Generated } from 'kysely';
import type { BlogStatus } from '../../contract/blog';

/**
 * Tables of the blog (migrations 0500-0599). `Database` in schema.ts extends this interface.
 * Timestamps are ISO 8601 strings in UTC.
 */
export interface BlogPostTable {
  blog_id: Generated<number>;
  /** Always 2 for now; kept so the shape matches the spec's calls. */
  company_id: number;
  title: string;
  /** The permalink `/blog/{slug}`: unique, made from the title, kept once the post is public. */
  slug: string;
  excerpt: string;
  /** Rich text (HTML, sanitised when stored). */
  content: string;
  /** Plain text of the content, for the full-text index (kept by blog.repo.ts). */
  search_text: string;
  /** The spec's text, 'August 6, 2025'. */
  publication_date: string;
  /** The same day as 'YYYY-MM-DD', for sorting. */
  publication_day: string;
  read_time: string;
  /** An http(s) address, or the storage key of an uploaded image (stored_file, kind 'blog-image'). */
  featured_image_url: string;
  status: BlogStatus;
  /** When a Scheduled post goes public (ISO 8601, UTC); null for Draft and Published (migration 2100). */
  publish_at: string | null;
  /** The cover's alt text: required when a cover is set. */
  cover_alt: Generated<string>;
  /** Search and social fields; empty means the post's own (title, excerpt, cover, permalink). */
  meta_title: Generated<string>;
  meta_description: Generated<string>;
  social_image_url: Generated<string>;
  canonical_url: Generated<string>;
  /** The post's tags as written, ', ' between them (migration 2200); one blog_post_tag row each. */
  tags: Generated<string>;
  /** The author (an admin_user); null for posts from before authors, or a deleted account (migration 2300). */
  author_id: number | null;
  created_at: string;
  updated_at: string;
  /** 1 when created, one more at each change (the conflict check, docs/decisions/022). */
  version: Generated<number>;
  /** When it last went public (ISO 8601, UTC; migration 2930); null while it is not public. */
  published_at: Generated<string | null>;
}

/** An address a published post had before its slug was edited: 301 to the post's address now. */
export interface BlogSlugRedirectTable {
  old_slug: string;
  blog_id: number;
  created_at: string;
}

/** A tag of a post, with its address `/blog/tag/{tag_slug}` (migration 2200). */
export interface BlogPostTagTable {
  blog_id: number;
  tag_slug: string;
  tag_name: string;
}

/**
 * The generation of a post's share links (migration 2910): a link names the generation it was made
 * in and works while it is current; revoking, or unpublishing, starts the next. No row: 0.
 */
export interface BlogPostShareTable {
  blog_id: number;
  nonce: number;
}

/** A cover at one of the widths its srcset names: the stored WebP file (migration 2920). */
export interface CoverWidthTable {
  cover_key: string;
  width: number;
  file_key: string;
}

export interface BlogTables {
  blog_post_share: BlogPostShareTable;
  cover_width: CoverWidthTable;
  blog_post_tag: BlogPostTagTable;
  blog_post: BlogPostTable;
  blog_slug_redirect: BlogSlugRedirectTable;
}
