import './index.css';

import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';

import { AppProvider } from './app/provider';
import { AppRoutes, preloadRoute } from './app/router';
import { createQueryClient } from './lib/query-client';
// A part the home page shares with lazy pages (the near-view hook): imported here, it goes in the
// entry's own file rather than a tiny chunk of its own that the home page would fetch besides
// (~0.1 KB more for its exports and stream). The recently viewed cars' reader likewise: the home
// page, the search and the car page share it. These files have no side effects (decision 036):
// the imports are a hint to the bundler's chunking, not code that must run.
import './lib/use-near-view';
import './features/recently-viewed/recently-viewed';
import './features/recently-viewed/components/recently-viewed';

// Checked at build time: the prerender stops if index.html has no empty #root.
const container = document.getElementById('root') as HTMLElement;

const queryClient = createQueryClient();
// A page rendered for the person asking holds the data it was rendered with (entry-server.tsx).
// (`map` for its calls: it compresses 10 bytes smaller than `forEach` here, on the home page's
// budget.)
(
  JSON.parse(document.getElementById('page-data')?.textContent ?? '[]') as [string[], unknown][]
).map(([key, data]) => queryClient.setQueryData(key, data));

const tree = (
  <AppProvider queryClient={queryClient}>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  </AppProvider>
);
// StrictMode only checks in development; the production build leaves it out (bytes every page pays).
const app = import.meta.env.DEV ? <StrictMode>{tree}</StrictMode> : tree;

if (container.hasChildNodes()) {
  // The page was prerendered: load its code first, so hydration renders the same page rather
  // than a loading fallback. If that fails, hydrate anyway; the error boundary explains.
  void preloadRoute(window.location.pathname)
    .catch(() => {})
    .then(() => hydrateRoot(container, app));
} else {
  createRoot(container).render(app);
}
