/**
 * RSS 2.0 (https://www.rssboard.org/rss-specification) for the blog feed: one channel, one item
 * per post with its permalink as guid, pubDate in RFC 822 form, the excerpt as description and
 * the sanitised content as content:encoded. Every text is XML-escaped and stripped of characters
 * XML 1.0 forbids, so no post can break the feed.
 */

export interface FeedItem {
  title: string;
  link: string;
  description: string;
  /** Sanitised HTML. */
  content: string;
  /** 'YYYY-MM-DD' (publication day, UTC). */
  day: string;
  /** When it went public (ISO 8601): the pubDate's time when it fell on the publication day. */
  publishedAt?: string | null;
  imageUrl?: string | null;
}

export interface Feed {
  title: string;
  link: string;
  selfLink: string;
  description: string;
  language: string;
  /** ISO 8601: when the newest change to any item was made. */
  lastBuild?: string;
  items: FeedItem[];
}

/** Characters XML 1.0 does not allow, and lone surrogates. */
// eslint-disable-next-line no-control-regex -- these are exactly the characters XML forbids
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlText(value: string): string {
  return value
    .replace(INVALID_XML, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/**
 * 'Wed, 06 Aug 2025 14:32:05 GMT': the moment `publishedAt` when it fell on the publication `day`
 * (UTC), else that day's midnight (a post dated another day than it went out, or one without a
 * known moment).
 */
export function rfc822(day: string, publishedAt?: string | null): string {
  const at = publishedAt && publishedAt.slice(0, 10) === day ? publishedAt : `${day}T00:00:00Z`;
  return new Date(at).toUTCString();
}

export function renderRss(feed: Feed): string {
  const items = feed.items
    .map((item) =>
      [
        '    <item>',
        `      <title>${xmlText(item.title)}</title>`,
        `      <link>${xmlText(item.link)}</link>`,
        `      <guid isPermaLink="true">${xmlText(item.link)}</guid>`,
        `      <pubDate>${rfc822(item.day, item.publishedAt)}</pubDate>`,
        `      <description>${xmlText(item.description)}</description>`,
        `      <content:encoded>${xmlText(item.content)}</content:encoded>`,
        item.imageUrl ? `      <media:content url="${xmlText(item.imageUrl)}" medium="image" />` : '',
        '    </item>',
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:media="http://search.yahoo.com/mrss/">',
    '  <channel>',
    `    <title>${xmlText(feed.title)}</title>`,
    `    <link>${xmlText(feed.link)}</link>`,
    `    <description>${xmlText(feed.description)}</description>`,
    `    <language>${xmlText(feed.language)}</language>`,
    `    <atom:link href="${xmlText(feed.selfLink)}" rel="self" type="application/rss+xml" />`,
    feed.lastBuild ? `    <lastBuildDate>${new Date(feed.lastBuild).toUTCString()}</lastBuildDate>` : '',
    items,
    '  </channel>',
    '</rss>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}
