import { renderRss } from '../lib/rss';
import { sanitizeBlogText } from '../lib/rich-text';
import { pageEtag } from '../lib/page-render';
import { imageUrlOf, latestPublished, latestPublishedWithTag, permalinkPath, type BlogPost } from './blog';
import type { ServiceContext } from './context';

/**
 * The blog's RSS 2.0 feeds (lib/rss.ts): `/blog/rss.xml`, the newest published posts, and
 * `/blog/tag/{tag}/rss.xml`, a tag's. Every address in a feed is absolute (PUBLIC_URL), the
 * text's own images included, since a reader fetches them from elsewhere; the ETag is made of the
 * posts' versions, so a reader's revalidation costs no rendering.
 */

export const FEED_SIZE = 20;
export const FEED_DESCRIPTION = 'Notes on the writing process and historical research from the Manna team.';

export interface BlogFeed {
  etag: string;
  /** The feed's XML (rendered when asked: a 304 needs only the ETag). */
  render(): string;
}

/** The feed of the newest published posts, or of those tagged `tag` (a tag some post has). */
export async function blogFeed(ctx: ServiceContext, tag?: { slug: string; name: string }): Promise<BlogFeed> {
  const posts = tag
    ? await latestPublishedWithTag(ctx, tag.slug, FEED_SIZE)
    : await latestPublished(ctx, FEED_SIZE);
  const publicUrl = ctx.config.PUBLIC_URL;
  const path = tag ? `/blog/tag/${encodeURIComponent(tag.slug)}` : '/blog';
  return {
    etag: pageEtag(posts.map((p) => `${p.blog_id}:${p.updated_at}`).join(',')),
    render: () =>
      renderRss({
        title: tag ? `Manna Blog: ${tag.name}` : 'Manna Blog',
        link: `${publicUrl}${path}`,
        selfLink: `${publicUrl}${path}/rss.xml`,
        description: tag ? `${FEED_DESCRIPTION} Posts tagged “${tag.name}”.` : FEED_DESCRIPTION,
        language: 'en',
        lastBuild: posts
          .map((p) => p.updated_at)
          .sort()
          .at(-1),
        items: posts.map((post) => feedItem(post, publicUrl)),
      }),
  };
}

const absolute = (publicUrl: string, url: string) => (/^https?:\/\//i.test(url) ? url : `${publicUrl}${url}`);

function feedItem(post: BlogPost, publicUrl: string) {
  const image = imageUrlOf(post.featured_image_url);
  return {
    title: post.title,
    link: `${publicUrl}${permalinkPath(post.slug)}`,
    description: post.excerpt,
    // a reader fetches the text's images from this site
    content: sanitizeBlogText(post.content).replace(
      /(?<=\b(?:src|srcset)="[^"]*)\/media\/blog\//g,
      `${publicUrl}/media/blog/`,
    ),
    day: post.publication_day,
    publishedAt: post.published_at,
    imageUrl: image ? absolute(publicUrl, image) : null,
  };
}
