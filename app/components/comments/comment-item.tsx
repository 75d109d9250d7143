import { useEffect, useRef, useState } from "react";
import { Icon } from "~/components/ui/icon";
import { RelativeTime } from "~/components/ui/relative-time";
import { useFetcher, useLocation } from "react-router";
import { useFetcherPost } from "~/components/forms/fetcher-marker";
import { LikeButton } from "~/components/likes/like-button";
import { ModerationForm, useIsModerator } from "~/components/moderation/moderation-button";
import { ReportButton } from "~/components/moderation/report-button";
import { RankBadges } from "~/components/users/rank-badges";
import type { PageCommentDto } from "~/domain/comments/comments.server";
import { cn, isPlainClick } from "~/lib/utils";
import { CommentForm, CommentFormHiddenFields, commentsAction, type CommentActionData } from "./comment-form";
import { MemberAvatar, MemberName } from "~/components/users/trust-card";

/** What a deleted comment shows instead of its text (docs/product/content.md#comments). */
export const DELETED_COMMENT_TEXT = "Комментарий удалён";
/** What a comment a moderator deleted shows (issue 10). */
export const MODERATED_TEXT = "Удалено модератором";
/** What a comment hidden by reports shows to everyone but its author and moderators (issue 10). */
export const HIDDEN_TEXT = "Скрыто до решения модератора";

/** A comment's author as the list shows it (a pending comment borrows the viewer's). */
export type CommentAuthor = PageCommentDto["author"];

export interface CommentItemProps {
  postId: number;
  comment: PageCommentDto;
  /** The top-level comment of the thread; a reply whose parent is not it says «в ответ @username». */
  threadId: number;
  viewerId: number | null;
  /** The text of an edit on its way to the server, shown at once. */
  pendingBody?: string;
  /** A delete on its way to the server: show the comment as deleted at once. */
  pendingDelete?: boolean;
  /** A moderator closed the post to new comments: no «Ответить» (docs/product/moderation.md#content-actions). */
  commentsClosed?: boolean;
}

/** The search parameter naming the comment whose reply form a page opens (without JavaScript). */
export const REPLY_PARAM = "reply";

/**
 * One comment: author, time, «в ответ @username» for a reply to a reply, the text (or
 * «Комментарий удалён»), and its actions: like, reply, edit and delete. Edit opens with
 * <details>. «Ответить» is a link to the same page with `?reply=<id>`, which the server renders
 * with that comment's reply form open; with JavaScript the link opens the form in place. So a
 * page carries a reply form only where one was asked for, not one per comment (issue 12: on the
 * bench set's post with 50 comments, the admin's page went from 341 to 262 KB and from 21 to 33
 * requests a second).
 */
export function CommentItem({ postId, comment, threadId, viewerId, pendingBody, pendingDelete, commentsClosed = false }: CommentItemProps) {
  const deleted = comment.deleted || pendingDelete === true;
  const location = useLocation();
  const replying = viewerId !== null && !commentsClosed;
  const [replyOpen, setReplyOpen] = useState(() => new URLSearchParams(location.search).get(REPLY_PARAM) === String(comment.id));
  // Once shown, the form stays mounted (hidden when closed) with what was typed in it.
  const [replyMounted, setReplyMounted] = useState(replyOpen);
  const replyRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (replyOpen) replyRef.current?.querySelector("textarea")?.focus();
  }, [replyOpen]);
  const [editOpen, setEditOpen] = useState(false);
  const showReplyTo = comment.replyTo !== null && comment.replyTo.commentId !== threadId;
  const moderator = useIsModerator();
  return (
    <article id={`comment-${comment.id}`} data-testid="comment" data-deleted={deleted ? "true" : undefined} className="comment">
      <CommentHeader author={comment.author} createdAt={comment.createdAt} editedAt={comment.editedAt ?? null} id={comment.id}>
        {showReplyTo ? (
          <span className="inline-flex items-center gap-1 text-xs text-muted-foreground" data-testid="comment-reply-to">
            <Icon name="corner-down-right" className="size-3" />в ответ{" "}
            <a href={`#comment-${comment.replyTo!.commentId}`} className="font-medium hover:underline">
              @{comment.replyTo!.author.username}
            </a>
          </span>
        ) : null}
      </CommentHeader>
      {deleted ? (
        <p className="comment-body italic text-muted-foreground">{comment.moderated && pendingDelete !== true ? MODERATED_TEXT : DELETED_COMMENT_TEXT}</p>
      ) : comment.html === null ? (
        <p className="comment-body italic text-muted-foreground">{HIDDEN_TEXT}</p>
      ) : pendingBody !== undefined ? (
        <p className="comment-body whitespace-pre-wrap opacity-70" aria-busy>
          {pendingBody}
        </p>
      ) : (
        <>
          {comment.hidden ? <p className="mt-3 text-xs text-muted-foreground">{HIDDEN_TEXT}: видно вам и модераторам</p> : null}
          <div className="comment-body prose-post" dangerouslySetInnerHTML={{ __html: comment.html ?? "" }} />
        </>
      )}
      {deleted ? (
        moderator && comment.moderated && pendingDelete !== true ? (
          <footer className="mt-3">
            <ModerationForm intent="restore" type="comment" id={comment.id} variant="ghost" className="inline-flex">
              <Icon name="archive-restore" className="size-3.5" /> Восстановить
            </ModerationForm>
          </footer>
        ) : null
      ) : (
        <footer className="comment-footer">
          <LikeButton
            target="comment"
            targetId={comment.id}
            liked={comment.liked === true}
            count={comment.likeCount}
            disabled={viewerId === null || viewerId === comment.author.id}
          />
          {replying ? (
            <a
              href={replyHref(location, comment.id, replyOpen)}
              className="comment-action"
              aria-expanded={replyOpen}
              onClick={(event) => {
                // A click meant for a new tab or window follows the link.
                if (!isPlainClick(event)) return;
                event.preventDefault();
                setReplyMounted(true);
                setReplyOpen(!replyOpen);
              }}
            >
              <Icon name="reply" className="size-3.5" /> Ответить
            </a>
          ) : null}
          {comment.canEdit ? (
            <details className="group open:basis-full" open={editOpen} onToggle={(e) => setEditOpen(focusWhenOpened(e.currentTarget))}>
              <summary className="comment-action">
                <Icon name="pencil" className="size-3.5" /> Изменить
              </summary>
              <div className="mt-2">
                <CommentForm
                  key={comment.body}
                  postId={postId}
                  intent="edit"
                  commentId={comment.id}
                  defaultBody={comment.body ?? ""}
                  label="Текст комментария"
                  submitLabel="Сохранить"
                  onSaved={() => setEditOpen(false)}
                />
              </div>
            </details>
          ) : null}
          {comment.canDelete ? <DeleteCommentButton postId={postId} commentId={comment.id} /> : null}
          {comment.html !== null && viewerId !== comment.author.id ? (
            <ReportButton type="comment" id={comment.id} authorId={comment.author.id} compact />
          ) : null}
          {replying && replyMounted ? (
            // Closed again, the form stays (hidden) with what was typed in it.
            <div ref={replyRef} className="mt-2 basis-full" hidden={!replyOpen}>
              <CommentForm
                postId={postId}
                intent="create"
                parentId={comment.id}
                label={`Ответ для @${comment.author.username}`}
                submitLabel="Ответить"
                placeholder={`Ответ для @${comment.author.username}…`}
                onSaved={() => setReplyOpen(false)}
              />
            </div>
          ) : null}
        </footer>
      )}
    </article>
  );
}

/**
 * Where «Ответить» leads without JavaScript: this page with `?reply=<commentId>` (or without it,
 * to close the open form), keeping its other parameters, at the comment's anchor.
 */
function replyHref({ pathname, search }: { pathname: string; search: string }, commentId: number, open: boolean): string {
  const params = new URLSearchParams(search);
  if (open) params.delete(REPLY_PARAM);
  else params.set(REPLY_PARAM, String(commentId));
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ""}#comment-${commentId}`;
}

/** Puts the cursor in the form a <details> has just opened; returns whether it is open. */
function focusWhenOpened(details: HTMLDetailsElement): boolean {
  if (details.open) details.querySelector("textarea")?.focus();
  return details.open;
}

function CommentHeader({
  author,
  createdAt,
  editedAt,
  id,
  children,
}: {
  author: CommentAuthor;
  createdAt: string;
  editedAt: string | null;
  id: number | null;
  children?: React.ReactNode;
}) {
  const time = <RelativeTime iso={createdAt} />;
  return (
    <header className="comment-header">
      <MemberAvatar member={author} />
      <div className="comment-who">
        <div className="comment-meta">
          <MemberName member={author} />
          <RankBadges ranks={author.ranks} />
          {children}
        </div>
        <p className="comment-date">
          {id === null ? time : <a href={`#comment-${id}`}>{time}</a>}
          {editedAt ? <span data-testid="comment-edited"> · изменён</span> : null}
        </p>
      </div>
    </header>
  );
}

/** The id of the page's one comment-delete form (decision 0039, as the comment-like forms). */
const DELETE_FORM_ID = "comment-delete";

/**
 * The page's one hidden form deleting a comment (decision 0039): each «Удалить» button posts it
 * with its comment's id, instead of carrying a form of its own (a CSRF token and two fields, 400
 * bytes a comment on an admin's page). Rendered where some comment on the page may be deleted.
 */
export function SharedDeleteCommentForm({ postId }: { postId: number }) {
  return (
    <form id={DELETE_FORM_ID} method="post" action={commentsAction(postId)} hidden>
      <CommentFormHiddenFields fetcher={false} />
      <input type="hidden" name="intent" value="delete" />
    </form>
  );
}

/**
 * «Удалить»: a button of the page's shared delete form; with JavaScript its fetcher sends it, and
 * the comment shows as deleted at once (usePendingChanges reads the fetcher's form).
 */
function DeleteCommentButton({ postId, commentId }: { postId: number; commentId: number }) {
  const fetcher = useFetcher<CommentActionData>();
  const post = useFetcherPost(fetcher);
  const refusal = fetcher.state === "idle" ? (fetcher.data?.result.error?.[""]?.[0] ?? fetcher.data?.result.error?.commentId?.[0]) : undefined;
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="submit"
        form={DELETE_FORM_ID}
        name="commentId"
        value={commentId}
        className="comment-action comment-action-danger"
        disabled={fetcher.state !== "idle"}
        onClick={(event) => {
          event.preventDefault();
          post(commentsAction(postId), { intent: "delete", commentId: String(commentId) });
        }}
      >
        <Icon name="trash-2" className="size-3.5" /> Удалить
      </button>
      {refusal ? (
        <span role="alert" className="text-xs text-destructive">
          {refusal}
        </span>
      ) : null}
    </span>
  );
}

/**
 * A comment the viewer has just sent, shown before the server answers (JavaScript only).
 * It has no id yet, so it has no actions.
 */
export function PendingComment({ author, body, replyTo }: { author: CommentAuthor; body: string; replyTo?: string }) {
  return (
    <article data-testid="comment" aria-busy className={cn("rounded-lg border border-dashed border-border bg-card p-4 opacity-70")}>
      <CommentHeader author={author} createdAt={new Date().toISOString()} editedAt={null} id={null}>
        {replyTo ? (
          <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
            <Icon name="corner-down-right" className="size-3" />в ответ @{replyTo}
          </span>
        ) : null}
      </CommentHeader>
      <p className="comment-body whitespace-pre-wrap">{body}</p>
      <p className="mt-2 text-xs text-muted-foreground">Отправляем…</p>
    </article>
  );
}
