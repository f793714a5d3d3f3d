import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { AppProviders } from './app';
import { AppRoutes, preloadRoutes } from './routes/router';
import { createStaticI18n } from './i18n/i18n';
import { staticResources } from './i18n/static-resources';
import { langPrefix, localPath, type Lang } from './i18n/languages';
import { HeadContext, type HeadData } from './components/page-meta';
import { PageDataContext, type PageData } from './components/page-data';

export { PUBLIC_PAGES, NOT_FOUND_PAGE } from './routes/paths';
export { LANGUAGES } from './i18n/languages';
export type { HeadData, PageData };

export interface RenderResult {
  html: string;
  head: HeadData | undefined;
  status: number;
  /** Common-language texts the page shell needs (e.g. the document title fallback). */
  lang: Lang;
}

/**
 * Renders one page (`url` as English addresses it) in one language to HTML, at that language's
 * address (docs/decisions/041-language-addresses.md: the router's basename is the language's
 * prefix, so every link of the page stays in its language). Used by the prerender step and by the
 * server. `data` is what a page rendered on request needs (a blog post), given to it by
 * PageDataContext.
 */
export async function render(url: string, lang: Lang, data?: PageData): Promise<RenderResult> {
  await preloadRoutes(new URL(url, 'http://localhost').pathname);
  const i18n = createStaticI18n(lang, staticResources);
  let head: HeadData | undefined;
  const html = renderToString(
    <HeadContext.Provider value={(h) => (head = h)}>
      <PageDataContext.Provider value={data ?? null}>
        <AppProviders i18n={i18n}>
          <StaticRouter basename={langPrefix(lang) || undefined} location={localPath(lang, url)}>
            <AppRoutes />
          </StaticRouter>
        </AppProviders>
      </PageDataContext.Provider>
    </HeadContext.Provider>,
  );
  return { html, head, status: 200, lang };
}
