import { useSession } from '../../features/auth/use-session';
import { CategoryGrid } from '../../features/categories/components/category-grid';
import { AdvertisedSection } from '../../features/home/components/advertised-section';
import { Hero } from '../../features/home/components/hero';
import { ServiceCards } from '../../features/home/components/service-cards';
import { RecentlyViewed } from '../../features/recently-viewed';
import { usePage } from '../../lib/page';

export default function HomeRoute() {
  usePage({});
  const { user } = useSession();

  return (
    <>
      <Hero />
      <ServiceCards />
      <section
        id="categories"
        aria-labelledby="categories-title"
        className="mx-auto max-w-6xl scroll-mt-20 px-4 pt-16 sm:px-6 sm:pt-20"
      >
        <div className="max-w-2xl">
          <p className="section-eyebrow">Browse by category</p>
          <h2 id="categories-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
            Find the right kind of car
          </h2>
          <p className="mt-3 text-lg leading-8 text-muted">
            Each shows how many cars you can book now.
          </p>
        </div>
        <div className="mt-8">
          <CategoryGrid />
        </div>
      </section>
      {user && (
        <RecentlyViewed
          userId={user.id}
          className="mx-auto max-w-6xl px-4 pt-16 sm:px-6 sm:pt-20"
        />
      )}
      <AdvertisedSection />
    </>
  );
}
