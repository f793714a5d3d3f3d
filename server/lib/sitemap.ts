import type { FastifyInstance } from 'fastify';

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

/** The sitemap document for these entries (absolute addresses on `publicUrl`, duplicates dropped). */
export function sitemapXml(publicUrl: string, entries: SitemapEntry[]): string {
  const seen = new Set<string>();
  const urls: string[] = [];
  for (const entry of entries) {
    if (!entry.path.startsWith('/') || entry.path.startsWith('//')) continue;
    const loc = `${publicUrl}${entry.path === '/' ? '/' : encodeURI(entry.path)}`;
    if (seen.has(loc)) continue;
    seen.add(loc);
    const lastmod = entry.lastmod && !Number.isNaN(Date.parse(entry.lastmod)) ? entry.lastmod : undefined;
    urls.push(
      `  <url>\n    <loc>${escapeXml(loc)}</loc>${lastmod ? `\n    <lastmod>${escapeXml(lastmod)}</lastmod>` : ''}\n  </url>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}
