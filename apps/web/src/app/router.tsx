import { matchPath, Route, Routes } from 'react-router';

import { lazyWithPreload, type LazyWithPreload } from '../lib/lazy-with-preload';
import { PublicLayout } from './layouts/public-layout';

/** Pages for signed-in people wrap themselves in RequireAuth, so its code loads with theirs. */
interface AppRoute {
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
    path: '/category/:id',
    page: lazyWithPreload(() => import('./routes/category')),
  },
  {
    path: '/dashboard/*',
    page: lazyWithPreload(() => import('./routes/dashboard')),
  },
  notFound,
];

/** The route that renders `pathname` (the not-found route when none does). */
export function routeFor(pathname: string): AppRoute {
  return appRoutes.find((route) => matchPath(route.path, pathname)) ?? notFound;
}

/** Loads the code of the page at `pathname`, so it renders without a loading fallback. */
export function preloadRoute(pathname: string): Promise<void> {
  return routeFor(pathname).page.preload();
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        {appRoutes.map((route) => (
          <Route key={route.path} path={route.path} element={<route.page />} />
        ))}
      </Route>
    </Routes>
  );
}
