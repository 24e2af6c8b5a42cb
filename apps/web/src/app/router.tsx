import { matchPath, Route, Routes } from 'react-router';

import { lazyWithPreload, type LazyWithPreload } from '../lib/lazy-with-preload';
import { PublicLayout } from './layouts/public-layout';
import { setRoutePreloader } from './preload-route';

/**
 * One entry per page. Pages for signed-in people check it themselves (RequireAuth, or the
 * dashboard layout for its pages), so that code loads with theirs and not with the home page.
 */
export interface AppRoute {
  path: string;
  page: LazyWithPreload;
}

const notFound: AppRoute = {
  path: '*',
  page: lazyWithPreload(() => import('./routes/not-found')),
};

export const appRoutes: readonly AppRoute[] = [
  {
    path: '/',
    page: lazyWithPreload(() => import('./routes/home')),
  },
  {
    path: '/blog',
    page: lazyWithPreload(() => import('./routes/blog')),
  },
  {
    path: '/blog/:slug',
    page: lazyWithPreload(() => import('./routes/blog-post')),
  },
  {
    path: '/login',
    page: lazyWithPreload(() => import('./routes/login')),
  },
  {
    path: '/register',
    page: lazyWithPreload(() => import('./routes/register')),
  },
  {
    path: '/forgot-password',
    page: lazyWithPreload(() => import('./routes/forgot-password')),
  },
  {
    path: '/reset-password',
    page: lazyWithPreload(() => import('./routes/reset-password')),
  },
  {
    path: '/unsubscribe',
    page: lazyWithPreload(() => import('./routes/unsubscribe')),
  },
  {
    path: '/cars',
    page: lazyWithPreload(() => import('./routes/cars')),
  },
  {
    path: '/category/:id',
    page: lazyWithPreload(() => import('./routes/category')),
  },
  {
    path: '/listing/:id',
    page: lazyWithPreload(() => import('./routes/listing')),
  },
  {
    path: '/sellers/:id',
    page: lazyWithPreload(() => import('./routes/seller')),
  },
  {
    path: '/dashboard/*',
    // Its pages are listed in routes/dashboard/pages.ts.
    page: lazyWithPreload(() => import('./layouts/dashboard-layout')),
  },
  // The spec's /orders, /product and /myProduct are redirected by the server (plugins/web.ts).
  notFound,
];

/** The top-level route that renders `pathname` (the not-found route when none does). */
export function routeFor(pathname: string): AppRoute {
  return appRoutes.find((route) => matchPath(route.path, pathname)) ?? notFound;
}

/** Loads the code of the page at `pathname`, so it renders without a loading fallback. */
export function preloadRoute(pathname: string): Promise<void> {
  return routeFor(pathname).page.preload();
}
setRoutePreloader(preloadRoute);

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        {appRoutes.map(({ path, page: Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
      </Route>
    </Routes>
  );
}
