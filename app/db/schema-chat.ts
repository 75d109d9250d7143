/**
 * Tables of conversations, messages and notifications
 * (issue 4; docs/product/conversations.md, docs/product/notifications.md). Re-exported by schema.ts, so there is still one schema.
 */
import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { comments, wallPosts } from "./schema-content";
import { posts, users } from "./schema-core";
import { claims, deals } from "./schema-trust";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const userRef = (name: string) =>
  integer(name)
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

export const CONVERSATION_KINDS = ["group", "personal", "public"] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

/**
 * A conversation: a named group with an owner, a personal one between exactly two members
 * (stored as the ordered pair, so "one per pair" is a unique index), or the single public one.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: CONVERSATION_KINDS }).notNull(),
    name: text("name"),
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "set null" }),
    /** Personal conversations: the smaller and the larger member id. */
    personalLowId: integer("personal_low_id").references(() => users.id, { onDelete: "cascade" }),
    personalHighId: integer("personal_high_id").references(() => users.id, { onDelete: "cascade" }),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("conversations_personal_pair_key")
      .on(t.personalLowId, t.personalHighId)
      .where(sql`${t.kind} = 'personal'`),
    uniqueIndex("conversations_one_public")
      .on(t.kind)
      .where(sql`${t.kind} = 'public'`),
    check("conversations_kind_known", sql`${t.kind} in ('group', 'personal', 'public')`),
    check(
      "conversations_personal_pair",
      sql`(${t.kind} = 'personal') = (${t.personalLowId} is not null and ${t.personalHighId} is not null and ${t.personalLowId} < ${t.personalHighId})`,
    ),
    check("conversations_name", sql`${t.kind} = 'personal' or char_length(${t.name}) between 1 and 100`),
  ],
);

/**
 * Members of group and personal conversations (the public one has none: every member may read
 * and write it). `last_read_message_id` is the read marker: unread = messages by others after it.
 */
export const conversationMembers = pgTable(
  "conversation_members",
  {
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: userRef("user_id"),
    lastReadMessageId: integer("last_read_message_id").notNull().default(0),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] }), index("conversation_members_user_idx").on(t.userId)],
);

/**
 * Messages; deleting is soft (the body is blanked), so replies keep their reference. A message
 * holds text, a picture (issue 14: stored under chat/{memberId}/…webp, shown through the image
 * endpoint) or both.
 */
export const messages = pgTable(
  "messages",
  {
    id: serial("id").primaryKey(),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    authorId: userRef("author_id"),
    body: text("body").notNull(),
    replyToId: integer("reply_to_id").references((): AnyPgColumn => messages.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * Set when a moderator deleted the message (public chat, or a reported one): the body is
     * kept so it can be restored, and readers see «Удалено модератором». Null for an author's
     * delete, which blanks the body for good.
     */
    deletedById: integer("deleted_by_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    /** Hidden by the hide threshold until a moderator decides. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    /** The attached picture's public URL (/uploads/chat/…webp) and size in pixels; null without one or after an author's delete. */
    imageUrl: text("image_url"),
    imageWidth: integer("image_width"),
    imageHeight: integer("image_height"),
  },
  (t) => [
    index("messages_conversation_id_idx").on(t.conversationId, t.id.desc().nullsFirst()),
    index("messages_author_created_idx").on(t.authorId, t.createdAt.desc().nullsFirst()),
    // Messages per day (/admin/stats).
    index("messages_created_at_idx").on(t.createdAt),
    // Text, a picture or both: the body may be empty only beside a picture.
    check(
      "messages_body_length",
      sql`${t.deletedAt} is not null or (char_length(${t.body}) <= 4000 and (char_length(${t.body}) >= 1 or ${t.imageUrl} is not null))`,
    ),
    check(
      "messages_image_size",
      sql`(${t.imageUrl} is null) = (${t.imageWidth} is null) and (${t.imageUrl} is null) = (${t.imageHeight} is null) and coalesce(${t.imageWidth} > 0 and ${t.imageHeight} > 0, true)`,
    ),
  ],
);

/** The 14 notification types of docs/product/notifications.md#types-and-texts, then the money and trust types of issue 10. */
export const NOTIFICATION_TYPES = [
  "POST_NEW",
  "POST_NEW_VERIFIED",
  "POST_MENTION",
  "POST_LIKE",
  "POST_COMMENT_NEW",
  "POST_COMMENT_REPLY",
  "POST_COMMENT_LIKE",
  "POST_COMMENT_MENTION",
  "WALL_POST_NEW",
  "WALL_POST_LIKE",
  "WALL_POST_MENTION",
  "PRIVATE_CONVERSATION_MESSAGE_NEW",
  "PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW",
  "PUBLIC_CONVERSATION_MESSAGE_MENTION",
  // Money and trust (docs/product/notifications.md#money-and-trust, issue 10).
  "TRANSFER_RECEIVED",
  "HOLD_RELEASED",
  "DEAL_OFFERED",
  "DEAL_ACCEPTED",
  "DEAL_FUNDED",
  "DEAL_DELIVERED",
  "DEAL_COMPLETED",
  "DEAL_CANCELLED",
  "DEAL_DISPUTED",
  "DEAL_RESOLVED",
  "CLAIM_FILED",
  "CLAIM_DECIDED",
  "REPORT_HANDLED",
  "SANCTION_APPLIED",
  // Ads (docs/product/notifications.md#money-and-trust, issue 11).
  "AD_APPROVED",
  "AD_REJECTED",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * Notifications stored per recipient with a read flag (docs/product/notifications.md#grouped-likes). Likes are
 * grouped Forem-style: one row per (recipient, type, group_key) updated in place, with the
 * distinct likers in `actor_ids` (newest first); the partial unique index makes it an upsert.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    recipientId: userRef("recipient_id"),
    type: text("type", { enum: NOTIFICATION_TYPES }).notNull(),
    /** The latest actor. */
    senderId: userRef("sender_id"),
    postId: integer("post_id").references(() => posts.id, { onDelete: "cascade" }),
    commentId: integer("comment_id").references(() => comments.id, { onDelete: "cascade" }),
    wallPostId: integer("wall_post_id").references(() => wallPosts.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id").references(() => conversations.id, { onDelete: "cascade" }),
    messageId: integer("message_id").references(() => messages.id, { onDelete: "cascade" }),
    /** The deal of DEAL_* types (link /services/guarantor/deals/{id}). */
    dealId: integer("deal_id").references(() => deals.id, { onDelete: "cascade" }),
    /** The claim of CLAIM_* types (link /claims/{id}). */
    claimId: integer("claim_id").references(() => claims.id, { onDelete: "cascade" }),
    /** Kopecks of TRANSFER_RECEIVED and HOLD_RELEASED, shown in the title. */
    amount: bigint("amount", { mode: "number" }),
    /** The member a notification is about when that is not the sender (a reported profile). */
    subjectUserId: integer("subject_user_id").references(() => users.id, { onDelete: "cascade" }),
    /**
     * What the notification is about, e.g. `post:12`, `comment:5`, `message:9`: likes group on
     * it, and for other types it makes handling one event twice harmless (one row per key).
     */
    groupKey: text("group_key"),
    actorIds: integer("actor_ids")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
    /** Raised when a grouped notification gains an actor; lists are ordered by it. */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("notifications_group_key")
      .on(t.recipientId, t.type, t.groupKey)
      .where(sql`${t.groupKey} is not null`),
    index("notifications_recipient_updated_idx").on(t.recipientId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("notifications_recipient_unread_idx")
      .on(t.recipientId)
      .where(sql`${t.readAt} is null`),
    check("notifications_type_known", sql.raw(`type in (${NOTIFICATION_TYPES.map((type) => `'${type}'`).join(", ")})`)),
  ],
);

/**
 * Realtime frames too large for a PostgreSQL NOTIFY payload (8000 bytes): the notification
 * carries the row id instead and each process reads the frame here. Purged hourly.
 */
export const realtimeFrames = pgTable("realtime_frames", {
  id: serial("id").primaryKey(),
  payload: jsonb("payload").notNull(),
  createdAt: createdAt(),
});

/**
 * Who is connected to realtime now (docs/product/conversations.md#online): one row per member
 * and server process holding at least one live connection, refreshed by that process every
 * 30 s. A row not seen for 90 s (its process died) no longer counts; a clean shutdown deletes
 * its process's rows.
 */
export const realtimePresence = pgTable(
  "realtime_presence",
  {
    processId: text("process_id").notNull(),
    userId: userRef("user_id"),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.processId, t.userId] }), index("realtime_presence_user_idx").on(t.userId, t.seenAt)],
);
