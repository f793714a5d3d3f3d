import { use, useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';
import { LEGAL_PAGES, type LegalPage as LegalPageName } from './paths';
import { isLegalPage, legalDoc, preloadCurrentDoc } from './legal/legal-docs';
import { Markdown, parseMarkdown } from './legal/markdown';
import m from '../components/marketing/marketing.module.css';
import s from './legal.module.css';

preloadCurrentDoc();

/** Privacy, Terms, Cookies, Cancellation & Refund and Shipping policies in one shared layout. */
export default function LegalPage() {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation('legal');
  const slug = pathname.replace(/^\/+|\/+$/g, '');
  const page: LegalPageName = isLegalPage(slug) ? slug : 'privacy-policy';
  const text = use(legalDoc(i18n.language, page));
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  const sections = blocks.filter((b) => b.kind === 'h2');
  const effective = t(`${page}.effective`, { defaultValue: '' });

  return (
    <main id="main" tabIndex={-1}>
      <PageMeta title={t(`${page}.metaTitle`)} description={t(`${page}.metaDescription`)} path={`/${page}`} />
      <header className={s.hero}>
        <div className={m.inner}>
          <p className={m.eyebrow}>{t('eyebrow')}</p>
          <h1 className={s.title}>{t(`${page}.title`)}</h1>
          <p className={s.meta}>
            {effective ? t('effective', { date: effective }) : t('lastUpdated', { date: t('updatedDate') })}
          </p>
        </div>
      </header>
      <div className={m.inner}>
        <div className={s.layout}>
          <aside className={s.aside}>
            <nav aria-label={t('policiesLabel')} className={s.nav}>
              <p className={s.navTitle}>{t('policiesLabel')}</p>
              <ul>
                {LEGAL_PAGES.map((p) => (
                  <li key={p}>
                    <Link to={`/${p}`} aria-current={p === page ? 'page' : undefined}>
                      {t(`${p}.title`)}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            {sections.length > 2 && (
              <nav aria-label={t('tocLabel')} className={`${s.nav} ${s.tocNav}`}>
                <p className={s.navTitle}>{t('tocLabel')}</p>
                <ol>
                  {sections.map((b) => (
                    <li key={b.id}>
                      <a href={`#${b.id}`}>{b.text}</a>
                    </li>
                  ))}
                </ol>
              </nav>
            )}
          </aside>
          <article className={s.prose}>
            <Markdown blocks={blocks} />
            <p className={s.contact}>
              {t('questions')} <Link to="/contact">{t('contactLink')}</Link>
            </p>
          </article>
        </div>
      </div>
    </main>
  );
}
