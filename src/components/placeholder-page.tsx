import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageMeta } from './page-meta';

/** A page whose content lands in its own issue: heading, title and description only. */
export function PlaceholderPage({ ns }: { ns: string }) {
  const { t } = useTranslation(ns);
  const { pathname } = useLocation();
  return (
    <main id="main" tabIndex={-1} className="container" style={{ padding: '4rem 1.5rem', minHeight: '50vh' }}>
      <PageMeta title={t('metaTitle')} description={t('metaDescription')} path={pathname} />
      <h1>{t('title')}</h1>
      <p>{t('metaDescription')}</p>
    </main>
  );
}
