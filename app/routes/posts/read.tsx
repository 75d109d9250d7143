/** /post/{id}: a post with its author, category, rendered Markdown, actions and comments (public, bare layout). */
import { RelativeTime } from "~/components/ui/relative-time";
import { useState } from "react";
import { Link } from "~/components/ui/link";
import { Lock, Pencil, Pin } from "lucide-react";
import { Icon } from "~/components/ui/icon";
import type { Route } from "./+types/read";
import { CommentsSection } from "~/components/comments/comments-section";
import { PostModerationPanel } from "~/components/moderation/post-moderation";
import { ReportButton } from "~/components/moderation/report-button";
import { DeletePostButton, DeletePostQuestion } from "~/components/posts/delete-post";
import { PostActions } from "~/components/posts/post-actions";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { RankBadges } from "~/components/users/rank-badges";
import { COMMENT_THREADS_PER_PAGE, commentsForPage, listPostCommentThreads } from "~/domain/comments/comments.server";
import { getPostEngagement } from "~/domain/posts/engagement.server";
import { queueView, visitorKeyOf } from "~/domain/posts/view-buffer.server";
import { getPost } from "~/domain/posts/posts.server";
import { getOptionalUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { formatCount } from "~/lib/format";
import { markdownExcerpt, shortenExcerpt } from "~/lib/markdown.server";
import { pageMeta } from "~/lib/meta";
import { isScammer, MemberAvatar, MemberName, ScamWarning } from "~/components/users/trust-card";

export const meta: Route.MetaFunction = ({ data, matches }) =>
  data ? pageMeta(matches, data.post.title, data.description) : pageMeta(matches, "Пост не найден");

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return pageData(async () => {
    const viewer = await getOptionalUser(context, request);
    const post = await getPost(context.db, Number(params.id), viewer);
    // ?comments=N shows the first N pages of threads, ?comments=all every thread (issue 12).
    const asked = new URL(request.url).searchParams.get("comments");
    const shownPages = asked === "all" ? Number.POSITIVE_INFINITY : Math.min(Math.max(Math.trunc(Number(asked)) || 1, 1), 10_000);
    // Counted in batches (docs/product/engineering.md#speed); the visitor page cache queues the views it answers too.
    queueView(context.db, post.id, visitorKeyOf(viewer?.id ?? null, context.clientIp, request.headers.get("User-Agent")));
    const [engagement, thread] = await Promise.all([
      getPostEngagement(context.db, viewer?.id ?? null, post.id),
      listPostCommentThreads(context.db, viewer, post.id, shownPages * COMMENT_THREADS_PER_PAGE),
    ]);
    // The page shows the rendered HTML; the Markdown source goes only to the edit form
    // (/post/{id}/edit), not twice into the hydration data (docs/product/engineering.md#speed),
    // and the stored excerpt only into the description.
    const { body, excerpt, ...shown } = post;
    return {
      post: shown,
      engagement,
      comments: commentsForPage(thread.threads),
      totalComments: thread.totalComments,
      // «Показать ещё»: the next page's URL, anchored at the last thread shown, or null when all are shown.
      more:
        thread.threads.length < thread.totalThreads
          ? `/post/${post.id}?comments=${shownPages + 1}#comment-${thread.threads[thread.threads.length - 1]!.id}`
          : null,
      // A post stored before its excerpt column (empty there) is described from its body.
      description: excerpt ? shortenExcerpt(excerpt, 160) : markdownExcerpt(body, 160),
      viewerId: viewer?.id ?? null,
      canModerate: viewer?.role === "admin" || viewer?.role === "moderator",
    };
  });
}

export default function PostPage({ loaderData }: Route.ComponentProps) {
  const { post, engagement, comments, totalComments, more, viewerId, canModerate } = loaderData;
  const isAuthor = viewerId === post.author.id;
  const [askingDelete, setAskingDelete] = useState(false);
  return (
    <article className="mx-auto max-w-3xl">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Link to={`/?category=${post.category.id}`} className="tap-target shrink-0">
          <Badge variant="secondary">{post.category.name}</Badge>
        </Link>
        {post.kind === "article" ? <Badge variant="outline">Статья</Badge> : null}
        {post.pinned ? (
          <Badge variant="outline" className="gap-1">
            <Pin aria-hidden className="size-3" /> Закреплён на главной
          </Badge>
        ) : null}
      </div>
      {post.deleted ? (
        <p role="status" data-testid="post-deleted" className="mt-4 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
          Пост удалён модератором. Его видят только модераторы — его можно восстановить.
        </p>
      ) : post.hidden ? (
        <p role="status" className="mt-4 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm">
          Пост скрыт по жалобам до решения модератора: его видят только автор и модераторы.
        </p>
      ) : null}
      {isScammer(post.author) ? (
        // docs/product/interface.md#trust-card: a SCAMMER's posts carry the warning.
        <ScamWarning username={post.author.username} className="mt-4" />
      ) : null}
      <h1 className="mt-3 font-heading text-3xl font-extrabold leading-tight sm:text-4xl">{post.title}</h1>
      <div className="mt-5 flex flex-wrap items-center gap-3 border-b border-border pb-5">
        <MemberAvatar member={post.author} size="base" />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <MemberName member={post.author} />
            <RankBadges ranks={post.author.ranks} />
          </div>
          <p className="text-sm text-muted-foreground">
            <RelativeTime iso={post.createdAt} />
            {post.editedAt ? (
              <span>
                {" "}
                · изменён <RelativeTime iso={post.editedAt} />
              </span>
            ) : null}
            <span className="ml-3 inline-flex items-center gap-1" title="Просмотры">
              <Icon name="eye" className="size-3.5" /> {formatCount(post.views)}
            </span>
          </p>
        </div>
        {isAuthor && !post.deleted ? (
          <div className="flex w-full flex-wrap gap-2 sm:w-auto">
            <Button asChild variant="outline" size="sm" className="min-h-11 sm:min-h-8">
              <Link to={`/post/${post.id}/edit`}>
                <Pencil aria-hidden className="size-4" /> Редактировать
              </Link>
            </Button>
            <DeletePostButton postId={post.id} asking={askingDelete} onAsk={() => setAskingDelete(true)} />
          </div>
        ) : null}
      </div>
      {askingDelete ? (
        <DeletePostQuestion postId={post.id} title={post.title} commentCount={post.commentCount} onCancel={() => setAskingDelete(false)} />
      ) : null}
      <div className="prose-post mt-6" data-testid="post-body" dangerouslySetInnerHTML={{ __html: post.html }} />
      <PostActions post={post} engagement={engagement} canAct={viewerId !== null} isAuthor={isAuthor} />
      {post.deleted ? null : (
        <div className="mt-2 flex justify-end">
          <ReportButton type="post" id={post.id} authorId={post.author.id} />
        </div>
      )}
      {canModerate ? <PostModerationPanel post={post} /> : null}
      {post.commentsClosed ? (
        <p data-testid="comments-closed" className="mt-6 flex items-center gap-2 rounded-md border border-border bg-muted/40 p-3 text-sm text-muted-foreground">
          <Lock aria-hidden className="size-4" /> Модератор закрыл комментарии к этому посту.
        </p>
      ) : null}
      <CommentsSection
        postId={post.id}
        comments={comments}
        totalComments={totalComments}
        more={more}
        viewerId={viewerId}
        canModerate={canModerate}
        commentsClosed={post.commentsClosed}
      />
    </article>
  );
}
