import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { SnapshotFrom } from 'xstate';
import type { SiteSearchAnswer, SiteSearchResult, SnippetPart } from '../../../contract/site-search';
import type { siteSearchMachine } from '../../machines/site-search.machine';
import { LANGUAGES, localPath } from '../../i18n/languages';
import s from './search-results.module.css';

/**
 * What the site search found (docs/decisions/040-site-search-screens.md), drawn the same on the
 * /search page and in the header's dialog: the results grouped as pages, posts and openings, each
 * with its title, a snippet with the searched words marked, and its language; how many matched;
 * the other languages with results; and, when nothing matched, the blog and the careers page.
 *
 * The page lists links (it works without JavaScript). The dialog is a combobox: its results are
 * options of one listbox (`asOptions`), the highlighted one is `active`, and choosing one is the
 * dialog's (`onChoose`): an option holds no link, as ARIA wants.
 */

const languageName = (code: string) => LANGUAGES.find((l) => l.code === code)?.label ?? code;

/** The address of the same search in another language's results. */
export const searchAddress = (q: string, lang?: string) =>
  `/search?${new URLSearchParams(lang ? { q, lang } : { q }).toString()}`;

export const resultCount = (answer: SiteSearchAnswer) => answer.groups.reduce((sum, g) => sum + g.matches, 0);

export function Snippet({ parts }: { parts: SnippetPart[] }) {
  return <>{parts.map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</>;
}

function ResultBody({ result, pageLang }: { result: SiteSearchResult; pageLang: string }) {
  return (
    <>
      <span className={s.title}>{result.title}</span>
      {result.snippet.length > 0 && (
        <span className={s.snippet}>
          <Snippet parts={result.snippet} />
        </span>
      )}
      {result.lang !== pageLang && (
        <span className={s.lang} lang={result.lang}>
          {languageName(result.lang)}
        </span>
      )}
    </>
  );
}

export interface SearchResultsProps {
  answer: SiteSearchAnswer;
  /** The page's language: a result in another is marked with its language. */
  pageLang: string;
  /** The dialog's listbox: the id of its options, the highlighted one, and choosing one. */
  asOptions?: {
    listboxId: string;
    optionId: (index: number) => string;
    active: number;
    onChoose: (r: SiteSearchResult) => void;
  };
  /** A link followed (the dialog closes). */
  onLeave?: () => void;
}

export function SearchResults({ answer, pageLang, asOptions, onLeave }: SearchResultsProps) {
  // a listbox's groups hold options only: there the group's name is plain text that labels it
  const Heading = asOptions ? 'div' : 'h2';
  const { t } = useTranslation('search');
  const total = resultCount(answer);
  let index = 0;
  return (
    <div className={s.results}>
      {total === 0 ? (
        <div className={s.empty}>
          <p className={s.emptyTitle}>{t('none', { q: answer.q })}</p>
          <p>{t('noneHint')}</p>
          <ul className={s.browse}>
            <li>
              <Link to="/blog" onClick={onLeave}>
                {t('browseBlog')}
              </Link>
            </li>
            <li>
              <Link to="/careers" onClick={onLeave}>
                {t('browseCareers')}
              </Link>
            </li>
          </ul>
        </div>
      ) : (
        <div
          className={s.groups}
          {...(asOptions
            ? { role: 'listbox', id: asOptions.listboxId, 'aria-label': t('resultsLabel') }
            : {})}
        >
          {answer.groups.map((group) => {
            const headingId = `${asOptions?.listboxId ?? 'search'}-${group.kind}`;
            return (
              <section
                key={group.kind}
                className={s.group}
                aria-labelledby={headingId}
                {...(asOptions ? { role: 'group' } : {})}
              >
                <Heading id={headingId} className={s.groupHeading}>
                  {t(`kinds.${group.kind}`)}
                  <span className={s.groupCount}>
                    {group.matches > group.results.length
                      ? t('shownOf', { shown: group.results.length, count: group.matches })
                      : group.matches}
                  </span>
                </Heading>
                {asOptions ? (
                  group.results.map((r) => {
                    const i = index++;
                    return (
                      <div
                        key={r.url + r.lang}
                        id={asOptions.optionId(i)}
                        role="option"
                        aria-selected={asOptions.active === i}
                        className={s.item}
                        data-active={asOptions.active === i}
                        onClick={() => asOptions.onChoose(r)}
                      >
                        <ResultBody result={r} pageLang={pageLang} />
                      </div>
                    );
                  })
                ) : (
                  <ul className={s.list}>
                    {group.results.map((r) => (
                      <li key={r.url + r.lang}>
                        <Link to={r.url} className={s.item} onClick={onLeave}>
                          <ResultBody result={r} pageLang={pageLang} />
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </div>
      )}
      {answer.elsewhere.length > 0 && (
        <p className={s.elsewhere}>
          {t('elsewhere')}{' '}
          {answer.elsewhere.map((e, i) => (
            <span key={e.lang}>
              {i > 0 && ', '}
              {/* the search on that language's own page (docs/decisions/041-language-addresses.md) */}
              <a href={localPath(e.lang, searchAddress(answer.q))} lang={e.lang} hrefLang={e.lang}>
                {languageName(e.lang)} ({e.matches})
              </a>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}

type SearchSnapshot = SnapshotFrom<typeof siteSearchMachine>;

/** The field's frame and its text box's look, the same on the page and in the dialog. */
export const fieldClass = s.field;
export const inputClass = s.input;

/** The line a screen reader announces: searching, or how many matched. */
export function SearchCount({ snapshot }: { snapshot: SearchSnapshot }) {
  const { t } = useTranslation('search');
  const { answer } = snapshot.context;
  return (
    <p role="status" className={s.status}>
      {snapshot.matches('searching') || snapshot.matches('searchingKept')
        ? t('searching')
        : snapshot.matches('showing') && answer && answer.q !== ''
          ? t('count', { count: resultCount(answer) })
          : ''}
    </p>
  );
}

/** What the search says besides its results: the saved copy offline, a failure, what to type. */
export function SearchNotices({ snapshot, onRetry }: { snapshot: SearchSnapshot; onRetry: () => void }) {
  const { t } = useTranslation('search');
  return (
    <>
      {snapshot.context.fromKept && snapshot.matches('showing') && <p className={s.kept}>{t('fromKept')}</p>}
      {snapshot.matches('failed') && (
        <p className={s.failed} role="alert">
          {t('failed')}{' '}
          <button type="button" className={s.retry} onClick={onRetry}>
            {t('retry')}
          </button>
        </p>
      )}
      {snapshot.matches('idle') && <p className={s.hint}>{t('hint')}</p>}
    </>
  );
}
