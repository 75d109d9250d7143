import { Eye, Heart, MessageSquare } from "lucide-react";
import { formatCount } from "~/lib/format";

/** A post's views, likes and comments, as feeds and search results show them. */
export function PostCounters({ post }: { post: { views: number; likeCount: number; commentCount: number } }) {
  return (
    <>
      <span className="inline-flex items-center gap-1" title="Просмотры">
        <Eye aria-hidden className="size-3.5" /> {formatCount(post.views)}
      </span>
      <span className="inline-flex items-center gap-1" title="Оценки">
        <Heart aria-hidden className="size-3.5" /> {formatCount(post.likeCount)}
      </span>
      <span className="inline-flex items-center gap-1" title="Комментарии">
        <MessageSquare aria-hidden className="size-3.5" /> {formatCount(post.commentCount)}
      </span>
    </>
  );
}
