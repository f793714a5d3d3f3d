import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isLang, rememberLanguage, type Lang } from './languages-client';

/** The current language and a way to change it (cookie, <html lang>, resources). */
export function useLanguage(): [Lang, (lang: string) => void] {
  const { i18n } = useTranslation();
  const current = isLang(i18n.language) ? i18n.language : 'en';
  const change = useCallback(
    (lang: string) => {
      if (!isLang(lang)) return;
      rememberLanguage(lang);
      void i18n.changeLanguage(lang);
    },
    [i18n],
  );
  return [current, change];
}
