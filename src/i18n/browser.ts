import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { COMMON_NS, DEFAULT_LANG, type Lang } from './languages';
import { baseOptions } from './i18n';

type Loader = () => Promise<{ default: Record<string, unknown> }>;
// One file per language and namespace; each is its own chunk, loaded only when needed. The mail
// texts (mail.json) are the server's: no page loads them.
const loaders = import.meta.glob(['./locales/*/*.json', '!./locales/*/mail.json']) as Record<string, Loader>;

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = loaders[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (mod) => callback(null, mod.default),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  },
};

/** Browser instance: resources are fetched per language and namespace on demand. */
export async function createBrowserI18n(lang: Lang, namespaces: string[]): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance
    .use(lazyBackend)
    .use(initReactI18next)
    .init({ ...baseOptions, lng: lang, ns: [COMMON_NS, ...namespaces] });
  // English is the fallback for any key a translation lacks.
  if (lang !== DEFAULT_LANG) await instance.loadLanguages(DEFAULT_LANG);
  return instance;
}
