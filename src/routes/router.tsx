import type { RouteObject } from 'react-router-dom';
import { PublicLayout } from '../components/public-layout';
import { RouteError } from '../components/route-error';
import { COMING_SOON_PATHS, LEGAL_PAGES } from './paths';

type PageModule = { default: React.ComponentType };
const page = (load: () => Promise<PageModule>) => async () => ({ Component: (await load()).default });

/**
 * The route table of spec section 2. Every screen is its own lazily loaded module; the
 * browser loads the modules that match the address before hydrating (see main.tsx).
 */
export const routes: RouteObject[] = [
  {
    id: 'public',
    element: <PublicLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: page(() => import('./home')) },
      { path: 'manuscript-automation', lazy: page(() => import('./manuscript-automation')) },
      { path: 'pricing', lazy: page(() => import('./pricing')) },
      { path: 'about', lazy: page(() => import('./about')) },
      { path: 'careers', lazy: page(() => import('./careers')) },
      { path: 'contact', lazy: page(() => import('./contact')) },
      { path: 'blog', lazy: page(() => import('./blog')) },
      { path: 'blog/:slug', lazy: page(() => import('./blog-post')) },
      { path: 'offline', lazy: page(() => import('./offline')) },
      ...COMING_SOON_PATHS.map((path) => ({ path, lazy: page(() => import('./coming-soon')) })),
      ...LEGAL_PAGES.map((path) => ({ path, lazy: page(() => import('./legal')) })),
      { path: '*', lazy: page(() => import('./not-found')) },
    ],
  },
  {
    // The back office is one lazy chunk with its own nested routes.
    path: 'admin/*',
    errorElement: <RouteError />,
    lazy: page(() => import('./admin/admin-app')),
  },
];
