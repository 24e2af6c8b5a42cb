import { Link } from 'react-router';

import { siteName } from '../../config/site';

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-base-300 bg-base-200">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-3 sm:px-6">
        <div>
          <Link to="/" className="brand-link" aria-label={`${siteName} home`}>
            <img src="/favicon.svg" alt="" width={32} height={32} className="size-8 shrink-0" />
            <span className="text-lg font-bold tracking-tight">{siteName}</span>
          </Link>
          <p className="mt-3 text-sm leading-6 text-muted">
            Used cars from people near you, with clear prices, card payments and sellers checked by
            our team.
          </p>
        </div>

        <nav aria-labelledby="footer-market">
          <h2 id="footer-market" className="footer-heading">
            Marketplace
          </h2>
          <ul className="footer-links">
            <li>
              <Link to="/#categories">Browse categories</Link>
            </li>
            <li>
              <Link to="/dashboard">Sell your car</Link>
            </li>
            <li>
              <a href="/api/docs">API documentation</a>
            </li>
          </ul>
        </nav>

        <nav aria-labelledby="footer-guides">
          <h2 id="footer-guides" className="footer-heading">
            Guides
          </h2>
          <ul className="footer-links">
            <li>
              <Link to="/blog/how-to-inspect-a-used-car">Inspecting a used car</Link>
            </li>
            <li>
              <Link to="/blog/asking-price-vs-original-price">Asking vs original price</Link>
            </li>
            <li>
              <Link to="/blog/front-end-questions-answered">Engineering Q&amp;A</Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className="border-t border-base-300 px-4 py-5 text-center text-sm text-muted">
        {siteName} is open-source software under the MIT licence. Prices are set by sellers.
      </p>
    </footer>
  );
}
