/**
 * Posts and articles: write, edit, read and list (docs/product/content.md#posts, docs/product/limits.md#content-limits).
 * Lists fetch their rows and authors in one joined query plus one count: no N+1.
 */
import { and, count, desc, eq, getTableColumns, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { posts, users } from "~/db/schema";
import { Conflict, Forbidden, NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { linkMentions, markdownExcerpt } from "~/lib/markdown.server";
import { COUNT_CAP, toCappedPage, type Page, type PageParams } from "~/lib/pagination";
import { eventBus } from "~/lib/events.server";
import { consumeLimit } from "~/lib/rate-limit.server";
import { mentionTargets, resolveCookedMentions, type MentionMap } from "../mentions/mentions.server";
import { cookedColumns, cookedOf } from "../cooked/cooked.server";
import { toUserRefDto, type UserRefDto, type UserRow } from "../users/users.server";
import { assertMayPublish } from "../moderation/sanctions.server";
import { listablePostSql, publicPostSql, seesHidden, type Reader } from "../moderation/visibility.server";
import { isModeratorRole } from "../users/roles";
import { findCategory } from "./categories";
import type { PostInput } from "./schemas";

type PostRow = Omit<typeof posts.$inferSelect, "searchVector">;
type PostListRow = Omit<PostRow, "body" | "cookedHtml" | "cookedVersion">;

/** Every post column but the search vector, which only search reads. */
const { searchVector: _searchVector, ...postColumns } = getTableColumns(posts);
/** …and without the body and its HTML, which lists never need (it may hold 50 000 characters). */
const { body: _body, cookedHtml: _cookedHtml, cookedVersion: _cookedVersion, ...listColumns } = postColumns;

/** A post in a list: an excerpt instead of the body. Times are ISO strings. */
export interface PostSummaryDto {
  id: number;
  title: string;
  excerpt: string;
  kind: "post" | "article";
  category: { id: number; name: string };
  author: UserRefDto;
  createdAt: string;
  editedAt: string | null;
  views: number;
  likeCount: number;
  commentCount: number;
  /** Pinned on the home feed by a moderator (issue 10). */
  pinned: boolean;
  /** A moderator closed it to new comments (issue 10). */
  commentsClosed: boolean;
  /** Hidden by reports until a moderator decides: only its author and moderators see it (issue 10). */
  hidden: boolean;
  /** Deleted by a moderator: only moderators open it, to restore it (issue 10). */
  deleted: boolean;
}

/** A whole post: its Markdown source, the sanitised HTML rendered from it and its stored plain-text excerpt. */
export interface PostDto extends PostSummaryDto {
  body: string;
  html: string;
}

export interface ListPostsFilter {
  categoryId?: number;
  kind?: "post" | "article";
  authorId?: number;
  /**
   * Who reads (issue 10): a post hidden by reports is listed only for its author and moderators;
   * without a reader only posts visible to everyone are listed. Deleted posts are never listed.
   */
  reader?: Reader;
  /** The home feed: the pinned posts (at most 3, newest pin first) come before the others. */
  pinnedFirst?: boolean;
}

function base(row: PostListRow, author: UserRow) {
  return {
    id: row.id,
    title: row.title,
    kind: row.kind,
    category: { id: row.categoryId, name: findCategory(row.categoryId)?.name ?? "" },
    author: toUserRefDto(author),
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    views: row.views,
    likeCount: row.likeCount,
    commentCount: row.commentCount,
    pinned: row.pinnedAt !== null,
    commentsClosed: row.commentsClosedAt !== null,
    hidden: row.hiddenAt !== null,
    deleted: row.deletedAt !== null,
  };
}

/** The one mapper from a post row to its whole shape: the stored cooked HTML with `mentions` linked. */
export function toPostDto(row: PostRow, author: UserRow, mentions: MentionMap): PostDto {
  return { ...base(row, author), excerpt: row.excerpt, body: row.body, html: linkMentions(cookedOf(row), mentions) };
}

export function toPostSummaryDto(row: PostListRow, author: UserRow): PostSummaryDto {
  return { ...base(row, author), excerpt: row.excerpt };
}

/**
 * Publishes a post by `actor`. Returns the new post; publishes `post.created` (with the
 * members to notify of their mention) after the insert.
 * Throws MemberMuted (403 `member_muted`) or AccountSuspended while the author is sanctioned
 * (docs/product/moderation.md#suspension-and-mute), RateLimited (429) for a second post within
 * 30 s (docs/product/limits.md#rate-limits). `input` must already be parsed by PostInputSchema.
 */
export async function createPost(db: Db, actor: UserRow, input: PostInput): Promise<PostDto> {
  await assertMayPublish(db, actor.id);
  await consumeLimit(db, "posts", String(actor.id), "Публиковать можно не чаще одного поста в 30 секунд");
  const [row] = await db
    .insert(posts)
    .values({
      authorId: actor.id,
      title: input.title,
      body: input.body,
      excerpt: markdownExcerpt(input.body),
      ...cookedColumns(input.body),
      categoryId: input.categoryId,
      kind: input.kind,
    })
    .returning(postColumns);
  const mentionedUserIds = await mentionTargets(db, actor.id, input.body);
  eventBus(db).publish({ type: "post.created", postId: row!.id, authorId: actor.id, mentionedUserIds });
  return toPostDto(row!, actor, await resolveCookedMentions(db, [cookedOf(row!)]));
}

/**
 * Replaces the title, body, category and kind of post `id`, marking it edited.
 * Throws NotFound for an unknown post, Forbidden (`not_post_author`) for anyone but its author,
 * Conflict (`post_deleted`) for a post a moderator deleted, MemberMuted or AccountSuspended while
 * the author is sanctioned (an edit publishes new text).
 */
export async function updatePost(db: Db, actor: UserRow, id: number, input: PostInput): Promise<PostDto> {
  const existing = await findPostRow(db, id);
  if (!existing) throw new NotFound("Пост не найден", "post_not_found");
  assertAuthor(existing, actor);
  if (existing.deletedAt) throw new Conflict("Пост удалён модератором — изменить его нельзя", "post_deleted");
  await assertMayPublish(db, actor.id);
  const [row] = await db
    .update(posts)
    .set({
      title: input.title,
      body: input.body,
      excerpt: markdownExcerpt(input.body),
      ...cookedColumns(input.body),
      categoryId: input.categoryId,
      kind: input.kind,
      editedAt: new Date(),
    })
    .where(eq(posts.id, id))
    .returning(postColumns);
  return toPostDto(row!, actor, await resolveCookedMentions(db, [cookedOf(row!)]));
}

/** Throws Forbidden unless `actor` wrote the post (docs/product/content.md#posts: the author edits). */
export function assertAuthor(post: Pick<PostRow, "authorId">, actor: Pick<UserRow, "id">): void {
  if (post.authorId !== actor.id) throw new Forbidden("Редактировать пост может только его автор", "not_post_author");
}

async function findPostRow(db: Db, id: number): Promise<PostRow | undefined> {
  if (!isValidId(id)) return undefined;
  const [row] = await db.select(postColumns).from(posts).where(eq(posts.id, id)).limit(1);
  return row;
}

/**
 * Post `id` with its author and rendered HTML, as `reader` may see it (issue 10,
 * docs/product/moderation.md#hide-threshold): a post hidden by reports only for its author and
 * moderators, a post a moderator deleted only for moderators (to restore it).
 * Throws NotFound (`post_not_found`; `post_deleted`, «Пост удалён модератором» or «Пост удалён
 * автором», for a deleted one).
 */
export async function getPost(db: Db, id: number, reader?: Reader): Promise<PostDto> {
  if (!isValidId(id)) throw new NotFound("Пост не найден", "post_not_found");
  const [found] = await db
    .select({ post: postColumns, author: users })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(eq(posts.id, id))
    .limit(1);
  if (!found) throw new NotFound("Пост не найден", "post_not_found");
  if (found.post.deletedAt && !(reader && isModeratorRole(reader.role))) {
    const byAuthor = found.post.deletedById === found.post.authorId;
    throw new NotFound(byAuthor ? "Пост удалён автором" : "Пост удалён модератором", "post_deleted");
  }
  if (found.post.hiddenAt && !seesHidden(reader, found.post.authorId)) throw new NotFound("Пост не найден", "post_not_found");
  return toPostDto(found.post, found.author, await resolveCookedMentions(db, [cookedOf(found.post)]));
}

/**
 * A page of posts, newest first, optionally filtered by category, kind and author, that
 * `filter.reader` may see (none deleted; hidden ones only for their author and moderators).
 * With `pinnedFirst` (the home feed) the pinned posts come first, newest pin first, and the
 * others follow newest first: pages are cut from that one order.
 * Two queries whatever the page size (three with `pinnedFirst`): rows joined with authors, and
 * the count, which stops at COUNT_CAP (`more` says there are more; app/lib/pagination.ts).
 */
export async function listPosts(db: Db, filter: ListPostsFilter, params: PageParams): Promise<Page<PostSummaryDto>> {
  const conditions: SQL[] = [listablePostSql(filter.reader)];
  if (filter.categoryId !== undefined) conditions.push(eq(posts.categoryId, filter.categoryId));
  if (filter.kind !== undefined) conditions.push(eq(posts.kind, filter.kind));
  if (filter.authorId !== undefined) conditions.push(eq(posts.authorId, filter.authorId));
  const where = and(...conditions);
  const offset = (params.page - 1) * params.perPage;
  const select = () => db.select({ post: listColumns, author: users }).from(posts).innerJoin(users, eq(users.id, posts.authorId));
  const counted = countCapped(db, filter, where);
  if (!filter.pinnedFirst) {
    const [rows, total] = await Promise.all([
      select().where(where).orderBy(desc(posts.createdAt), desc(posts.id)).limit(params.perPage).offset(offset),
      counted,
    ]);
    return toCappedPage(
      rows.map((r) => toPostSummaryDto(r.post, r.author)),
      total,
      params,
    );
  }
  // Both parts read through the same `where`: a pinned post hidden by reports later leads only its author's and moderators' feed.
  const [pinned, total] = await Promise.all([
    select()
      .where(and(where, isNotNull(posts.pinnedAt)))
      .orderBy(desc(posts.pinnedAt), desc(posts.id)),
    counted,
  ]);
  const fromPinned = pinned.slice(offset, offset + params.perPage);
  const rest =
    fromPinned.length < params.perPage
      ? await select()
          .where(and(where, isNull(posts.pinnedAt)))
          .orderBy(desc(posts.createdAt), desc(posts.id))
          .limit(params.perPage - fromPinned.length)
          .offset(Math.max(0, offset - pinned.length))
      : [];
  return toCappedPage(
    [...fromPinned, ...rest].map((r) => toPostSummaryDto(r.post, r.author)),
    total,
    params,
  );
}

/** How long a list seen holding more than COUNT_CAP public posts is taken to hold more still (ms). */
const OVER_CAP_MEMORY_MS = 60_000;

/** Per database: the filters (`overCapKey`) whose public posts were counted past COUNT_CAP, with when that was (ms). */
const overCapSeen = new WeakMap<Db, Map<string, number>>();

function overCapKey(filter: ListPostsFilter): string {
  return `${filter.categoryId ?? ""}/${filter.kind ?? ""}/${filter.authorId ?? ""}`;
}

/**
 * How many of the posts `where` selects (`filter` narrowed by what the reader may see) there are,
 * counted up to COUNT_CAP + 1 (app/lib/pagination.ts). Every reader may see at least the public
 * posts, so once the public ones of a filter were seen past the cap, every reader's count is past
 * it too: for OVER_CAP_MEMORY_MS that is answered without counting again, which spares the
 * busiest lists their 10 001-row count on every page (20–30 ms on the bench data set, issue 12).
 * A list near the cap may show «больше 10 000» for that long after falling under it.
 */
async function countCapped(db: Db, filter: ListPostsFilter, where: SQL | undefined): Promise<number> {
  let seen = overCapSeen.get(db);
  if (!seen) overCapSeen.set(db, (seen = new Map()));
  const key = overCapKey(filter);
  const now = Date.now();
  const at = seen.get(key);
  if (at !== undefined && now - at < OVER_CAP_MEMORY_MS) return COUNT_CAP + 1;
  const firstRows = db
    .select({ isPublic: sql<boolean>`${publicPostSql}`.as("is_public") })
    .from(posts)
    .where(where)
    .limit(COUNT_CAP + 1)
    .as("counted");
  const [counted] = await db.select({ total: count(), public: sql<number>`count(*) filter (where ${firstRows.isPublic})`.mapWith(Number) }).from(firstRows);
  const total = counted?.total ?? 0;
  if ((counted?.public ?? 0) > COUNT_CAP) seen.set(key, now);
  else seen.delete(key);
  return total;
}
