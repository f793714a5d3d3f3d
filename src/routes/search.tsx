import { useEffect, useId } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useMachine } from '@xstate/react';
import { isLang, type Lang } from '../../contract/languages';
import { PageMeta } from '../components/page-meta';
import { usePageData } from '../components/page-data';
import {
  fieldClass,
  inputClass,
  SearchCount,
  SearchNotices,
  SearchResults,
  searchAddress,
} from '../components/site-search/search-results';
import { liveSiteSearchMachine } from '../components/site-search/site-search.live';
import { SearchIcon } from '../components/icons';
import { useLanguage } from '../i18n/use-language';
import s from './search.module.css';

/**
 * /search?q=: the site's one search as a page (docs/decisions/040-site-search-screens.md). The
 * server renders it with its answer, so it is shareable and works without JavaScript (the form
 * sends `q` to this address); with JavaScript, results follow the typing and the address follows
 * the words (replaced, so Back leaves the page). Never indexed. `?lang=` searches another
 * language first (the "also found in" links).
 */
export default function SearchPage() {
  const [pageLang] = useLanguage();
  const asked = new URLSearchParams(useLocation().search);
  const askedLang = asked.get('lang');
  const lang = isLang(askedLang) ? askedLang : isLang(pageLang) ? pageLang : 'en';
  // another language's results ("also found in") is a search of its own
  return <SearchScreen key={lang} lang={lang} pageLang={pageLang} />;
}

function SearchScreen({ lang, pageLang }: { lang: Lang; pageLang: string }) {
  const { t } = useTranslation('search');
  const data = usePageData();
  const { search } = useLocation();
  const navigate = useNavigate();
  const inputId = useId();
  const asked = new URLSearchParams(search);
  const askedLang = asked.get('lang');
  const q0 = asked.get('q') ?? '';
  // the server's answer when it is this search's (the page's data stays with the first page loaded)
  const rendered = data?.siteSearch;
  const fromServer = rendered && rendered.q === q0 && rendered.lang === lang ? rendered : null;
  const [state, send] = useMachine(liveSiteSearchMachine, { input: { lang, q: q0, answer: fromServer } });
  const { q, answer } = state.context;

  // the address follows the words, without a new history entry for each key
  useEffect(() => {
    if (state.matches('showing') && answer && answer.q !== (asked.get('q') ?? '')) {
      void navigate(searchAddress(answer.q, askedLang ?? undefined), { replace: true });
    }
  }, [state, answer]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <PageMeta title={t('metaTitle')} description={t('metaDescription')} path="/search" noindex />
      <div className={s.inner}>
        <h1 className={s.title}>{t('title')}</h1>
        <form
          role="search"
          action="/search"
          method="get"
          className={s.form}
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'query.change', q });
          }}
        >
          <label htmlFor={inputId} className="visually-hidden">
            {t('label')}
          </label>
          <span className={fieldClass}>
            <SearchIcon size={20} />
            <input
              id={inputId}
              type="search"
              name="q"
              value={q}
              maxLength={200}
              autoComplete="off"
              enterKeyHint="search"
              placeholder={t('placeholder')}
              onChange={(e) => send({ type: 'query.change', q: e.target.value })}
              className={inputClass}
            />
          </span>
          {askedLang && isLang(askedLang) && <input type="hidden" name="lang" value={askedLang} />}
          <button type="submit" className={s.submit}>
            {t('submit')}
          </button>
        </form>

        <SearchCount snapshot={state} />
        <SearchNotices snapshot={state} onRetry={() => send({ type: 'retry' })} />
        {answer && !state.matches('idle') && (
          <div aria-busy={!state.matches('showing')}>
            <SearchResults answer={answer} pageLang={pageLang} />
          </div>
        )}
      </div>
    </main>
  );
}
