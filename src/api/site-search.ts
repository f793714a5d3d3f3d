import { config } from '../config';
import { fetchJson, toQuery } from './client';
import { SiteSearchAnswer } from '../../contract/site-search';
import type { Lang } from '../../contract/languages';

/** GET /api/search?q=&lang=: the site's one search, the page's language first. */
export function searchSite(query: { q: string; lang: Lang }, init?: RequestInit): Promise<SiteSearchAnswer> {
  return fetchJson(SiteSearchAnswer, `${config.websiteApi}/search?${toQuery(query)}`, init);
}
