import { Suspense, use, type ComponentType } from 'react';
import { matchRoutes, useRoutes, type RouteObject } from 'react-router-dom';
import { PublicLayout } from '../components/public-layout';
import { RouteErrorBoundary } from '../components/route-error';
import { COMING_SOON_PATHS, LEGAL_PAGES } from './paths';

type PageModule = { default: ComponentType };

/** A route's screen: a lazily loaded module that can be loaded ahead of its first render. */
export interface LazyPage {
  (): React.ReactNode;
  preload(): Promise<PageModule>;
}

/**
 * Like React.lazy, but a module that is already loaded renders at once (no suspending), so the
 * first render in the browser matches the prerendered HTML when main.tsx preloads the modules of
 * the address before hydrating, and the server render (which cannot suspend) gets a full page.
 * A module that is not loaded yet suspends the nearest <Suspense> until it is.
 */
function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: PageModule | undefined;
  let pending: Promise<PageModule> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (mod) => (loaded = mod),
      (error: unknown) => {
        pending = undefined; // a later navigation may try again (a chunk lost after a deploy)
        throw error;
      },
    ));
  function Page() {
    const Screen = (loaded ?? use(preload())).default;
    return <Screen />;
  }
  Page.preload = preload;
  return Page;
}

const page = (load: () => Promise<PageModule>) => {
  const Page = lazyPage(load);
  return { element: <Page />, handle: { preload: Page.preload } };
};

/**
 * The route table. Every screen is its own lazily loaded module; the browser
 * loads the modules that match the address before hydrating (main.tsx) and the server render does
 * the same (entry-server.tsx). Declarative routes (`useRoutes`) keep react-router's data-router
 * core out of the public bundle; nothing here needs loaders or actions.
 */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { index: true, ...page(() => import('./home')) },
      { path: 'manuscript-automation', ...page(() => import('./manuscript-automation')) },
      { path: 'pricing', ...page(() => import('./pricing')) },
      { path: 'about', ...page(() => import('./about')) },
      { path: 'careers', ...page(() => import('./careers')) },
      { path: 'careers/:slug', ...page(() => import('./job')) },
      { path: 'contact', ...page(() => import('./contact')) },
      { path: 'blog', ...page(() => import('./blog')) },
      { path: 'blog/tag/:tag', ...page(() => import('./blog')) },
      { path: 'blog/preview/:token', ...page(() => import('./blog-preview')) },
      { path: 'blog/:slug', ...page(() => import('./blog-post')) },
      { path: 'offline', ...page(() => import('./offline')) },
      { path: 'search', ...page(() => import('./search')) },
      ...COMING_SOON_PATHS.map((path) => ({ path, ...page(() => import('./coming-soon')) })),
      ...LEGAL_PAGES.map((path) => ({ path, ...page(() => import('./legal')) })),
      { path: '*', ...page(() => import('./not-found')) },
    ],
  },
  (() => {
    // The back office is one lazy chunk with its own nested routes.
    const { element, handle } = page(() => import('./admin/admin-app'));
    return { path: 'admin/*', element: <RouteErrorBoundary>{element}</RouteErrorBoundary>, handle };
  })(),
];

/** Loads the screens that `pathname` shows, so they render without suspending. */
export async function preloadRoutes(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(({ route }) =>
      (route.handle as { preload?: () => Promise<unknown> } | undefined)?.preload?.(),
    ),
  );
}

/** The whole route table, for <BrowserRouter> and <StaticRouter>. */
export function AppRoutes() {
  const element = useRoutes(routes);
  return <Suspense fallback={null}>{element}</Suspense>;
}
