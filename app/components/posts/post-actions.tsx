import { BookmarkButton } from "~/components/bookmarks/bookmark-button";
import { LikeButton } from "~/components/likes/like-button";
import type { PostEngagement } from "~/domain/posts/engagement.server";
import type { PostDto } from "~/domain/posts/posts.server";

/**
 * The like and bookmark controls under a post (issue 3 items 2 and 5). `canAct`: a member is
 * signed in (a visitor gets links to sign in); `isAuthor`: they wrote it, so cannot like it.
 */
export function PostActions({
  post,
  engagement,
  canAct,
  isAuthor,
}: {
  post: Omit<PostDto, "body" | "excerpt">;
  engagement: PostEngagement;
  canAct: boolean;
  isAuthor: boolean;
}) {
  return (
    <div className="mt-8 flex flex-wrap items-center gap-2 border-t border-border pt-4" data-testid="post-actions">
      <LikeButton target="post" targetId={post.id} liked={engagement.liked} count={post.likeCount} disabled={!canAct || isAuthor} />
      <BookmarkButton postId={post.id} bookmarked={engagement.bookmarked} canBookmark={canAct} />
    </div>
  );
}
