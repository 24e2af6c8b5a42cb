import { Link } from 'react-router';

import { ArrowRightIcon } from '../../../components/ui/icons';
import { postSections, type BlogPost } from '../posts';
import { PostMeta } from './post-meta';

/** The Q&A post at the top of the blog, with its questions listed so they can be opened directly. */
export function QaFeature({ post }: { post: BlogPost }) {
  const questions = postSections(post);
  return (
    <article
      className="rounded-box border border-base-300 bg-base-200 p-6 sm:p-8"
      aria-labelledby="qa-feature-title"
    >
      <p className="section-eyebrow">Q&amp;A · Engineering</p>
      <h2 id="qa-feature-title" className="mt-2 text-2xl leading-tight font-bold sm:text-3xl">
        <Link to={`/blog/${post.slug}`} className="hover:text-primary hover:underline">
          {post.title}
        </Link>
      </h2>
      <div className="mt-2">
        <PostMeta post={post} />
      </div>
      <p className="mt-4 max-w-3xl text-lg leading-8 text-muted">{post.summary}</p>

      <h3 className="mt-6 text-sm font-semibold tracking-wide uppercase">The questions</h3>
      <ol className="mt-3 grid gap-3 md:grid-cols-2">
        {questions.map((question, index) => (
          <li key={question.id}>
            <Link
              to={`/blog/${post.slug}#${question.id}`}
              className="group flex h-full gap-3 rounded-box border border-base-300 bg-base-100 p-4 transition-colors hover:border-primary"
            >
              <span
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-content"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <span className="font-medium leading-6 group-hover:text-primary">
                {question.text}
              </span>
            </Link>
          </li>
        ))}
      </ol>

      <Link to={`/blog/${post.slug}`} className="button button-primary mt-6">
        Read all four answers <ArrowRightIcon className="size-4" />
      </Link>
    </article>
  );
}
