/**
 * Comments on posts (docs/product/content.md#comments, issue 3), the reading side: the public shapes and
 * the lists. Writing, editing and deleting live in write.server.ts.
 *
 * Replies make threads shown with two levels of nesting; @mentions link to profiles.
 * Deleting is soft: the row stays with `deleted_at` set, its text is never sent again, and
 * its replies keep their place in the thread.
 */
import { and, asc, count, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { comments, posts, users } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { linkMentions } from "~/lib/markdown.server";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { likedIds } from "../likes/likes.server";
import { publicPostSql, seesHidden } from "../moderation/visibility.server";
import { resolveCookedMentions, type MentionMap } from "../mentions/mentions.server";
import { cookedOf } from "../cooked/cooked.server";
import { toUserRefDto, type UserRefDto, type UserRow } from "../users/users.server";

export type CommentRow = typeof comments.$inferSelect;

/**
 * One comment as a viewer sees it in a thread. Times are ISO strings.
 * A deleted comment keeps its place, author and time, but `body` and `html` are null and
 * the page shows «Комментарий удалён» instead («Удалено модератором» when `moderated`); it can
 * no longer be liked, edited or answered. A comment hidden by reports (`hidden`) keeps its place
 * too, its text shown only to its author and moderators (issue 10).
 */
export interface CommentDto {
  id: number;
  postId: number;
  /** The comment answered, or null for a top-level comment. */
  parentId: number | null;
  /** The comment answered and its author (for «в ответ @username»), or null at the top level. */
  replyTo: { commentId: number; author: { id: number; username: string } } | null;
  author: UserRefDto;
  /** Markdown source (for the edit form); null once deleted, and on pages unless the viewer may edit it (commentsForPage). */
  body: string | null;
  /** Sanitised HTML with @mentions as profile links; null once deleted. */
  html: string | null;
  deleted: boolean;
  /** Deleted by a moderator: «Удалено модератором» (issue 10). */
  moderated: boolean;
  /** Hidden by reports until a moderator decides; `body` and `html` are null unless the viewer wrote it or moderates. */
  hidden: boolean;
  createdAt: string;
  editedAt: string | null;
  likeCount: number;
  /** Whether the viewer has liked it (false for visitors). */
  liked: boolean;
  /** The viewer wrote it and it is not deleted. */
  canEdit: boolean;
  /** The viewer wrote it or moderates, and it is not deleted. */
  canDelete: boolean;
  /**
   * For a top-level comment: every reply in its thread, at any depth, oldest first, shown one
   * level in (the second level of visual nesting). Always empty for a reply.
   */
  replies: CommentDto[];
}

/** A member's comment in their profile list: with the post it was written under. */
export interface ProfileCommentDto {
  id: number;
  post: { id: number; title: string };
  parentId: number | null;
  body: string;
  html: string;
  createdAt: string;
  editedAt: string | null;
  likeCount: number;
}

/** A comment's flags that most comments have false. */
type CommentFlag = "deleted" | "moderated" | "hidden" | "liked" | "canEdit" | "canDelete";

/**
 * A comment as a page's data carries it (commentsForPage): CommentDto with each flag present only
 * when true, the Markdown source only where the viewer may edit it, `editedAt` only once edited,
 * and the author without the display name a comment does not show.
 */
export type PageCommentDto = Omit<CommentDto, CommentFlag | "body" | "editedAt" | "author" | "replies"> &
  Partial<Record<CommentFlag, true>> & {
    body?: string;
    editedAt?: string;
    author: Omit<UserRefDto, "displayName">;
    replies: PageCommentDto[];
  };

/**
 * Comments for a page: the Markdown source stays only on the viewer's own editable comments,
 * which the inline edit form needs; the others carry their rendered HTML alone, so the page's
 * hydration data does not hold every text twice; and what is false or empty on most comments is
 * left out (50 comments' hydration data 24 → 19 KB; docs/product/engineering.md#speed; issue 12).
 */
export function commentsForPage(list: CommentDto[]): PageCommentDto[] {
  return list.map(({ deleted, moderated, hidden, liked, canEdit, canDelete, body, editedAt, author, replies, ...rest }) => {
    const flags: Partial<Record<CommentFlag, true>> = {};
    for (const [flag, value] of Object.entries({ deleted, moderated, hidden, liked, canEdit, canDelete })) if (value) flags[flag as CommentFlag] = true;
    return {
      ...rest,
      ...flags,
      ...(canEdit && body !== null ? { body } : {}),
      ...(editedAt !== null ? { editedAt } : {}),
      author: { id: author.id, username: author.username, image: author.image, ranks: author.ranks },
      replies: commentsForPage(replies),
    };
  });
}

/** Moderators and admins may delete anyone's comment (docs/product/content.md#comments). */
export function canModerate(user: Pick<UserRow, "role"> | null): boolean {
  return user?.role === "moderator" || user?.role === "admin";
}

/** What mapping a comment needs besides its row and author. */
export interface DtoContext {
  viewer: UserRow | null;
  mentions: MentionMap;
  liked: Set<number>;
  /** The comments answered, by id: their authors, for «в ответ». */
  parents: Map<number, { id: number; author: { id: number; username: string } }>;
}

/** The one mapper from a comment row to its public shape (text hidden once deleted). */
export function toCommentDto(row: CommentRow, author: UserRow, ctx: DtoContext): CommentDto {
  const deleted = row.deletedAt !== null;
  const hidden = !deleted && row.hiddenAt !== null;
  const readable = !deleted && (!hidden || seesHidden(ctx.viewer, row.authorId));
  const own = ctx.viewer?.id === row.authorId;
  const parent = row.parentId === null ? undefined : ctx.parents.get(row.parentId);
  return {
    id: row.id,
    postId: row.postId,
    parentId: row.parentId,
    replyTo: parent ? { commentId: parent.id, author: parent.author } : null,
    author: toUserRefDto(author),
    body: readable ? row.body : null,
    html: readable ? linkMentions(cookedOf(row), ctx.mentions) : null,
    deleted,
    moderated: deleted && row.deletedByModerator,
    hidden,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    likeCount: row.likeCount,
    liked: !deleted && ctx.liked.has(row.id),
    canEdit: !deleted && own,
    canDelete: !deleted && (own || canModerate(ctx.viewer)),
    replies: [],
  };
}

/**
 * The comment threads of post `postId` as `viewer` sees them: top-level comments oldest
 * first, each with its replies (oldest first) in `replies`. Deleted comments stay in place.
 * Three queries whatever the number of comments: the comments joined with their authors,
 * the mentioned members, and the viewer's likes. An unknown post has no comments ([]).
 */
export async function listPostComments(db: Db, viewer: UserRow | null, postId: number): Promise<CommentDto[]> {
  return (await listPostCommentThreads(db, viewer, postId, Number.POSITIVE_INFINITY)).threads;
}

/** Top-level comments a post page shows at a time; «Показать ещё» adds as many (docs/product/engineering.md#speed). */
export const COMMENT_THREADS_PER_PAGE = 50;

/**
 * Where a post page shows comment `commentId` of post `postId`: its URL, with `?comments=all`
 * when the post has more threads than the first page shows, so the comment is on the page its
 * anchor names (after a comment form without JavaScript; issue 12). One query.
 */
export async function commentUrl(db: Db, postId: number, commentId: number): Promise<string> {
  const [row] = await db
    .select({ threads: count() })
    .from(comments)
    .where(and(eq(comments.postId, postId), isNull(comments.parentId)));
  const paged = (row?.threads ?? 0) > COMMENT_THREADS_PER_PAGE;
  return `/post/${postId}${paged ? "?comments=all" : ""}#comment-${commentId}`;
}

/** The first threads of a post's comments, and how many there are in all. */
export interface CommentThreadsPage {
  /** The first `limit` threads, as listPostComments gives them. */
  threads: CommentDto[];
  /** Threads (top-level comments) in all, shown or not. */
  totalThreads: number;
  /** Comments in all threads that are not deleted (the heading's count). */
  totalComments: number;
}

/**
 * The first `limit` comment threads of post `postId` as `viewer` sees them (see
 * listPostComments), for the post page's paging (issue 12): only these threads' Markdown is
 * rendered and their mentions and likes looked up. Same three queries.
 */
export async function listPostCommentThreads(db: Db, viewer: UserRow | null, postId: number, limit: number): Promise<CommentThreadsPage> {
  if (!isValidId(postId)) return { threads: [], totalThreads: 0, totalComments: 0 };
  const rows = await db
    .select({ comment: comments, author: users })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorId))
    .where(eq(comments.postId, postId))
    .orderBy(asc(comments.createdAt), asc(comments.id));

  const byId = new Map(rows.map((r) => [r.comment.id, r]));
  // A reply's thread is the top-level comment its chain of parents leads to.
  const rootOf = (row: CommentRow): number | null => {
    let current = row;
    for (let hops = 0; current.parentId !== null && hops <= rows.length; hops += 1) {
      const parent = byId.get(current.parentId);
      if (!parent) return null;
      current = parent.comment;
    }
    return current.parentId === null ? current.id : null;
  };
  const roots = new Map(rows.map((r) => [r.comment.id, rootOf(r.comment)]));
  const topLevel = rows.filter((r) => r.comment.parentId === null);
  const shownRoots = new Set(topLevel.slice(0, limit).map((r) => r.comment.id));
  const shown = rows.filter((r) => {
    const root = roots.get(r.comment.id);
    return root !== null && root !== undefined && shownRoots.has(root);
  });
  const totalComments = rows.filter((r) => r.comment.deletedAt === null && roots.get(r.comment.id) != null).length;

  const live = shown.filter((r) => r.comment.deletedAt === null && (r.comment.hiddenAt === null || seesHidden(viewer, r.comment.authorId)));
  const [mentions, liked] = await Promise.all([
    resolveCookedMentions(
      db,
      live.map((r) => cookedOf(r.comment)),
    ),
    live.length > 0
      ? likedIds(
          db,
          viewer?.id ?? null,
          "comment",
          live.map((r) => r.comment.id),
        )
      : new Set<number>(),
  ]);

  const parents: DtoContext["parents"] = new Map();
  for (const { comment, author } of rows) parents.set(comment.id, { id: comment.id, author: { id: author.id, username: author.username } });
  const ctx: DtoContext = { viewer, mentions, liked, parents };

  const threads: CommentDto[] = [];
  const threadById = new Map<number, CommentDto>();
  for (const { comment, author } of shown) {
    if (comment.parentId !== null) continue;
    const dto = toCommentDto(comment, author, ctx);
    threads.push(dto);
    threadById.set(comment.id, dto);
  }
  for (const { comment, author } of shown) {
    if (comment.parentId === null) continue;
    threadById.get(roots.get(comment.id)!)?.replies.push(toCommentDto(comment, author, ctx));
  }
  return { threads, totalThreads: topLevel.length, totalComments };
}

/**
 * A page of member `memberId`'s comments that are not deleted, newest first, each with the
 * id and title of its post (GET /api/profile/{id}/comments, docs/product/content.md#comments). Comments hidden by
 * reports, and comments under posts a moderator deleted or reports hid, are left out (issue 10).
 * Four queries whatever the page size: the member, the rows joined with their posts, the
 * total, and the mentioned members. Throws NotFound (`profile_not_found`) for an unknown member.
 */
export async function listMemberComments(db: Db, memberId: number, params: PageParams): Promise<Page<ProfileCommentDto>> {
  const member = isValidId(memberId) ? (await db.select({ id: users.id }).from(users).where(eq(users.id, memberId)).limit(1))[0] : undefined;
  if (!member) throw new NotFound("Пользователь не найден", "profile_not_found");
  const where = and(eq(comments.authorId, member.id), isNull(comments.deletedAt), isNull(comments.hiddenAt), publicPostSql);
  const [rows, [total]] = await Promise.all([
    db
      .select({ comment: comments, post: { id: posts.id, title: posts.title } })
      .from(comments)
      .innerJoin(posts, eq(posts.id, comments.postId))
      .where(where)
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ value: count() }).from(comments).innerJoin(posts, eq(posts.id, comments.postId)).where(where),
  ]);
  const mentions = await resolveCookedMentions(
    db,
    rows.map((r) => cookedOf(r.comment)),
  );
  return toPage(
    rows.map(({ comment, post }) => ({
      id: comment.id,
      post,
      parentId: comment.parentId,
      body: comment.body,
      html: linkMentions(cookedOf(comment), mentions),
      createdAt: comment.createdAt.toISOString(),
      editedAt: comment.editedAt?.toISOString() ?? null,
      likeCount: comment.likeCount,
    })),
    total?.value ?? 0,
    params,
  );
}
