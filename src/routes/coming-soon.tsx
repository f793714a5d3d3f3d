import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';
import s from './status-page.module.css';

/** The Resources pages that are not written yet, by address; /ComingSoon itself is generic. */
const SECTIONS: Record<string, string> = {
  '/help-center': 'nav.helpCenter',
  '/training': 'nav.training',
  '/api-reference': 'nav.apiReference',
  '/documentation': 'nav.documentation',
};

export default function ComingSoonPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const sectionKey = SECTIONS[pathname.toLowerCase().replace(/\/+$/, '')];
  const section = sectionKey ? t(sectionKey) : undefined;
  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <PageMeta
        title={section ? t('comingSoon.sectionMetaTitle', { section }) : t('comingSoon.metaTitle')}
        description={
          section ? t('comingSoon.sectionMetaDescription', { section }) : t('comingSoon.metaDescription')
        }
        path={pathname}
      />
      <svg
        className={s.art}
        width="160"
        height="120"
        viewBox="0 0 160 120"
        aria-hidden="true"
        focusable="false"
      >
        <rect x="20" y="26" width="120" height="78" rx="10" fill="#e8eefc" />
        <rect x="34" y="42" width="62" height="8" rx="4" fill="#1d4ed8" />
        <rect x="34" y="58" width="92" height="6" rx="3" fill="#b7c6ef" />
        <rect x="34" y="72" width="76" height="6" rx="3" fill="#b7c6ef" />
        <circle cx="122" cy="30" r="18" fill="#fbbf24" />
        <path d="M122 20v10l7 5" stroke="#14213d" strokeWidth="3" fill="none" strokeLinecap="round" />
      </svg>
      <h1 className={s.title}>{t('comingSoon.title')}</h1>
      <p className={s.text}>{t('comingSoon.text')}</p>
      <Link to="/" className={s.action}>
        {t('comingSoon.home')}
      </Link>
    </main>
  );
}
