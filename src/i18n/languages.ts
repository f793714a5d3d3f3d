export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'ml', label: 'മലയാളം' },
  { code: 'fr', label: 'Français' },
  { code: 'de', label: 'Deutsch' },
  { code: 'es', label: 'Español' },
] as const;

export type Lang = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANG: Lang = 'en';
export const LANG_COOKIE = 'lang';
/** Namespaces every page needs: the header, footer and shared words. */
export const COMMON_NS = 'common';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && LANGUAGES.some((l) => l.code === value);
}

/** Reads the language cookie from a Cookie header or document.cookie. */
export function langFromCookie(cookie: string | undefined | null): Lang {
  const match = /(?:^|;\s*)lang=([a-z]{2})(?:;|$)/.exec(cookie ?? '');
  return match && isLang(match[1]) ? match[1] : DEFAULT_LANG;
}
