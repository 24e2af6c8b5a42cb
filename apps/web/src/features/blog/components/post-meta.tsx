import { formatPostDate, readingMinutes, type BlogPost } from '../posts';

export function PostMeta({ post }: { post: BlogPost }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
      <time dateTime={post.publishedOn}>{formatPostDate(post.publishedOn)}</time>
      <span aria-hidden="true">·</span>
      <span>{readingMinutes(post)} min read</span>
    </p>
  );
}
