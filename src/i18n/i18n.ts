import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { COMMON_NS, DEFAULT_LANG, LANG_COOKIE, type Lang } from './languages';

export const baseOptions = {
  fallbackLng: DEFAULT_LANG,
  defaultNS: COMMON_NS,
  fallbackNS: COMMON_NS,
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: true },
} as const;

/** Server-render instance with every resource given up front (synchronous). */
export function createStaticI18n(lang: Lang, resources: Resource): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    ...baseOptions,
    lng: lang,
    resources,
    ns: Object.keys(resources[DEFAULT_LANG] ?? {}),
    initAsync: false,
  });
  return instance;
}

/** Persists the choice for reloads and for the server, which sends the page in that language. */
export function rememberLanguage(lang: Lang): void {
  document.cookie = `${LANG_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
  document.documentElement.lang = lang;
}
