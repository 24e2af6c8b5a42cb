import '../../public-pages.css';

import { PostCard } from '../../features/blog/components/post-card';
import { QaFeature } from '../../features/blog/components/qa-feature';
import { posts } from '../../features/blog/posts';
import { usePage } from '../../lib/page';

export default function BlogRoute() {
  usePage({
    title: 'Blog',
    description:
      'Guides to buying a used car with confidence, and answers to the front-end questions people ask about how CarMarket is built.',
  });

  const qa = posts.filter((post) => post.kind === 'qa');
  const guides = posts.filter((post) => post.kind !== 'qa');

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="max-w-3xl">
        <p className="section-eyebrow">The CarMarket blog</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight sm:text-5xl">
          Guides and answers
        </h1>
        <p className="mt-4 text-lg leading-8 text-muted">
          Practical advice for buying a used car with confidence, and straight answers to the
          questions people ask about how we build CarMarket.
        </p>
      </header>

      <div className="mt-10 grid gap-10">
        {qa.map((post) => (
          <QaFeature key={post.slug} post={post} />
        ))}

        <section aria-labelledby="guides-title">
          <h2 id="guides-title" className="text-2xl font-bold tracking-tight">
            Buying guides
          </h2>
          <ul className="mt-5 grid gap-5 md:grid-cols-2">
            {guides.map((post) => (
              <li key={post.slug}>
                <PostCard post={post} />
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
