import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isLang, rememberLanguage, type Lang } from './languages-client';
import { localPath, splitLangPath } from './languages';

/**
 * The current language and a way to change it. A public page's language is its address's
 * (docs/decisions/041-language-addresses.md): choosing another goes to the same page's address
 * in that language, and remembers the choice (the cookie), which sends a later visit of `/` to
 * that language's home. The back office, whose addresses have no language, changes in place.
 */
export function useLanguage(): [Lang, (lang: string) => void] {
  const { i18n } = useTranslation();
  const current = isLang(i18n.language) ? i18n.language : 'en';
  const change = useCallback(
    (lang: string) => {
      if (!isLang(lang)) return;
      rememberLanguage(lang);
      const { pathname, search, hash } = window.location;
      if (/^\/admin(\/|$)/.test(pathname)) {
        void i18n.changeLanguage(lang);
        return;
      }
      window.location.assign(localPath(lang, splitLangPath(pathname).path) + search + hash);
    },
    [i18n],
  );
  return [current, change];
}
