import { formatCount } from "~/lib/format";
import { Icon } from "~/components/ui/icon";

/** A post's views, likes and comments, as feeds and search results show them. */
export function PostCounters({ post }: { post: { views: number; likeCount: number; commentCount: number } }) {
  return (
    <>
      <span className="inline-flex items-center gap-1" title="Просмотры">
        <Icon name="eye" className="size-3.5" /> {formatCount(post.views)}
      </span>
      <span className="inline-flex items-center gap-1" title="Оценки">
        <Icon name="heart" className="size-3.5" /> {formatCount(post.likeCount)}
      </span>
      <span className="inline-flex items-center gap-1" title="Комментарии">
        <Icon name="message-square" className="size-3.5" /> {formatCount(post.commentCount)}
      </span>
    </>
  );
}
