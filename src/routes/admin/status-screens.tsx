import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import s from './admin-app.module.css';

/** Signed in, but this role may not use the screen (or the address is unknown). */
export function NoAccess({ notFound = false }: { notFound?: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <section className={s.note} aria-labelledby="no-access-title">
      <h2 id="no-access-title">{t(notFound ? 'notFound.title' : 'noAccess.title')}</h2>
      <p>{t(notFound ? 'notFound.text' : 'noAccess.text')}</p>
      <p>
        <Link to="/admin">{t('noAccess.home')}</Link>
      </p>
    </section>
  );
}
