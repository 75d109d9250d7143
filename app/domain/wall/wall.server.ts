/**
 * The profile wall (issue 3, docs/product/content.md#wall): any member not blocked by the owner
 * writes Markdown entries on a member's profile; entries are liked through the likes module,
 * mention members, are deleted (for good) by their author or the wall's owner, and the owner
 * pins at most one (the partial unique index wall_posts_one_pinned_per_owner).
 *
 * Lists: the pinned entry is kept apart (`WallView.pinned`, GET /api/profile/{id}/wall/pinned)
 * and left out of the paginated entries, so it is never shown twice and pages do not shift
 * when an entry is pinned or unpinned. A page costs a fixed number of queries.
 */
import { and, count, desc, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { isValidId } from "~/lib/ids";
import type { Db } from "~/db/client.server";
import { users, wallPosts } from "~/db/schema";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { linkMentions } from "~/lib/markdown.server";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { consumeLimit } from "~/lib/rate-limit.server";
import { likedIds } from "../likes/likes.server";
import { mentionTargets, resolveCookedMentions, type MentionMap } from "../mentions/mentions.server";
import { cookedColumns, cookedOf } from "../cooked/cooked.server";
import { assertMayPublish } from "../moderation/sanctions.server";
import { seesHidden, type Reader } from "../moderation/visibility.server";
import { isBlockedBy, requireMember } from "../people/relations.server";
import { toUserRefDto, type UserRefDto, type UserRow } from "../users/users.server";
import { WallPostInputSchema } from "./schemas";

type WallPostRow = typeof wallPosts.$inferSelect;

/**
 * One wall entry as a viewer sees it; `liked` is the viewer's own like (false for visitors).
 * Times are ISO strings. An entry a moderator deleted keeps its place as «Удалено модератором»
 * (`deleted`, body and html ""); one hidden by reports (`hidden`) shows its text only to its
 * author and moderators (issue 10, docs/product/moderation.md).
 */
export interface WallPostDto {
  id: number;
  /** The member whose wall it is. */
  ownerId: number;
  author: UserRefDto;
  /** The Markdown source; "" when deleted, or hidden from the viewer. */
  body: string;
  /** Sanitised HTML rendered from `body`, mentions linked to profiles. */
  html: string;
  /** Deleted by a moderator (authors and owners delete for good). */
  deleted: boolean;
  /** Hidden by reports until a moderator decides. */
  hidden: boolean;
  likeCount: number;
  liked: boolean;
  pinned: boolean;
  pinnedAt: string | null;
  createdAt: string;
}

/** A wall as the profile page shows it: the pinned entry apart, then a page of the others, newest first. */
export interface WallView {
  pinned: WallPostDto | null;
  entries: Page<WallPostDto>;
}

/** A wall entry as a page shows it: the rendered HTML without its Markdown source (nothing edits it there). */
export type ShownWallPost = Omit<WallPostDto, "body">;

/** A wall as a page's loader sends it (docs/product/engineering.md#speed). */
export interface ShownWall {
  pinned: ShownWallPost | null;
  entries: Page<ShownWallPost>;
}

/**
 * The wall for a page: every entry without its Markdown source, which only the HTML would
 * repeat in the page's hydration data (docs/product/engineering.md#speed; issue 12).
 */
export function wallForPage(wall: WallView): ShownWall {
  const shown = ({ body: _body, ...entry }: WallPostDto): ShownWallPost => entry;
  return { pinned: wall.pinned && shown(wall.pinned), entries: { ...wall.entries, items: wall.entries.items.map(shown) } };
}

/** The advisory-lock class of wall pins; the second key is the owner, so pins of one wall queue up. */
const WALL_PIN_LOCK = 3_303;

export function toWallPostDto(row: WallPostRow, author: UserRow, liked: boolean, mentions?: MentionMap, viewer?: Reader): WallPostDto {
  const deleted = row.deletedAt !== null;
  const hidden = !deleted && row.hiddenAt !== null;
  const readable = !deleted && (!hidden || seesHidden(viewer, row.authorId));
  return {
    id: row.id,
    ownerId: row.ownerId,
    author: toUserRefDto(author),
    body: readable ? row.body : "",
    html: readable ? linkMentions(cookedOf(row), mentions ?? new Map()) : "",
    deleted,
    hidden,
    likeCount: row.likeCount,
    liked,
    pinned: row.pinnedAt !== null,
    pinnedAt: row.pinnedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Entries with their authors to DTOs: two queries whatever their number (likes, mentions). */
async function toDtos(db: Db, viewer: UserRow | null, rows: { entry: WallPostRow; author: UserRow }[]): Promise<WallPostDto[]> {
  if (rows.length === 0) return [];
  const [liked, mentions] = await Promise.all([
    likedIds(
      db,
      viewer?.id ?? null,
      "wall_post",
      rows.map((row) => row.entry.id),
    ),
    resolveCookedMentions(
      db,
      rows.map((row) => cookedOf(row.entry)),
    ),
  ]);
  return rows.map((row) => toWallPostDto(row.entry, row.author, liked.has(row.entry.id), mentions, viewer));
}

function selectEntries(db: Db) {
  return db.select({ entry: wallPosts, author: users }).from(wallPosts).innerJoin(users, eq(users.id, wallPosts.authorId));
}

/**
 * The wall of member `ownerId` for `viewer`: the pinned entry (or null) and page `params`
 * of the other entries, newest first. Six queries whatever the page size.
 * Throws NotFound (`profile_not_found`) for an unknown member.
 */
export async function loadWall(db: Db, viewer: UserRow | null, ownerId: number, params: PageParams): Promise<WallView> {
  await requireMember(db, ownerId);
  const unpinned = and(eq(wallPosts.ownerId, ownerId), isNull(wallPosts.pinnedAt));
  const [rows, [total], pinnedRows] = await Promise.all([
    selectEntries(db)
      .where(unpinned)
      .orderBy(desc(wallPosts.createdAt), desc(wallPosts.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ value: count() }).from(wallPosts).where(unpinned),
    selectEntries(db)
      .where(and(eq(wallPosts.ownerId, ownerId), isNotNull(wallPosts.pinnedAt)))
      .limit(1),
  ]);
  const dtos = await toDtos(db, viewer, [...pinnedRows, ...rows]);
  const pinned = pinnedRows.length > 0 ? dtos.shift()! : null;
  return { pinned, entries: toPage(dtos, total?.value ?? 0, params) };
}

/**
 * Page `params` of the wall of `ownerId`, newest first, the pinned entry left out (see
 * getPinnedWallPost). Throws NotFound (`profile_not_found`) for an unknown member.
 */
export async function listWallPosts(db: Db, viewer: UserRow | null, ownerId: number, params: PageParams): Promise<Page<WallPostDto>> {
  return (await loadWall(db, viewer, ownerId, params)).entries;
}

/** The pinned entry of the wall of `ownerId`, or null. Throws NotFound (`profile_not_found`). */
export async function getPinnedWallPost(db: Db, viewer: UserRow | null, ownerId: number): Promise<WallPostDto | null> {
  await requireMember(db, ownerId);
  const rows = await selectEntries(db)
    .where(and(eq(wallPosts.ownerId, ownerId), isNotNull(wallPosts.pinnedAt)))
    .limit(1);
  const [pinned] = await toDtos(db, viewer, rows);
  return pinned ?? null;
}

/**
 * `actor` writes `input` (Markdown, 1-10 000 characters) on the wall of `ownerId`; returns
 * the entry. Publishes `wall_post.created` with the mentioned members to notify once stored.
 * Throws ValidationFailed (`invalid_input`, with field errors), NotFound (`profile_not_found`),
 * Forbidden (`blocked`) when the owner blocked the actor (docs/product/accounts.md#follows-and-blocks), MemberMuted /
 * AccountSuspended while the actor is sanctioned (docs/product/moderation.md#suspension-and-mute)
 * and RateLimited (429) for a second entry within 5 s (docs/product/limits.md#rate-limits, as comments).
 */
export async function createWallPost(db: Db, actor: UserRow, ownerId: number, input: { body: unknown }): Promise<WallPostDto> {
  const parsed = WallPostInputSchema.safeParse(input);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => issue.message);
    throw new ValidationFailed(messages[0]!, { body: messages }, "invalid_input");
  }
  const { body } = parsed.data;
  const owner = await requireMember(db, ownerId);
  if (await isBlockedBy(db, owner.id, actor.id)) {
    throw new Forbidden("Владелец стены ограничил вам возможность писать на ней", "blocked");
  }
  await assertMayPublish(db, actor.id);
  await consumeLimit(db, "wallPosts", String(actor.id), "Писать на стене можно не чаще одного раза в 5 секунд");
  const [row] = await db
    .insert(wallPosts)
    .values({ ownerId: owner.id, authorId: actor.id, body, ...cookedColumns(body) })
    .returning();
  const [mentionedUserIds, mentions] = await Promise.all([mentionTargets(db, actor.id, body), resolveCookedMentions(db, [cookedOf(row!)])]);
  eventBus(db).publish({ type: "wall_post.created", wallPostId: row!.id, ownerId: owner.id, authorId: actor.id, mentionedUserIds });
  return toWallPostDto(row!, actor, false, mentions);
}

/** Entry `id`, on wall `ownerId` when given (an entry of another wall is not found there). */
async function findEntry(db: Db, id: number, ownerId?: number): Promise<WallPostRow> {
  const [row] = isValidId(id) ? await db.select().from(wallPosts).where(eq(wallPosts.id, id)).limit(1) : [];
  if (!row || (ownerId !== undefined && row.ownerId !== ownerId)) {
    throw new NotFound("Запись на стене не найдена", "wall_post_not_found");
  }
  return row;
}

/**
 * Deletes entry `id` for good (its likes go with it). Allowed to its author and to the
 * wall's owner (docs/product/content.md#wall). Returns the wall's owner id.
 * Throws NotFound (`wall_post_not_found`) and Forbidden (`not_allowed`).
 */
export async function deleteWallPost(db: Db, actor: UserRow, id: number, ownerId?: number): Promise<{ ownerId: number }> {
  const entry = await findEntry(db, id, ownerId);
  if (entry.authorId !== actor.id && entry.ownerId !== actor.id) {
    throw new Forbidden("Удалить запись может только её автор или владелец стены", "not_allowed");
  }
  await db.delete(wallPosts).where(eq(wallPosts.id, entry.id));
  return { ownerId: entry.ownerId };
}

/**
 * Pins entry `id` on its wall; an entry pinned before is unpinned in the same transaction
 * (one pinned entry per wall, docs/product/content.md#wall). Pins of one wall are serialised by an
 * advisory lock, so two at once cannot both pass the unique index. Owner only.
 * Throws NotFound (`wall_post_not_found`) and Forbidden (`not_wall_owner`).
 */
export async function pinWallPost(db: Db, actor: UserRow, id: number, ownerId?: number): Promise<{ ownerId: number }> {
  const entry = await findEntry(db, id, ownerId);
  assertOwner(entry, actor);
  if (entry.deletedAt) throw new Conflict("Запись удалена модератором — закрепить её нельзя", "wall_post_deleted");
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${WALL_PIN_LOCK}, ${entry.ownerId})`);
    await tx
      .update(wallPosts)
      .set({ pinnedAt: null })
      .where(and(eq(wallPosts.ownerId, entry.ownerId), isNotNull(wallPosts.pinnedAt), ne(wallPosts.id, entry.id)));
    await tx
      .update(wallPosts)
      .set({ pinnedAt: new Date() })
      .where(and(eq(wallPosts.id, entry.id), isNull(wallPosts.pinnedAt)));
  });
  return { ownerId: entry.ownerId };
}

/** Unpins entry `id` (nothing happens if it is not pinned). Owner only; throws as pinWallPost. */
export async function unpinWallPost(db: Db, actor: UserRow, id: number, ownerId?: number): Promise<{ ownerId: number }> {
  const entry = await findEntry(db, id, ownerId);
  assertOwner(entry, actor);
  await db.update(wallPosts).set({ pinnedAt: null }).where(eq(wallPosts.id, entry.id));
  return { ownerId: entry.ownerId };
}

function assertOwner(entry: WallPostRow, actor: UserRow): void {
  if (entry.ownerId !== actor.id) throw new Forbidden("Закреплять записи может только владелец стены", "not_wall_owner");
}
