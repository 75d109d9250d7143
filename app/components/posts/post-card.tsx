import { Link } from "react-router";
import { FileText } from "lucide-react";
import { PostCounters } from "~/components/posts/post-counters";
import { BookmarkButton } from "~/components/bookmarks/bookmark-button";
import { Avatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { RankBadges } from "~/components/users/rank-badges";
import type { PostSummaryDto } from "~/domain/posts/posts.server";
import { formatDateTime } from "~/lib/format";
import { useRootData } from "~/root-data";

/**
 * One post in a feed: author, category, title linking to the post, excerpt and counters.
 * With `bookmarked` given it also shows the bookmark button (a sign-in link when
 * `canBookmark` is false); without it the card has no controls.
 */
export function PostCard({ post, bookmarked, canBookmark = false }: { post: PostSummaryDto; bookmarked?: boolean; canBookmark?: boolean }) {
  return (
    <article className="rounded-xl border border-border bg-card p-5 shadow-sm transition-shadow hover:shadow-md" data-testid="post-card">
      <header className="flex items-center gap-3">
        <Avatar username={post.author.username} src={post.author.image} size="sm" link={`/profile/${post.author.id}`} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 text-sm">
            <Link to={`/profile/${post.author.id}`} className="font-semibold hover:underline">
              {post.author.username}
            </Link>
            <RankBadges ranks={post.author.ranks} />
          </div>
          <time dateTime={post.createdAt} className="text-xs text-muted-foreground">
            {formatDateTime(post.createdAt)}
          </time>
        </div>
        <Badge variant="secondary" asChild>
          <Link to={`/?category=${post.category.id}`}>{post.category.name}</Link>
        </Badge>
      </header>
      <h2 className="mt-3 font-heading text-lg font-bold leading-snug">
        {post.kind === "article" ? <FileText aria-label="Статья" className="mr-1.5 inline size-4 text-primary" /> : null}
        <Link to={`/post/${post.id}`} className="hover:text-primary">
          {post.title}
        </Link>
      </h2>
      <p className="mt-2 line-clamp-3 text-sm text-muted-foreground">{post.excerpt}</p>
      <footer className="mt-4 flex items-center gap-5 text-xs text-muted-foreground">
        <PostCounters post={post} />
        {bookmarked === undefined ? null : (
          <span className="-my-1.5 ml-auto">
            <BookmarkButton postId={post.id} bookmarked={bookmarked} canBookmark={canBookmark} compact />
          </span>
        )}
      </footer>
    </article>
  );
}

/**
 * A list of posts with an empty state. Given `bookmarkedIds` (the viewer's bookmarks among
 * these posts, from bookmarkedPostIds), each card gets a bookmark button; a visitor's
 * buttons link to sign-in.
 */
export function PostList({ posts, empty, bookmarkedIds }: { posts: PostSummaryDto[]; empty: string; bookmarkedIds?: ReadonlySet<number> }) {
  const signedIn = Boolean(useRootData()?.viewer);
  if (posts.length === 0) {
    return <p className="rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground">{empty}</p>;
  }
  return (
    <div className="grid gap-4">
      {posts.map((post) => (
        <PostCard key={post.id} post={post} bookmarked={bookmarkedIds ? bookmarkedIds.has(post.id) : undefined} canBookmark={signedIn} />
      ))}
    </div>
  );
}
