import { useFetchers } from "react-router";
import { Icon } from "~/components/ui/icon";
import { Link } from "~/components/ui/link";
import type { PageCommentDto } from "~/domain/comments/comments.server";
import { formatCount } from "~/lib/format";
import { Button } from "~/components/ui/button";
import { SharedLikeForms } from "~/components/likes/like-button";
import { useRootData } from "~/root-data";
import { CommentForm, commentsAction } from "./comment-form";
import { CommentItem, PendingComment, SharedDeleteCommentForm, type CommentAuthor } from "./comment-item";

interface PendingCreate {
  key: string;
  parentId: number | null;
  body: string;
  /** The saved comment's id once the server has answered (the page reloads its data after). */
  savedId?: number;
}

/**
 * The comment changes on their way to the server (fetchers submitting, or reloading the
 * page data after a success), so the thread shows them at once (optimistic UI).
 */
function usePendingChanges(postId: number) {
  const action = commentsAction(postId);
  const creates: PendingCreate[] = [];
  const edits = new Map<number, string>();
  const deletes = new Set<number>();
  for (const fetcher of useFetchers()) {
    const form = fetcher.formData;
    if (!form || fetcher.formAction !== action) continue;
    // A refused form goes back to idle without reloading: only in-flight or accepted ones count.
    if (fetcher.state === "loading" && (fetcher.data as { commentId?: number } | undefined)?.commentId === undefined) continue;
    const intent = form.get("intent");
    const body = String(form.get("body") ?? "").trim();
    const commentId = Number(form.get("commentId"));
    if (intent === "create" && body) {
      const parentId = Number(form.get("parentId"));
      const savedId = (fetcher.data as { commentId?: number } | undefined)?.commentId;
      creates.push({ key: fetcher.key, parentId: parentId > 0 ? parentId : null, body, savedId });
    } else if (intent === "edit" && body && commentId > 0) {
      edits.set(commentId, body);
    } else if (intent === "delete" && commentId > 0) {
      deletes.add(commentId);
    }
  }
  return { creates, edits, deletes };
}

/**
 * The comments under a post (docs/product/content.md#comments): the form for a new comment, then the
 * threads, oldest first. A thread is a top-level comment with all its replies one level in
 * (two levels of visual nesting); a reply to a reply says «в ответ @username».
 * Every form works without JavaScript; with it, changes show at once.
 */
export function CommentsSection({
  postId,
  comments,
  totalComments,
  more = null,
  viewerId,
  canModerate: _canModerate,
  commentsClosed = false,
}: {
  postId: number;
  comments: PageCommentDto[];
  /** Comments not deleted in every thread, shown or not (the heading's count); defaults to those given. */
  totalComments?: number;
  /**
   * The URL of the next page of threads (`?comments=N`), or null when all are shown. A plain
   * link without JavaScript; with it, React Router loads it in place, so the threads append.
   */
  more?: string | null;
  viewerId: number | null;
  /** Moderators may delete any comment; the server already sets each comment's canDelete. */
  canModerate: boolean;
  /** A moderator closed the post to new comments: no form (docs/product/moderation.md#content-actions). */
  commentsClosed?: boolean;
}) {
  const viewer = useRootData()?.viewer;
  const pending = usePendingChanges(postId);

  const threadOf = new Map<number, PageCommentDto>();
  const byId = new Map<number, PageCommentDto>();
  for (const thread of comments) {
    for (const comment of [thread, ...thread.replies]) {
      threadOf.set(comment.id, thread);
      byId.set(comment.id, comment);
    }
  }
  // A saved comment can arrive with another fetcher's reload (a like sent just before) while its own
  // form still counts as in flight: once the list holds it, its pending copy goes.
  const creates = pending.creates.filter((create) => create.savedId === undefined || !byId.has(create.savedId));
  const pendingReplies = new Map<number, PendingCreate[]>();
  const pendingTop: PendingCreate[] = [];
  for (const create of creates) {
    const thread = create.parentId === null ? undefined : threadOf.get(create.parentId);
    if (thread) pendingReplies.set(thread.id, [...(pendingReplies.get(thread.id) ?? []), create]);
    else if (create.parentId === null) pendingTop.push(create);
  }
  const me: CommentAuthor | null = viewer ? { id: viewer.id, username: viewer.username, image: viewer.image, ranks: viewer.ranks } : null;

  const loaded = [...byId.values()].filter((c) => !c.deleted);
  const unloaded = totalComments === undefined ? 0 : Math.max(0, totalComments - loaded.length);
  const visible = loaded.filter((c) => !pending.deletes.has(c.id)).length + unloaded + creates.length;
  const item = (comment: PageCommentDto, threadId: number) => (
    <CommentItem
      postId={postId}
      comment={comment}
      threadId={threadId}
      viewerId={viewerId}
      pendingBody={pending.edits.get(comment.id)}
      pendingDelete={pending.deletes.has(comment.id)}
      commentsClosed={commentsClosed}
    />
  );

  return (
    <section id="comments" aria-labelledby="comments-heading" className="mt-10 scroll-mt-24 border-t border-border pt-8" data-testid="comments">
      <h2 id="comments-heading" className="flex items-center gap-2 font-heading text-2xl font-bold">
        <Icon name="message-square" className="size-6 text-primary" /> Комментарии
        <span className="text-base font-semibold text-muted-foreground" data-testid="comments-count">
          {formatCount(visible)}
        </span>
      </h2>

      <div className="mt-5">
        {commentsClosed ? null : viewerId !== null ? (
          <CommentForm postId={postId} intent="create" label="Ваш комментарий" submitLabel="Отправить" placeholder="Что вы об этом думаете?" />
        ) : (
          <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted-foreground">
            <Link to={`/auth/login?redirect=${encodeURIComponent(`/post/${postId}`)}`} className="font-medium text-primary hover:underline">
              Войдите
            </Link>{" "}
            или{" "}
            <Link to="/auth/register" className="font-medium text-primary hover:underline">
              зарегистрируйтесь
            </Link>
            , чтобы оставить комментарий.
          </p>
        )}
      </div>

      {comments.length === 0 && pendingTop.length === 0 ? (
        <p className="mt-6 text-sm text-muted-foreground">Комментариев пока нет. Будьте первым!</p>
      ) : (
        // A member's like and delete buttons post the page's shared forms, not a form each (decision 0039).
        <SharedLikeForms target="comment" enabled={viewerId !== null}>
          {[...byId.values()].some((comment) => comment.canDelete) ? <SharedDeleteCommentForm postId={postId} /> : null}
          <ol className="mt-6 grid gap-4" aria-label="Обсуждение">
            {comments.map((thread) => {
              const waiting = pendingReplies.get(thread.id) ?? [];
              return (
                <li key={thread.id} data-testid="comment-thread">
                  {item(thread, thread.id)}
                  {thread.replies.length > 0 || waiting.length > 0 ? (
                    <ol className="comment-replies" aria-label={`Ответы на комментарий ${thread.author.username}`}>
                      {thread.replies.map((reply) => (
                        <li key={reply.id}>{item(reply, thread.id)}</li>
                      ))}
                      {me
                        ? waiting.map((create) => {
                            const parent = create.parentId === null ? undefined : byId.get(create.parentId);
                            return (
                              <li key={create.key}>
                                <PendingComment
                                  author={me}
                                  body={create.body}
                                  replyTo={parent && parent.id !== thread.id ? parent.author.username : undefined}
                                />
                              </li>
                            );
                          })
                        : null}
                    </ol>
                  ) : null}
                </li>
              );
            })}
            {me
              ? pendingTop.map((create) => (
                  <li key={create.key} data-testid="comment-thread">
                    <PendingComment author={me} body={create.body} />
                  </li>
                ))
              : null}
          </ol>
        </SharedLikeForms>
      )}
      {more ? (
        <p className="mt-6 text-center">
          <Button asChild variant="outline">
            <Link to={more} preventScrollReset replace data-testid="comments-more">
              Показать ещё
            </Link>
          </Button>
        </p>
      ) : null}
    </section>
  );
}
