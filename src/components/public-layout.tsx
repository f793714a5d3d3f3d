import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Header } from './header';
import { Footer } from './footer';

/** Header, page and footer of every public page. */
export function PublicLayout() {
  return (
    <>
      <Header />
      <Suspense fallback={<main id="main" tabIndex={-1} className="page-loading" />}>
        <Outlet />
      </Suspense>
      <Footer />
      {typeof document !== 'undefined' && <ScrollRestoration />}
    </>
  );
}
