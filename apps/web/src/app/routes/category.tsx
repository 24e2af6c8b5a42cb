import { Link } from 'react-router';

import { RequireAuth } from '../../features/auth/components/require-auth';
import { usePage } from '../../lib/page';

function CategoryPage() {
  usePage({ title: 'Cars in this category' });

  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-24">
      <Link to="/#categories" className="text-link text-sm">
        ← All categories
      </Link>
      <h1 className="mt-4 text-4xl font-extrabold tracking-tight">Cars in this category</h1>
      <p className="mt-6 text-lg leading-8 text-muted">
        The list of cars is coming soon. You will be able to compare their prices, see each seller
        and book a car here.
      </p>
    </section>
  );
}

export default function CategoryRoute() {
  return (
    <RequireAuth>
      <CategoryPage />
    </RequireAuth>
  );
}
