/**
 * The core tables every other part of the schema refers to: members, sessions, account tokens,
 * sign-ins, categories, posts, site settings and rate-limit counters. Re-exported by schema.ts,
 * so there is still one schema; the part files import these tables from here, never from
 * schema.ts, so no module of the schema imports another in a cycle (decision 0012).
 *
 * The database guards the invariants that must never break (docs/product/engineering.md): unique keys,
 * foreign keys and CHECK constraints live here, not only in the domain code.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** PostgreSQL's tsvector, for full-text search columns. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/**
 * What the search index of posts holds: the post's search vector and one token more, its month
 * ('#YYYYMM' of created_at in UTC), so a search can ask the index for the matches of recent
 * months only (docs/decisions/0060-search-asks-recent-months-first.md). No word a member types
 * becomes such a token: the parsers drop '#'. Queries must spell the same expression for the
 * planner to use the index, so both take it from here.
 */
function searchDocument(searchVector: AnyPgColumn, created: AnyPgColumn) {
  return sql`(${searchVector} || array_to_tsvector(array['#' || (extract(year from ${created} at time zone 'UTC') * 100 + extract(month from ${created} at time zone 'UTC'))::int::text]))`;
}

/** A colour theme: each colour an RGB triple (docs/product/routes.md#json-calls). */
export interface ThemeColors {
  primary: [number, number, number];
  secondary: [number, number, number];
  background: [number, number, number];
}

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    displayName: text("display_name"),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    passwordHash: text("password_hash"),
    bio: text("bio").notNull().default(""),
    image: text("image"),
    role: text("role", { enum: ["member", "moderator", "admin"] })
      .notNull()
      .default("member"),
    verified: boolean("verified").notNull().default(false),
    /** Rank SCAMMER (docs/product/claims.md): set when a claim against the member is upheld. */
    scammer: boolean("scammer").notNull().default(false),
    /** The linked Telegram account's user id (issue 6, Telegram sign-in); null when not linked. */
    telegramId: bigint("telegram_id", { mode: "number" }),
    /** The linked Telegram account's @username as Telegram last reported it. */
    telegramUsername: text("telegram_username"),
    /**
     * The username's confusable skeleton (Unicode TS #39; domain/users/username-skeleton.server.ts):
     * unique, so no two members' names look alike (issue 13 item 10). Null only for members
     * created before it existed until the start-up backfill fills it.
     */
    usernameSkeleton: text("username_skeleton"),
    theme: jsonb("theme").$type<ThemeColors>(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    uniqueIndex("users_username_skeleton_key").on(t.usernameSkeleton),
    uniqueIndex("users_telegram_id_key").on(t.telegramId),
    // The online list: members seen in the last 5 minutes.
    index("users_last_seen_at_idx").on(t.lastSeenAt.desc().nullsFirst()),
    // People search by username prefix and similarity (pg_trgm).
    index("users_username_trgm_idx").using("gin", sql`lower(${t.username}) gin_trgm_ops`),
    // Sign-ups per day (/admin/stats) and "new members today" (the /admin dashboard).
    index("users_created_at_idx").on(t.createdAt),
    check("users_username_format", sql`${t.username} ~ '^[A-Za-z0-9_А-Яа-яЁё]{3,32}$'`),
    check("users_role_known", sql`${t.role} in ('member', 'moderator', 'admin')`),
  ],
);

/** Server-side sessions: the cookie carries only the id, so a row deleted is a session revoked. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** How this session signed in: password, telegram, email_link… (issue 6 sign-in history). */
    method: text("method").notNull().default("password"),
    /**
     * The realtime apiToken of this session (issue 13 item 1; docs/decisions/0017-one-token-per-session.md):
     * one per device, so it ends when the row is deleted (sign-out, ending sessions, password
     * change, suspension) and rotating it affects this device only.
     */
    apiToken: text("api_token").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId), index("sessions_expires_at_idx").on(t.expiresAt), uniqueIndex("sessions_api_token_key").on(t.apiToken)],
);

/**
 * Single-use, expiring tokens mailed to a member (issue 6 "Email"): email verification,
 * password reset, email change (with the new address). Only a SHA-256 hash of the token is
 * stored; using one sets `used_at` in the same statement that checks it.
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["email_verify", "password_reset", "email_change"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The address being confirmed by an email_change token. */
    newEmail: text("new_email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("account_tokens_hash_key").on(t.tokenHash),
    index("account_tokens_user_idx").on(t.userId, t.purpose),
    check("account_tokens_purpose_known", sql`${t.purpose} in ('email_verify', 'password_reset', 'email_change')`),
    check("account_tokens_new_email", sql`(${t.purpose} = 'email_change') = (${t.newEmail} is not null)`),
  ],
);

/** Every sign-in, kept after its session ends (issue 6 "Sessions": time, method, IP, device). */
export const signInEvents = pgTable(
  "sign_in_events",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [index("sign_in_events_user_idx").on(t.userId, t.id)],
);

/** The nine fixed categories of docs/product/content.md; rows are inserted by the first migration. */
export const categories = pgTable("categories", {
  id: smallint("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
});

export const posts = pgTable(
  "posts",
  {
    id: serial("id").primaryKey(),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    categoryId: smallint("category_id")
      .notNull()
      .references(() => categories.id),
    kind: text("kind", { enum: ["post", "article"] })
      .notNull()
      .default("post"),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** Plain-text start of the body for feeds, written with the body (lists never load bodies). */
    excerpt: text("excerpt").notNull().default(""),
    /**
     * The body cooked to HTML when written or edited, with mention placeholders (docs/decisions/0027-cooked-markdown.md);
     * null or a `cooked_version` other than the renderer's means it is cooked again when read and by the re-cook job.
     */
    cookedHtml: text("cooked_html"),
    cookedVersion: text("cooked_version"),
    views: integer("views").notNull().default(0),
    likeCount: integer("like_count").notNull().default(0),
    commentCount: integer("comment_count").notNull().default(0),
    createdAt: createdAt(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
    /**
     * Soft delete by a moderator (issue 10, docs/product/moderation.md#content-actions): the row
     * stays so a moderator can restore it; lists, search and the sitemap leave it out.
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedById: integer("deleted_by_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    /** Hidden by the hide threshold until a moderator decides (docs/product/moderation.md#hide-threshold). */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    /** A moderator closed the post to new comments. */
    commentsClosedAt: timestamp("comments_closed_at", { withTimezone: true }),
    /** Pinned on the home feed by a moderator (at most 3, enforced under a lock in the domain). */
    pinnedAt: timestamp("pinned_at", { withTimezone: true }),
    /** Russian full-text search: the title weighs A, the body B (docs/product/content.md#search). */
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`setweight(to_tsvector('russian', "title"), 'A') || setweight(to_tsvector('russian', "body"), 'B')`,
    ),
  },
  (t) => [
    index("posts_search_idx").using("gin", searchDocument(t.searchVector, t.createdAt)),
    index("posts_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("posts_category_created_idx").on(t.categoryId, t.createdAt.desc().nullsFirst()),
    index("posts_author_created_idx").on(t.authorId, t.createdAt.desc().nullsFirst()),
    index("posts_kind_created_idx").on(t.kind, t.createdAt.desc().nullsFirst()),
    index("posts_pinned_idx")
      .on(t.pinnedAt.desc().nullsFirst())
      .where(sql`${t.pinnedAt} is not null`),
    check("posts_kind_known", sql`${t.kind} in ('post', 'article')`),
    check("posts_title_length", sql`char_length(${t.title}) between 3 and 200`),
    check("posts_body_length", sql`char_length(${t.body}) between 1 and 50000`),
    check("posts_counters_non_negative", sql`${t.views} >= 0 and ${t.likeCount} >= 0 and ${t.commentCount} >= 0`),
  ],
);

/** The search index's expression over posts (searchDocument), for queries: `postSearchDocument @@ tsquery`. */
export const postSearchDocument = searchDocument(posts.searchVector, posts.createdAt);

/** Site-wide settings set by admins, e.g. mainPageBackground (docs/product/routes.md#json-calls). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Counters for rate limits (rate-limiter-flexible's Drizzle store), shared by every process. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: timestamp("expire", { withTimezone: true }),
});
