import '../../public-pages.css';

import { Link, useParams } from 'react-router';

import { PostBody } from '../../features/blog/components/post-body';
import { PostMeta } from '../../features/blog/components/post-meta';
import { findPost, postSections, posts } from '../../features/blog/posts';
import { usePage } from '../../lib/page';
import { NotFound } from './not-found';

export default function BlogPostRoute() {
  const { slug } = useParams();
  const post = findPost(slug);
  usePage(post ? { title: post.title, description: post.summary } : { title: 'Post not found' });

  if (!post) return <NotFound what="that blog post" />;

  const sections = postSections(post);
  const others = posts.filter((other) => other.slug !== post.slug);

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <nav aria-label="Breadcrumb" className="text-sm">
        <ol className="flex flex-wrap items-center gap-2 text-muted">
          <li>
            <Link to="/blog" className="text-link">
              Blog
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="truncate">
            {post.kind === 'qa' ? 'Q&A' : 'Buying guide'}
          </li>
        </ol>
      </nav>

      <header className="mt-6">
        <h1 className="text-3xl leading-tight font-extrabold tracking-tight text-balance sm:text-5xl">
          {post.title}
        </h1>
        <div className="mt-4">
          <PostMeta post={post} />
        </div>
        <p className="mt-1 text-sm text-muted">By {post.author}</p>
      </header>

      {sections.length > 0 && (
        <nav
          aria-labelledby="toc-title"
          className="mt-8 rounded-box border border-base-300 bg-base-200 p-5"
        >
          <h2 id="toc-title" className="text-sm font-semibold tracking-wide uppercase">
            {post.kind === 'qa' ? 'Questions in this post' : 'In this guide'}
          </h2>
          <ol className="mt-3 grid list-decimal gap-2 pl-5">
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-link font-normal">
                  {section.text}
                </a>
              </li>
            ))}
          </ol>
        </nav>
      )}

      <div className="mt-10">
        <PostBody blocks={post.body} />
      </div>

      <footer className="mt-16 border-t border-base-300 pt-8">
        <h2 className="text-lg font-bold">Keep reading</h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2">
          {others.map((other) => (
            <li key={other.slug}>
              <Link
                to={`/blog/${other.slug}`}
                className="block h-full rounded-box border border-base-300 p-4 transition-colors hover:border-primary"
              >
                <span className="block font-semibold">{other.title}</span>
                <span className="mt-1 block text-sm leading-6 text-muted">{other.summary}</span>
              </Link>
            </li>
          ))}
        </ul>
        <Link to="/blog" className="text-link mt-8 inline-block">
          ← All posts
        </Link>
      </footer>
    </article>
  );
}
