/**
 * Tables of the content issue (issue 3): comments, likes, views, wall, follows, blocks,
 * bookmarks, achievements. Re-exported by schema.ts, so there is still one schema.
 * "One like per member per item" and similar rules are primary keys here, not checks in code.
 */
import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, type AnyPgColumn, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { posts, users } from "./schema-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const userRef = (name: string) =>
  integer(name)
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/** Comments on posts; `parent_id` makes a reply. Deleting is soft, so a thread keeps its shape. */
export const comments = pgTable(
  "comments",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    authorId: userRef("author_id"),
    parentId: integer("parent_id").references((): AnyPgColumn => comments.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    /**
     * The body cooked to HTML when written or edited, with mention placeholders (docs/decisions/0027-cooked-markdown.md);
     * null or a `cooked_version` other than the renderer's means it is cooked again when read and by the re-cook job.
     */
    cookedHtml: text("cooked_html"),
    cookedVersion: text("cooked_version"),
    likeCount: integer("like_count").notNull().default(0),
    createdAt: createdAt(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedById: integer("deleted_by_id").references(() => users.id, { onDelete: "set null" }),
    /** Deleted by a moderator, not its author: shown as «Удалено модератором» and restorable. */
    deletedByModerator: boolean("deleted_by_moderator").notNull().default(false),
    /** Hidden by the hide threshold until a moderator decides (docs/product/moderation.md#hide-threshold). */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
  },
  (t) => [
    index("comments_post_created_idx").on(t.postId, t.createdAt),
    // Comments per day (/admin/stats).
    index("comments_created_at_idx").on(t.createdAt),
    index("comments_author_created_idx").on(t.authorId, t.createdAt.desc().nullsFirst()),
    index("comments_parent_idx").on(t.parentId),
    check("comments_body_length", sql`char_length(${t.body}) between 1 and 10000`),
    check("comments_like_count_non_negative", sql`${t.likeCount} >= 0`),
  ],
);

/** Entries written on a member's profile wall; the owner may pin one (partial unique index). */
export const wallPosts = pgTable(
  "wall_posts",
  {
    id: serial("id").primaryKey(),
    ownerId: userRef("owner_id"),
    authorId: userRef("author_id"),
    body: text("body").notNull(),
    /**
     * The body cooked to HTML when written or edited, with mention placeholders (docs/decisions/0027-cooked-markdown.md);
     * null or a `cooked_version` other than the renderer's means it is cooked again when read and by the re-cook job.
     */
    cookedHtml: text("cooked_html"),
    cookedVersion: text("cooked_version"),
    likeCount: integer("like_count").notNull().default(0),
    pinnedAt: timestamp("pinned_at", { withTimezone: true }),
    createdAt: createdAt(),
    /**
     * Soft delete by a moderator (authors and owners delete for good): «Удалено модератором»,
     * restorable (docs/product/moderation.md#content-actions).
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedById: integer("deleted_by_id").references(() => users.id, { onDelete: "set null" }),
    /** Hidden by the hide threshold until a moderator decides. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
  },
  (t) => [
    index("wall_posts_owner_created_idx").on(t.ownerId, t.createdAt.desc().nullsFirst()),
    uniqueIndex("wall_posts_one_pinned_per_owner")
      .on(t.ownerId)
      .where(sql`${t.pinnedAt} is not null`),
    check("wall_posts_body_length", sql`char_length(${t.body}) between 1 and 10000`),
    check("wall_posts_like_count_non_negative", sql`${t.likeCount} >= 0`),
  ],
);

/**
 * Likes, one table per kind of item so each has a real foreign key; the primary key is the
 * "one like per member per item" rule. `receiver_id` (the item's author) makes reputation
 * and leaderboard periods one indexed range scan.
 */
const likeColumns = () => ({
  userId: userRef("user_id"),
  receiverId: userRef("receiver_id"),
  createdAt: createdAt(),
});

export const postLikes = pgTable(
  "post_likes",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    ...likeColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.userId] }),
    index("post_likes_receiver_created_idx").on(t.receiverId, t.createdAt),
    check("post_likes_not_own", sql`${t.userId} <> ${t.receiverId}`),
  ],
);

export const commentLikes = pgTable(
  "comment_likes",
  {
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    ...likeColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId] }),
    index("comment_likes_receiver_created_idx").on(t.receiverId, t.createdAt),
    check("comment_likes_not_own", sql`${t.userId} <> ${t.receiverId}`),
  ],
);

export const wallPostLikes = pgTable(
  "wall_post_likes",
  {
    wallPostId: integer("wall_post_id")
      .notNull()
      .references(() => wallPosts.id, { onDelete: "cascade" }),
    ...likeColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.wallPostId, t.userId] }),
    index("wall_post_likes_receiver_created_idx").on(t.receiverId, t.createdAt),
    check("wall_post_likes_not_own", sql`${t.userId} <> ${t.receiverId}`),
  ],
);

/** One row per visitor per post per day: a view counts once a day (issue 3). */
export const postViews = pgTable(
  "post_views",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    /** `u:{userId}` for members, `v:{hash of address and browser}` for visitors. */
    visitorKey: text("visitor_key").notNull(),
    day: date("day", { mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.visitorKey, t.day] })],
);

export const follows = pgTable(
  "follows",
  {
    followerId: userRef("follower_id"),
    followeeId: userRef("followee_id"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index("follows_followee_idx").on(t.followeeId, t.createdAt.desc().nullsFirst()),
    check("follows_not_self", sql`${t.followerId} <> ${t.followeeId}`),
  ],
);

/** A member's personal block list (docs/product/accounts.md#follows-and-blocks). */
export const blocks = pgTable(
  "blocks",
  {
    blockerId: userRef("blocker_id"),
    blockedId: userRef("blocked_id"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), check("blocks_not_self", sql`${t.blockerId} <> ${t.blockedId}`)],
);

export const bookmarks = pgTable(
  "bookmarks",
  {
    userId: userRef("user_id"),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.postId] }), index("bookmarks_user_created_idx").on(t.userId, t.createdAt.desc().nullsFirst())],
);

/** Achievements earned; the definitions live in code (app/domain/achievements). */
export const userAchievements = pgTable(
  "user_achievements",
  {
    userId: userRef("user_id"),
    achievementId: text("achievement_id").notNull(),
    earnedAt: timestamp("earned_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.achievementId] })],
);
