import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import fp from 'fastify-plugin';
import { pageWords } from '../../contract/search-words';
import { systemContext, type ServiceContext } from '../services/context';
import { indexOpening, indexPages, indexPost, syncRecords, type PageWords } from '../services/site-search';

/** Lists whose own records are indexed: their pages would only echo them. */
const LIST_PAGES = new Set(['/blog', '/careers']);

/**
 * The site search's index (docs/decisions/039-site-search.md): `app.siteSearch` indexes a post or
 * an opening again (the listeners call it when one changes); at start, the build's public pages
 * are indexed in each language and the posts and openings brought in step, in the background
 * (`app.siteSearch.started` is that work, for tests and for the log).
 */
export const siteSearch = fp(
  async (app) => {
    const context = (): ServiceContext =>
      systemContext({ db: app.db, config: app.config, storage: app.storage, log: app.log });
    let started: Promise<void> = Promise.resolve();
    let closing = false;
    app.decorate('siteSearch', {
      postChanged: (blogId: number) => indexPost(context(), blogId),
      openingChanged: (jobId: number) => indexOpening(context(), jobId),
      started: () => started,
    });
    app.addHook('onReady', async () => {
      started = (async () => {
        const pages = await builtPageWords(app.config.DIST_DIR, app.pages.manifest);
        if (pages) await indexPages(context(), pages);
        const changed = await syncRecords(context(), () => closing);
        app.log.info({ pages: pages?.length ?? 0, changed }, 'Site search index in step');
      })().catch((err: unknown) => {
        app.log.error(
          { err },
          'Could not bring the site search index in step; changes from now on are indexed',
        );
      });
    });
    // a closing process stops catching up (the next start goes on) and lets the record in hand
    // finish before the database closes
    app.addHook('preClose', () => {
      closing = true;
      return started;
    });
  },
  { name: 'site-search', decorators: { fastify: ['db', 'config', 'storage'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    siteSearch: {
      postChanged(blogId: number): Promise<void>;
      openingChanged(jobId: number): Promise<void>;
      started(): Promise<void>;
    };
  }
}

/**
 * The words of every public page the build rendered, in each language: its <title> (without the
 * site's name) and the text of its <main>. Not the lists whose records are indexed themselves, nor
 * pages that ask not to be indexed. Null without a build.
 */
export async function builtPageWords(
  distDir: string,
  manifest: { routes: Record<string, string>; languages: string[]; noindex: string[] } | null,
): Promise<PageWords[] | null> {
  if (!manifest) return null;
  const pages: PageWords[] = [];
  for (const [address, name] of Object.entries(manifest.routes)) {
    if (LIST_PAGES.has(address) || manifest.noindex.includes(address)) continue;
    for (const lang of manifest.languages) {
      let html: string;
      try {
        html = await fs.readFile(path.join(distDir, 'pages', lang, `${name}.html`), 'utf8');
      } catch {
        continue; // a language the build did not render this page in
      }
      const words = pageWords(html);
      if (!words) continue;
      pages.push({
        path: address,
        lang,
        url: address,
        ...words,
        version: createHash('sha1').update(html).digest('base64url').slice(0, 22),
      });
    }
  }
  return pages;
}
