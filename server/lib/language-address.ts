import type { IncomingMessage } from 'node:http';
import { DEFAULT_LANG, isLang, splitLangPath, type Lang } from '../../contract/languages';

/**
 * The language in a public page's address (docs/decisions/041-language-addresses.md): `/de/pricing`
 * is the page `/pricing` in German. Fastify's `rewriteUrl` takes the language off before routing,
 * so every page route (prerendered pages, the blog, careers, pricing, search) serves every
 * language at one route, and the page handler reads the language back from the request.
 * `/en/...` is rewritten too and answered with a 301 to the unprefixed address: English has no
 * prefix. The API, the back office, media and files never carry a language.
 */

const ADDRESS_LANG = Symbol('manna.addressLang');
const EN_PREFIXED = Symbol('manna.enPrefixed');

type Marked = IncomingMessage & { [ADDRESS_LANG]?: Lang; [EN_PREFIXED]?: boolean };

/** Addresses that are never a page in a language. */
const NOT_PAGES = /^\/(api|admin|media|assets|icons)(\/|$)|\/[^/]+\.[A-Za-z0-9]+$/;

/** For Fastify's `rewriteUrl`: the address without its language, the language kept on the request. */
export function rewriteLanguageAddress(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const q = url.search(/[?#]/);
  const pathname = q === -1 ? url : url.slice(0, q);
  const rest = q === -1 ? '' : url.slice(q);
  const en = /^\/en(\/.*)?$/i.exec(pathname);
  if (en) {
    if (NOT_PAGES.test(en[1] ?? '/')) return url;
    (request as Marked)[EN_PREFIXED] = true;
    return (en[1] || '/') + rest;
  }
  const { lang, path } = splitLangPath(pathname);
  if (lang === DEFAULT_LANG || NOT_PAGES.test(path)) return url;
  (request as Marked)[ADDRESS_LANG] = lang;
  return path + rest;
}

/** The language of the page asked for: its address's; English for an unprefixed address. */
export function addressLanguage(request: IncomingMessage): Lang {
  const lang = (request as Marked)[ADDRESS_LANG];
  return isLang(lang) ? lang : DEFAULT_LANG;
}

/** The request came as `/en/...`: it is answered with a 301 to its unprefixed address. */
export const cameWithEnglishPrefix = (request: IncomingMessage) => (request as Marked)[EN_PREFIXED] === true;
