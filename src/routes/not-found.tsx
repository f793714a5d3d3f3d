import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';
import s from './status-page.module.css';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => {
    // The spec logs the missing path; a warning keeps the console free of errors.
    console.warn('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);
  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <PageMeta title={t('notFound.metaTitle')} description={t('notFound.metaDescription')} noindex />
      <p className={s.code} aria-hidden="true">
        {t('notFound.code')}
      </p>
      <h1 className={s.title}>
        <span className="visually-hidden">{t('notFound.code')} </span>
        {t('notFound.title')}
      </h1>
      <Link to="/" className={s.action}>
        {t('notFound.home')}
      </Link>
    </main>
  );
}
