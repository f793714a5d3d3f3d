import MiniSearch from 'minisearch';
import {
  SEARCH_KINDS,
  SEARCH_PER_KIND,
  type SearchKind,
  type SiteSearchAnswer,
} from '../../contract/site-search';
import { isLang, splitLangPath, type Lang } from '../../contract/languages';
import { BlogPostRows } from '../../contract/blog';
import { JobOpeningRows, jobPath } from '../../contract/jobs';
import { foldAccents, pageWords, snippetParts } from '../../contract/search-words';
import { htmlToText } from '../../contract/rich-text';
import { readCopies } from './cache';
import { PAGES_CACHE_PREFIX } from './cache-names';

/**
 * The site search without the server (docs/decisions/040-site-search-screens.md): an index
 * (minisearch) of what this device can show offline, built when the server cannot be reached,
 * from where those copies are kept: the public pages the service worker holds (precached, and the
 * ones visited in the visitor's language), and the posts and openings kept in IndexedDB
 * (kept-blog.ts, kept-openings.ts). Its answer has the server's shape; the words are read by the
 * same rules (contract/search-words.ts). Built again when older than `FRESH_MS`.
 */

interface Doc {
  id: string;
  kind: SearchKind;
  lang: Lang;
  url: string;
  title: string;
  body: string;
}

const FRESH_MS = 30_000;
const PRECACHE_PREFIX = 'workbox-precache';
/** Lists whose records are their own documents, and pages that are no content. */
const SKIPPED = /^\/(blog|careers|search|offline|admin)(\/|$)/;

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
/** A kept HTML page's words, read as the server reads the build's pages; not a page that asks not to be indexed. */
export function pageDoc(path: string, html: string): Doc | null {
  const lang = /<html\b[^>]*\blang="([^"]+)"/i.exec(html)?.[1];
  if (!isLang(lang) || /<meta name="robots" content="[^"]*noindex/i.test(html)) return null;
  const words = pageWords(html);
  return (
    words && {
      id: `page ${path} ${lang}`,
      kind: 'page',
      lang,
      url: path,
      title: words.title,
      body: words.text,
    }
  );
}

async function keptPages(): Promise<Doc[]> {
  if (typeof caches === 'undefined') return [];
  const docs: Doc[] = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith(PRECACHE_PREFIX) && !name.startsWith(PAGES_CACHE_PREFIX)) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      // a page's address without its language: results are linked in the page's language
      const pathname = splitLangPath(new URL(request.url).pathname).path;
      if (SKIPPED.test(pathname) || /\.[A-Za-z0-9]+$/.test(pathname)) continue;
      const response = await cache.match(request);
      if (!response || !(response.headers.get('content-type') ?? '').includes('text/html')) continue;
      const doc = pageDoc(pathname, await response.text());
      if (doc) docs.push(doc);
    }
  }
  return docs;
}

async function keptRecords(): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (const copy of await readCopies('blog')) {
    const rows = BlogPostRows.safeParse(copy.value);
    if (!copy.key.startsWith('post-') || !rows.success) continue;
    for (const post of rows.data) {
      if (!post.slug) continue;
      const body = [post.excerpt, htmlToText(post.content), post.tags ?? '', post.author_name ?? ''].join(
        '\n',
      );
      docs.push({
        id: `post ${post.blog_id}`,
        kind: 'post',
        lang: 'en',
        url: `/blog/${encodeURIComponent(post.slug)}`,
        title: post.title,
        body,
      });
    }
  }
  for (const copy of await readCopies('jobs')) {
    const rows = JobOpeningRows.safeParse(copy.value);
    if (!copy.key.startsWith('opening-') || !rows.success) continue;
    for (const job of rows.data) {
      const texts = [job.about_role, job.description, job.responsibility, job.requirement].map((t) =>
        htmlToText(t ?? ''),
      );
      docs.push({
        id: `opening ${job.job_id}`,
        kind: 'opening',
        lang: 'en',
        url: jobPath(job),
        title: job.job_title,
        body: [job.department, job.location, ...texts].filter(Boolean).join('\n'),
      });
    }
  }
  return docs;
}

let built: { at: number; index: MiniSearch<Doc> } | null = null;

async function keptIndex(): Promise<MiniSearch<Doc>> {
  if (built && Date.now() - built.at < FRESH_MS) return built.index;
  const index = new MiniSearch<Doc>({
    fields: ['title', 'body'],
    storeFields: ['kind', 'lang', 'url', 'title', 'body'],
    tokenize: wordsOf,
    processTerm: (term) => foldAccents(term.toLowerCase()),
    searchOptions: { prefix: true, combineWith: 'AND', boost: { title: 3 } },
  });
  const docs = new Map<string, Doc>();
  // a page kept in the visitor's language and its precached English copy are two documents
  for (const doc of [...(await keptPages()), ...(await keptRecords().catch(() => []))]) docs.set(doc.id, doc);
  index.addAll([...docs.values()]);
  built = { at: Date.now(), index };
  return index;
}

/** Searches what this device keeps, as the server would: `lang` first, the other languages counted. */
export async function searchKept({ q, lang }: { q: string; lang: Lang }): Promise<SiteSearchAnswer> {
  const hits = (await keptIndex()).search(q) as unknown as (Doc & { score: number })[];
  const mine = hits.filter((h) => h.lang === lang);
  const elsewhere = new Map<Lang, number>();
  for (const h of hits) if (h.lang !== lang) elsewhere.set(h.lang, (elsewhere.get(h.lang) ?? 0) + 1);
  return {
    q,
    lang,
    groups: SEARCH_KINDS.map((kind) => {
      const ofKind = mine.filter((h) => h.kind === kind);
      return {
        kind,
        matches: ofKind.length,
        results: ofKind.slice(0, SEARCH_PER_KIND).map((h) => ({
          kind,
          title: h.title,
          url: h.url,
          lang: h.lang,
          snippet: snippetParts(h.body, q),
        })),
      };
    }).filter((g) => g.matches > 0),
    elsewhere: [...elsewhere].map(([l, matches]) => ({ lang: l, matches })),
  };
}
