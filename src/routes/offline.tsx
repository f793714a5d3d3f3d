import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useMachine } from '@xstate/react';
import { PageMeta } from '../components/page-meta';
import { LEGAL_PAGES } from './paths';
import { offlinePageLive } from './offline.live';
import { sameOriginPath } from './same-origin-path';
import s from './offline.module.css';

/** The page's own address from ?from= (the service worker's redirect); only this site's paths. */
const requestedPath = (search: string) =>
  sameOriginPath(new URLSearchParams(search).get('from'), window.location.origin);

const LEGAL_KEYS: Record<(typeof LEGAL_PAGES)[number], string> = {
  'privacy-policy': 'footer.privacy',
  'terms-of-service': 'footer.terms',
  'cookie-policy': 'footer.cookies',
  'cancellation-refund-policy': 'footer.refund',
  'shipping-policy': 'footer.shipping',
};

/**
 * /offline: where the service worker sends a page it has not kept. Says what still works: every
 * public page (precached), the pages this device kept, and the send queue.
 */
export default function OfflinePage() {
  const { t } = useTranslation('offline');
  const { t: tc } = useTranslation();
  const { search } = useLocation();
  const [state] = useMachine(offlinePageLive);
  // Read after mount only (the prerendered page has no query): the machine has left 'loading'.
  const requested = state.matches('loading') ? null : requestedPath(search);
  const pages = [
    { to: '/', label: t('page.home') },
    { to: '/manuscript-automation', label: tc('nav.manuscript') },
    { to: '/pricing', label: tc('nav.pricing') },
    { to: '/blog', label: tc('nav.blog') },
    { to: '/careers', label: tc('nav.careers') },
    { to: '/about', label: tc('nav.about') },
    { to: '/contact', label: tc('nav.contact') },
  ];

  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <PageMeta title={t('page.metaTitle')} description={t('page.metaDescription')} path="/offline" noindex />
      <div className={s.inner}>
        <div className={s.hero}>
          <svg width="96" height="96" viewBox="0 0 96 96" aria-hidden="true" focusable="false">
            <circle cx="48" cy="48" r="44" fill="#e8eefc" />
            <path
              d="M22 40a38 38 0 0 1 52 0"
              stroke="#1d4ed8"
              strokeWidth="6"
              fill="none"
              strokeLinecap="round"
            />
            <path
              d="M32 51a24 24 0 0 1 32 0"
              stroke="#1d4ed8"
              strokeWidth="6"
              fill="none"
              strokeLinecap="round"
            />
            <circle cx="48" cy="63" r="5" fill="#1d4ed8" />
            <path d="M24 24l48 48" stroke="#d97706" strokeWidth="6" strokeLinecap="round" />
          </svg>
          <div>
            <h1 className={s.title}>{t('page.title')}</h1>
            <p className={s.lead}>{t('page.text')}</p>
          </div>
        </div>

        {requested && (
          <p className={s.requested} data-testid="offline-requested">
            <span>{t('page.requested', { path: requested })}</span>
            <a className={s.retry} href={requested}>
              {t('page.retry')}
            </a>
          </p>
        )}

        <section className={s.section} aria-labelledby="offline-available">
          <h2 id="offline-available">{t('page.availableHeading')}</h2>
          <p>{t('page.availableIntro')}</p>
          <ul className={s.links}>
            {pages.map((p) => (
              <li key={p.to}>
                <Link to={p.to}>{p.label}</Link>
              </li>
            ))}
          </ul>
          <h3 className={s.subheading}>{t('page.legalHeading')}</h3>
          <ul className={s.links}>
            {LEGAL_PAGES.map((page) => (
              <li key={page}>
                <Link to={`/${page}`}>{tc(LEGAL_KEYS[page])}</Link>
              </li>
            ))}
          </ul>
        </section>

        {state.matches('ready') && state.context.pages.length > 0 && (
          <section className={s.section} aria-labelledby="offline-saved">
            <h2 id="offline-saved">{t('page.savedHeading')}</h2>
            <p>{t('page.savedIntro')}</p>
            <ul className={s.links} data-testid="offline-saved-pages">
              {state.context.pages.map((p) => (
                <li key={p.path}>
                  <a href={p.path}>{p.title}</a>
                </li>
              ))}
            </ul>
          </section>
        )}

        <section className={s.section} aria-labelledby="offline-send">
          <h2 id="offline-send">{t('page.sendHeading')}</h2>
          <p>{t('page.sendText')}</p>
          {state.matches('ready') && state.context.waiting > 0 && (
            <p role="status">{t('page.waiting', { count: state.context.waiting })}</p>
          )}
        </section>
      </div>
    </main>
  );
}
