/**
 * The languages of the site, by code: the one list the pages, the forms' `lang` field and the
 * mail templates share (src/i18n/languages.ts adds each one's own name for the language menu).
 */
export const LANG_CODES = ['en', 'ml', 'fr', 'de', 'es'] as const;
export type Lang = (typeof LANG_CODES)[number];

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANG_CODES as readonly string[]).includes(value);
}

/**
 * Every public page has an address per language (docs/decisions/041-language-addresses.md):
 * English, the x-default, at the unprefixed address (`/pricing`), the others under their code
 * (`/de/pricing`, the German home `/de`). The page's language is its address's.
 */
export const DEFAULT_LANG: Lang = 'en';

/** The address prefix of a language: '' for English, '/de' for German. */
export const langPrefix = (lang: Lang): string => (lang === DEFAULT_LANG ? '' : `/${lang}`);

/** A page's address (`path` as English has it, starting with '/') in a language: '/de/pricing', '/de'. */
export function localPath(lang: Lang, path: string): string {
  const prefix = langPrefix(lang);
  if (!prefix) return path;
  return path === '/'
    ? prefix
    : path.startsWith('/?') || path.startsWith('/#')
      ? prefix + path.slice(1)
      : prefix + path;
}

/**
 * The language of an address and the page's path without the language: '/de/pricing' ->
 * { lang: 'de', path: '/pricing' }; '/de' -> { lang: 'de', path: '/' }; '/pricing' -> English.
 * Only the site's other languages are prefixes (`/en/...` is not a language address).
 */
export function splitLangPath(pathname: string): { lang: Lang; path: string } {
  const match = /^\/([a-z]{2})(\/.*)?$/.exec(pathname);
  if (match && isLang(match[1]) && match[1] !== DEFAULT_LANG)
    return { lang: match[1], path: match[2] || '/' };
  return { lang: DEFAULT_LANG, path: pathname };
}
