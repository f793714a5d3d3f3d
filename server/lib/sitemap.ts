import type { FastifyInstance } from 'fastify';
import { localPath, type Lang } from '../../contract/languages';

/**
 * The sitemap's registry (GET /sitemap.xml in routes/seo.ts). The static public pages come from
 * the build's pages manifest; any other area adds its own addresses with a named source, at the
 * top level of its route module:
 *
 *   addSitemapSource('blog', async (app) =>
 *     (await listPublishedSlugs(app.db)).map((p) => ({ path: `/blog/${p.slug}`, lastmod: p.updated_at })));
 *
 * A source runs on every sitemap request with the app that serves it, so it reads that app's
 * database. A source that throws is logged and left out; the rest of the sitemap still answers.
 */
export interface SitemapEntry {
  /** Site-relative address starting with '/', e.g. '/blog/first-post'. */
  path: string;
  /** Last change, ISO 8601 (a date or a date-time). */
  lastmod?: string;
}

export type SitemapSource = (app: FastifyInstance) => Promise<SitemapEntry[]> | SitemapEntry[];

const sources = new Map<string, SitemapSource>();

/** Adds (or, under the same name, replaces) a source of sitemap addresses. */
export function addSitemapSource(name: string, source: SitemapSource): void {
  sources.set(name, source);
}

/** Removes a source (tests). */
export function removeSitemapSource(name: string): void {
  sources.delete(name);
}

export function sitemapSources(): [string, SitemapSource][] {
  return [...sources.entries()];
}

const escapeXml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/**
 * One language's sitemap (docs/decisions/041-language-addresses.md): each entry at its address in
 * `lang`, with the same page in every language and English as the x-default as `xhtml:link`
 * alternates (Google's way for a multilingual site); absolute addresses on `publicUrl`,
 * duplicates dropped.
 */
export function sitemapXml(
  publicUrl: string,
  entries: SitemapEntry[],
  lang: Lang = 'en',
  languages: Lang[] = [lang],
): string {
  const seen = new Set<string>();
  const urls: string[] = [];
  const at = (l: Lang, entryPath: string) => {
    const local = localPath(l, entryPath);
    return `${publicUrl}${local === '/' ? '/' : encodeURI(local)}`;
  };
  for (const entry of entries) {
    if (!entry.path.startsWith('/') || entry.path.startsWith('//')) continue;
    const loc = at(lang, entry.path);
    if (seen.has(loc)) continue;
    seen.add(loc);
    const lastmod = entry.lastmod && !Number.isNaN(Date.parse(entry.lastmod)) ? entry.lastmod : undefined;
    const alternates =
      languages.length > 1
        ? [...languages.map((l) => [l, at(l, entry.path)]), ['x-default', at('en', entry.path)]]
            .map(
              ([l, href]) => `\n    <xhtml:link rel="alternate" hreflang="${l}" href="${escapeXml(href!)}"/>`,
            )
            .join('')
        : '';
    urls.push(
      `  <url>\n    <loc>${escapeXml(loc)}</loc>${lastmod ? `\n    <lastmod>${escapeXml(lastmod)}</lastmod>` : ''}${alternates}\n  </url>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

/** `/sitemap.xml`: the index of the languages' sitemaps (`/sitemap-de.xml`), each within the 50,000 addresses a sitemap may hold. */
export function sitemapIndexXml(publicUrl: string, languages: Lang[]): string {
  const maps = languages.map(
    (l) => `  <sitemap>\n    <loc>${escapeXml(`${publicUrl}/sitemap-${l}.xml`)}</loc>\n  </sitemap>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${maps.join('\n')}\n</sitemapindex>\n`;
}
