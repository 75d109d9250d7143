/** /post/{id}: a post with its author, category, rendered Markdown, actions and comments (public, bare layout). */
import { createHash } from "node:crypto";
import { Link } from "react-router";
import { Eye, Pencil } from "lucide-react";
import type { Route } from "./+types/read";
import { CommentsSection } from "~/components/comments/comments-section";
import { PostActions } from "~/components/posts/post-actions";
import { Avatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { RankBadges } from "~/components/users/rank-badges";
import { listPostComments } from "~/domain/comments/comments.server";
import { getPostEngagement, recordView } from "~/domain/posts/engagement.server";
import { getPost } from "~/domain/posts/posts.server";
import { getOptionalUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { formatCount, formatDateTime } from "~/lib/format";
import { markdownExcerpt } from "~/lib/markdown.server";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ data, matches }) =>
  data ? pageMeta(matches, data.post.title, data.description) : pageMeta(matches, "Пост не найден");

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return pageData(async () => {
    const viewer = await getOptionalUser(context, request);
    const post = await getPost(context.db, Number(params.id), viewer);
    const visitorKey = viewer
      ? `u:${viewer.id}`
      : `v:${createHash("sha256")
          .update(`${context.clientIp}|${request.headers.get("User-Agent") ?? ""}`)
          .digest("base64url")
          .slice(0, 22)}`;
    const [engagement, comments] = await Promise.all([
      getPostEngagement(context.db, viewer?.id ?? null, post.id),
      listPostComments(context.db, viewer, post.id),
      recordView(context.db, post.id, visitorKey),
    ]);
    return {
      post,
      engagement,
      comments,
      description: markdownExcerpt(post.body, 160),
      viewerId: viewer?.id ?? null,
      canModerate: viewer?.role === "admin" || viewer?.role === "moderator",
    };
  });
}

export default function PostPage({ loaderData }: Route.ComponentProps) {
  const { post, engagement, comments, viewerId, canModerate } = loaderData;
  const isAuthor = viewerId === post.author.id;
  return (
    <article className="mx-auto max-w-3xl">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge variant="secondary" asChild>
          <Link to={`/?category=${post.category.id}`}>{post.category.name}</Link>
        </Badge>
        {post.kind === "article" ? <Badge variant="outline">Статья</Badge> : null}
      </div>
      <h1 className="mt-3 font-heading text-3xl font-extrabold leading-tight sm:text-4xl">{post.title}</h1>
      <div className="mt-5 flex flex-wrap items-center gap-3 border-b border-border pb-5">
        <Avatar username={post.author.username} src={post.author.image} link={`/profile/${post.author.id}`} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <Link to={`/profile/${post.author.id}`} className="font-semibold hover:underline">
              {post.author.username}
            </Link>
            <RankBadges ranks={post.author.ranks} />
          </div>
          <p className="text-sm text-muted-foreground">
            <time dateTime={post.createdAt}>{formatDateTime(post.createdAt)}</time>
            {post.editedAt ? <span> · изменён {formatDateTime(post.editedAt)}</span> : null}
            <span className="ml-3 inline-flex items-center gap-1" title="Просмотры">
              <Eye aria-hidden className="size-3.5" /> {formatCount(post.views)}
            </span>
          </p>
        </div>
        {isAuthor ? (
          <Button asChild variant="outline" size="sm">
            <Link to={`/post/${post.id}/edit`}>
              <Pencil aria-hidden className="size-4" /> Редактировать
            </Link>
          </Button>
        ) : null}
      </div>
      <div className="prose-post mt-6" data-testid="post-body" dangerouslySetInnerHTML={{ __html: post.html }} />
      <PostActions post={post} engagement={engagement} canAct={viewerId !== null} isAuthor={isAuthor} />
      <CommentsSection postId={post.id} comments={comments} viewerId={viewerId} canModerate={canModerate} />
    </article>
  );
}
