import {
  DEFAULT_LANG,
  LANG_CODES,
  isLang,
  langPrefix,
  localPath,
  splitLangPath,
  type Lang,
} from '../../contract/languages';

export { DEFAULT_LANG, langPrefix, localPath, splitLangPath };

export { isLang, type Lang };

/** Each language in its own name, for the language menu. */
const LABELS: Record<Lang, string> = {
  en: 'English',
  ml: 'മലയാളം',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
};
export const LANGUAGES = LANG_CODES.map((code) => ({ code, label: LABELS[code] }));

export const LANG_COOKIE = 'lang';
/** Namespaces every page needs: the header, footer and shared words. */
export const COMMON_NS = 'common';

/** Reads the language cookie from a Cookie header or document.cookie. */
export function langFromCookie(cookie: string | undefined | null): Lang {
  const match = /(?:^|;\s*)lang=([a-z]{2})(?:;|$)/.exec(cookie ?? '');
  return match && isLang(match[1]) ? match[1] : DEFAULT_LANG;
}
