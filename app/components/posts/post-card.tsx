import { Link } from "~/components/ui/link";
import { Icon } from "~/components/ui/icon";
import { RelativeTime } from "~/components/ui/relative-time";
import { PostCounters } from "~/components/posts/post-counters";
import { BookmarkButton } from "~/components/bookmarks/bookmark-button";
import { Badge } from "~/components/ui/badge";
import { RankBadges } from "~/components/users/rank-badges";
import type { PostSummaryDto } from "~/domain/posts/posts.server";
import { useRootData } from "~/root-data";
import { MemberAvatar, MemberName } from "~/components/users/trust-card";

/**
 * One post in a feed: author, category, title linking to the post, excerpt and counters.
 * With `bookmarked` given it also shows the bookmark button (a sign-in link when
 * `canBookmark` is false); without it the card has no controls.
 */
export function PostCard({ post, bookmarked, canBookmark = false }: { post: PostSummaryDto; bookmarked?: boolean; canBookmark?: boolean }) {
  return (
    <article
      className="min-w-0 rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5 transition-shadow hover:shadow-md"
      data-testid="post-card"
      data-pinned={post.pinned ? "true" : undefined}
    >
      <header className="flex items-center gap-3">
        <MemberAvatar member={post.author} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 text-sm">
            <MemberName member={post.author} />
            <RankBadges ranks={post.author.ranks} />
          </div>
          <RelativeTime iso={post.createdAt} className="text-xs text-muted-foreground" />
        </div>
        {post.pinned ? (
          <Badge variant="outline" className="gap-1" title="Закреплён модератором на главной">
            <Icon name="pin" className="size-3" /> Закреплён
          </Badge>
        ) : null}
        {/* The link is wider than the chip on phones (tap-target), so a finger finds it. */}
        <Link to={`/?category=${post.category.id}`} className="tap-target shrink-0">
          <Badge variant="secondary">{post.category.name}</Badge>
        </Link>
      </header>
      <h2 className="mt-3 font-heading text-lg font-bold leading-snug">
        {post.kind === "article" ? <Icon name="file-text" aria-label="Статья" className="mr-1.5 inline size-4 text-primary" /> : null}
        <Link to={`/post/${post.id}`} className="tap-target hover:text-primary">
          {post.title}
        </Link>
      </h2>
      <p className="mt-2 line-clamp-3 text-sm text-muted-foreground">{post.excerpt}</p>
      <footer className="mt-4 flex flex-wrap items-center gap-x-5 gap-y-2 text-xs text-muted-foreground">
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
    <div className="grid grid-cols-1 gap-4">
      {posts.map((post) => (
        <PostCard key={post.id} post={post} bookmarked={bookmarkedIds ? bookmarkedIds.has(post.id) : undefined} canBookmark={signedIn} />
      ))}
    </div>
  );
}
