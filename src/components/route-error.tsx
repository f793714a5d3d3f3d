import { useRouteError } from 'react-router-dom';

/** Last-resort screen when a route fails to load (for example a chunk lost after a deploy). */
export function RouteError() {
  const error = useRouteError();
  console.warn('Route failed to render', error);
  return (
    <main id="main" className="container" style={{ padding: '4rem 1.5rem' }}>
      <h1>Something went wrong</h1>
      <p>This page could not be shown. Please reload the page.</p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
