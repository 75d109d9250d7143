/**
 * Tables of the "other pages" (issue 11; docs/product/pages.md): the music playlist, the FAQ
 * and the assistant's conversations. Re-exported by schema.ts, so there is still one schema.
 */
import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./schema-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/** The audio types a track may have (docs/product/pages.md: mp3, ogg, m4a or flac). */
export const MUSIC_AUDIO_TYPES = ["audio/mpeg", "audio/ogg", "audio/mp4", "audio/flac"] as const;
export type MusicAudioType = (typeof MUSIC_AUDIO_TYPES)[number];

/**
 * A track of the public playlist. The audio and the cover are files of the upload store
 * (app/lib/storage/) under their keys; a track's audio never changes (replacing it is a new
 * track), so its URL may be cached. `play_count` is kept with `music_plays` in one statement.
 */
export const musicTracks = pgTable(
  "music_tracks",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    artist: text("artist").notNull().default(""),
    /** Length of the audio, milliseconds. */
    durationMs: integer("duration_ms").notNull(),
    audioKey: text("audio_key").notNull(),
    audioType: text("audio_type", { enum: MUSIC_AUDIO_TYPES }).notNull(),
    /** Bytes of the audio file (at most 30 MB). */
    audioSize: integer("audio_size").notNull(),
    /** Storage key of the cover picture (WebP), or null. */
    coverKey: text("cover_key"),
    /** Place in the playlist: smaller first. */
    position: integer("position").notNull().default(0),
    playCount: integer("play_count").notNull().default(0),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("music_tracks_audio_key").on(t.audioKey),
    index("music_tracks_position_idx").on(t.position, t.id),
    check("music_tracks_title_length", sql`char_length(${t.title}) between 1 and 200`),
    check("music_tracks_artist_length", sql`char_length(${t.artist}) <= 200`),
    check("music_tracks_duration", sql`${t.durationMs} > 0`),
    check("music_tracks_audio_type", sql`${t.audioType} in ('audio/mpeg', 'audio/ogg', 'audio/mp4', 'audio/flac')`),
    check("music_tracks_audio_size", sql`${t.audioSize} between 1 and 31457280`),
    check("music_tracks_play_count", sql`${t.playCount} >= 0`),
  ],
);

/**
 * Counted plays: one per listener (member id or hashed address) per track per half hour, so
 * pressing play again and again does not inflate the count. The unique key is that rule.
 */
export const musicPlays = pgTable(
  "music_plays",
  {
    trackId: integer("track_id")
      .notNull()
      .references(() => musicTracks.id, { onDelete: "cascade" }),
    listener: text("listener").notNull(),
    /** Start of the half-hour window the play fell in. */
    window: timestamp("window", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.trackId, t.listener, t.window] }), index("music_plays_created_idx").on(t.createdAt)],
);

/** A section of /faq: a titled group of questions, ordered by position. */
export const faqSections = pgTable(
  "faq_sections",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    /** The section's anchor on /faq (#slug). */
    slug: text("slug").notNull(),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("faq_sections_slug_key").on(t.slug),
    check("faq_sections_title_length", sql`char_length(${t.title}) between 1 and 200`),
    check("faq_sections_slug_format", sql`${t.slug} ~ '^[a-z0-9][a-z0-9-]{0,79}$'`),
  ],
);

/** A question of /faq with its Markdown answer; only published ones are shown to readers. */
export const faqEntries = pgTable(
  "faq_entries",
  {
    id: serial("id").primaryKey(),
    sectionId: integer("section_id")
      .notNull()
      .references(() => faqSections.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    /** Markdown, rendered with the posts' sanitising renderer. */
    answer: text("answer").notNull(),
    /** The question's anchor on /faq (#anchor), unique across sections so links never clash. */
    anchor: text("anchor").notNull(),
    position: integer("position").notNull().default(0),
    published: boolean("published").notNull().default(false),
    updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("faq_entries_anchor_key").on(t.anchor),
    index("faq_entries_section_idx").on(t.sectionId, t.position, t.id),
    check("faq_entries_question_length", sql`char_length(btrim(${t.question})) between 1 and 300`),
    check("faq_entries_answer_length", sql`char_length(${t.answer}) between 1 and 20000`),
    check("faq_entries_anchor_format", sql`${t.anchor} ~ '^[a-z0-9][a-z0-9-]{0,79}$'`),
  ],
);

/** A member's conversation with the assistant (/chatgpt). */
export const assistantConversations = pgTable(
  "assistant_conversations",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("assistant_conversations_user_idx").on(t.userId, t.updatedAt.desc().nullsFirst()),
    check("assistant_conversations_title_length", sql`char_length(${t.title}) between 1 and 100`),
  ],
);

export const ASSISTANT_MESSAGE_ROLES = ["user", "assistant"] as const;
export const ASSISTANT_MESSAGE_STATUSES = ["complete", "streaming", "failed"] as const;
export type AssistantMessageStatus = (typeof ASSISTANT_MESSAGE_STATUSES)[number];

/**
 * A message of an assistant conversation. An answer is `streaming` while the upstream sends it,
 * then `complete`, or `failed` with `error_code` (what arrived before the failure is kept).
 */
export const assistantMessages = pgTable(
  "assistant_messages",
  {
    id: serial("id").primaryKey(),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => assistantConversations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ASSISTANT_MESSAGE_ROLES }).notNull(),
    content: text("content").notNull().default(""),
    status: text("status", { enum: ASSISTANT_MESSAGE_STATUSES }).notNull().default("complete"),
    errorCode: text("error_code"),
    createdAt: createdAt(),
  },
  (t) => [
    index("assistant_messages_conversation_idx").on(t.conversationId, t.id),
    check("assistant_messages_role_known", sql`${t.role} in ('user', 'assistant')`),
    check("assistant_messages_status_known", sql`${t.status} in ('complete', 'streaming', 'failed')`),
    check("assistant_messages_failed_code", sql`(${t.status} = 'failed') = (${t.errorCode} is not null)`),
  ],
);

/**
 * Requests each member sent to the assistant per day (Moscow calendar day): the daily quota
 * (docs/product/pages.md, 50 by default). Kept apart from the messages so deleting a
 * conversation gives no requests back.
 */
export const assistantUsage = pgTable(
  "assistant_usage",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    requests: integer("requests").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), check("assistant_usage_requests", sql`${t.requests} >= 0`)],
);
