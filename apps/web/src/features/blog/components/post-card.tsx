import { Link } from 'react-router';

import { ArrowRightIcon } from '../../../components/ui/icons';
import type { BlogPost } from '../posts';
import { PostMeta } from './post-meta';

/** A guide in the blog's list. */
export function PostCard({ post }: { post: BlogPost }) {
  return (
    <article className="flex h-full flex-col rounded-box border border-base-300 bg-base-100 p-6 card-shadow">
      <p className="section-eyebrow">Buying guide</p>
      <h3 className="mt-2 text-xl leading-tight font-bold">
        <Link to={`/blog/${post.slug}`} className="hover:text-primary hover:underline">
          {post.title}
        </Link>
      </h3>
      <div className="mt-2">
        <PostMeta post={post} />
      </div>
      <p className="mt-3 flex-1 leading-7 text-muted">{post.summary}</p>
      <Link
        to={`/blog/${post.slug}`}
        className="text-link mt-5 inline-flex items-center gap-2 self-start"
        aria-label={`Read the guide: ${post.title}`}
      >
        Read the guide <ArrowRightIcon className="size-4" />
      </Link>
    </article>
  );
}
