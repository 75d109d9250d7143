/**
 * Public shapes of conversations and messages (issue 4; docs/product/conversations.md), shared
 * by the server, the /api calls, realtime frames and the browser. Types only.
 */
import type { UserRefDto } from "~/domain/users/users.server";

export type ConversationKind = "group" | "personal" | "public";

/** Limits of docs/product/limits.md#conversation-limits. */
export const CHAT_LIMITS = {
  /** Characters per message. */
  messageLength: 4000,
  /** Messages per member per window (the "messages" rate limit, app/lib/rate-limit.server.ts, counts them). */
  messagesPerWindow: 20,
  /** The rate-limit window (s). */
  windowS: 30,
  /** Members of a group conversation, the owner included. */
  groupSize: 100,
  /** Group name length. */
  groupNameLength: 100,
} as const;

export interface MessageDto {
  id: number;
  conversationId: number;
  author: UserRefDto;
  /** Markdown-free plain text; "" when deleted. */
  body: string;
  /** The message replied to, shortened for the quote, or null. */
  replyTo: { id: number; author: string; excerpt: string; deleted: boolean } | null;
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
  /** Deleted by a moderator: shown as «Удалено модератором» (issue 10). */
  moderated: boolean;
  /** Hidden by reports until a moderator decides; the body is "" except for its author and moderators (issue 10). */
  hidden: boolean;
}

export interface ConversationDto {
  id: number;
  kind: ConversationKind;
  /** The group's name; for a personal conversation, the other member's name. */
  name: string;
  /** The other member of a personal conversation. */
  peer: UserRefDto | null;
  ownerId: number | null;
  memberCount: number;
  lastMessage: MessageDto | null;
  /** Messages by others after the viewer's read marker (0 for the public conversation). */
  unreadMessages: number;
}

export interface ConversationDetailDto extends ConversationDto {
  /** Group and personal members; empty for the public conversation (everyone). */
  members: UserRefDto[];
}

/** One item of the unread record (docs/product/conversations.md#unread-counts). */
export interface UnreadItem {
  conversationId: number;
  unreadMessages: number;
  /** false when the client raised the counter from a realtime frame; the server answers true. */
  processed: boolean;
}

/** The unread-messages record of docs/product/conversations.md#unread-counts: exact counts per conversation with unread messages. */
export interface UnreadRecordDto {
  personal: UnreadItem[];
  group: UnreadItem[];
}

/** A page of history loaded upwards: `messages` oldest first, `before` the cursor for older ones. */
export interface MessageHistoryDto {
  messages: MessageDto[];
  /** Pass as `before` to load the page above; null at the first message. */
  before: number | null;
}

/** Frames on a conversation channel (`conversation:{kind}:{id}`). */
export type ConversationFrameData =
  | { type: "message.created"; message: MessageDto }
  | { type: "message.updated"; message: MessageDto }
  | { type: "message.deleted"; messageId: number; conversationId: number };
