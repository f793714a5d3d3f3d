import { LANG_CODES } from '../../contract/languages';
import { jobPath, OPEN } from '../../contract/jobs';
import { PUBLISHED } from '../../contract/blog';
import { htmlToText } from '../../contract/rich-text';
import {
  SEARCH_KINDS,
  SEARCH_PER_KIND,
  type SiteSearchAnswer,
  type SiteSearchQuery,
} from '../../contract/site-search';
import { getPost, publishedVersions } from '../db/blog.repo';
import { getOpening, openingUpdatedAt, openOpeningLinks } from '../db/jobs.repo';
import * as repo from '../db/site-search.repo';
import type { SearchDoc } from '../db/site-search.repo';
import { snippetParts } from '../../contract/search-words';
import { permalinkPath } from './blog';
import type { ServiceContext } from './context';

/**
 * The site's one search (docs/decisions/039-site-search.md). What a visitor may read is indexed,
 * in each language it is written in, and nothing else: a published post (title, excerpt, text,
 * tags, author), an open opening (title, department, location, its texts) and the public pages'
 * words as the build rendered them. A post or opening is indexed again as soon as it changes (the
 * domain events' listener calls `indexPost` / `indexOpening`) and removed the moment it is no
 * longer public; `syncRecords` catches up at start with what changed while no process listened.
 *
 * Posts and openings have one language today: they are indexed in English.
 */

const RECORD_LANG = 'en';

/** A post's document, or null when it is not public. */
async function postDoc(ctx: ServiceContext, blogId: number): Promise<SearchDoc | null> {
  const post = await getPost(ctx.db, blogId);
  if (!post || post.status !== PUBLISHED) return null;
  return {
    kind: 'post',
    ref: String(blogId),
    lang: RECORD_LANG,
    url: permalinkPath(post.slug),
    title: post.title,
    body: [post.excerpt, post.search_text, post.tags, post.author_name ?? ''].filter(Boolean).join('\n'),
    updated_at: post.updated_at,
  };
}

/** An opening's document, or null when it is not open. */
async function openingDoc(ctx: ServiceContext, jobId: number): Promise<SearchDoc | null> {
  const job = await getOpening(ctx.db, jobId);
  const updatedAt = job?.status === OPEN ? await openingUpdatedAt(ctx.db, jobId) : undefined;
  if (!job || updatedAt === undefined) return null;
  return {
    kind: 'opening',
    ref: String(jobId),
    lang: RECORD_LANG,
    url: jobPath(job),
    title: job.job_title,
    body: [
      job.department,
      job.location,
      ...[job.about_role, job.description, job.responsibility, job.requirement].map(htmlToText),
    ]
      .filter(Boolean)
      .join('\n'),
    updated_at: updatedAt,
  };
}

/** Indexes a post as it is now: found while published, gone otherwise. */
export async function indexPost(ctx: ServiceContext, blogId: number): Promise<void> {
  const doc = await postDoc(ctx, blogId);
  if (doc) await repo.putDoc(ctx.db, doc);
  else await repo.removeDocs(ctx.db, 'post', String(blogId));
}

/** Indexes an opening as it is now: found while open, gone otherwise. */
export async function indexOpening(ctx: ServiceContext, jobId: number): Promise<void> {
  const doc = await openingDoc(ctx, jobId);
  if (doc) await repo.putDoc(ctx.db, doc);
  else await repo.removeDocs(ctx.db, 'opening', String(jobId));
}

/**
 * Brings the posts' and openings' documents in step with the records (at start: changes made
 * while no process listened, and the first indexing after the table was made), until `stopped()`
 * says the process is closing. Returns how many documents were written or removed.
 */
export async function syncRecords(
  ctx: ServiceContext,
  stopped: () => boolean = () => false,
): Promise<number> {
  let changed = 0;
  const sync = async (
    kind: 'post' | 'opening',
    current: { id: number; updated_at: string }[],
    index: (id: number) => Promise<void>,
  ) => {
    const indexed = new Map((await repo.docVersions(ctx.db, kind)).map((d) => [d.ref, d.updated_at]));
    for (const { id, updated_at } of current) {
      if (stopped()) return; // the process is closing: the next start goes on
      if (indexed.get(String(id)) !== updated_at) {
        await index(id);
        changed++;
      }
      indexed.delete(String(id));
    }
    for (const ref of indexed.keys()) {
      if (stopped()) return;
      await repo.removeDocs(ctx.db, kind, ref);
      changed++;
    }
  };
  await sync(
    'post',
    (await publishedVersions(ctx.db)).map((p) => ({ id: p.blog_id, updated_at: p.updated_at })),
    (id) => indexPost(ctx, id),
  );
  await sync(
    'opening',
    (await openOpeningLinks(ctx.db, 1_000_000)).map((j) => ({ id: j.job_id, updated_at: j.updated_at })),
    (id) => indexOpening(ctx, id),
  );
  return changed;
}

/** A public page's words in one language, as the build rendered it. */
export interface PageWords {
  path: string;
  lang: string;
  url: string;
  title: string;
  text: string;
  /** The build's id: a new build indexes its pages again. */
  version: string;
}

/** Indexes the public pages' words (a new build's), and removes pages the build no longer has. */
export async function indexPages(ctx: ServiceContext, pages: PageWords[]): Promise<void> {
  const indexed = new Map(
    (await repo.docVersions(ctx.db, 'page')).map((d) => [`${d.ref} ${d.lang}`, d.updated_at]),
  );
  for (const page of pages) {
    const key = `${page.path} ${page.lang}`;
    if (indexed.get(key) !== page.version)
      await repo.putDoc(ctx.db, {
        kind: 'page',
        ref: page.path,
        lang: page.lang,
        url: page.url,
        title: page.title,
        body: page.text,
        updated_at: page.version,
      });
    indexed.delete(key);
  }
  for (const key of indexed.keys()) {
    const [path, lang] = key.split(' ');
    await repo.removeDocs(ctx.db, 'page', path!, [lang!]);
  }
}

/** The search box's answer: the best results of each kind in `lang`, and the other languages with some. */
export async function searchSite(ctx: ServiceContext, query: SiteSearchQuery): Promise<SiteSearchAnswer> {
  const { hits, elsewhere } = await repo.searchDocs(ctx.db, query.q, query.lang, SEARCH_PER_KIND);
  const langs = new Set<string>(LANG_CODES);
  return {
    q: query.q,
    lang: query.lang,
    groups: SEARCH_KINDS.map((kind) => {
      const results = hits.filter((h) => h.kind === kind);
      return {
        kind,
        matches: results[0]?.matches ?? 0,
        results: results.map((h) => ({
          kind,
          title: h.title,
          url: h.url,
          lang: query.lang,
          snippet: snippetParts(h.body, query.q),
        })),
      };
    }).filter((g) => g.results.length > 0),
    elsewhere: elsewhere
      .filter((e) => langs.has(e.lang))
      .map((e) => ({ lang: e.lang as SiteSearchAnswer['lang'], matches: e.matches }))
      .sort((a, b) => b.matches - a.matches),
  };
}
