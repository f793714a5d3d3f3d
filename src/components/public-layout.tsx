import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigationType } from 'react-router-dom';
import { countView } from '../api/visit';
import { Header } from './header';
import { Footer } from './footer';
import { RouteErrorBoundary } from './route-error';

/**
 * A new page starts at its top (or at its #fragment); going back or forward leaves the position
 * to the browser, which restores it.
 */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (navigationType === 'POP') return;
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
  return null;
}

/**
 * Each page shown counts one view (api/visit.ts), the first after hydration and each client-side
 * navigation, once the browser is idle: nothing on the way to the page.
 */
function CountView() {
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const lang = i18n.language;
  useEffect(() => {
    const count = () => countView(pathname, lang);
    if ('requestIdleCallback' in window) requestIdleCallback(count, { timeout: 3000 });
    else setTimeout(count, 500);
    // a language switch on the same page is not another view
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
  return null;
}

/** Header, page and footer of every public page. */
export function PublicLayout() {
  return (
    <>
      <Header />
      <RouteErrorBoundary>
        <Suspense fallback={<main id="main" tabIndex={-1} className="page-loading" />}>
          <Outlet />
        </Suspense>
      </RouteErrorBoundary>
      <Footer />
      <ScrollToTop />
      <CountView />
    </>
  );
}
