import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router-dom';
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
    </>
  );
}
