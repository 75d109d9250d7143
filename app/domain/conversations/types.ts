/**
 * Public shapes of conversations and messages (issue 4; docs/product/conversations.md), shared
 * by the server, the /api calls, realtime frames and the browser. Types only.
 */
import type { UserRefDto } from "~/domain/users/users.server";
import type { MentionRefDto } from "~/domain/mentions/plain-text";

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

/** A picture attached to a message (issue 14): its public URL (shown through the image endpoint) and size in pixels. */
export interface MessageImageDto {
  url: string;
  width: number;
  height: number;
}

export interface MessageDto {
  id: number;
  conversationId: number;
  author: UserRefDto;
  /** Markdown-free plain text; "" when deleted, and may be "" beside a picture. */
  body: string;
  /** The attached picture, or null (none, deleted, or hidden from this reader). */
  image: MessageImageDto | null;
  /** The message replied to, shortened for the quote, or null. */
  replyTo: { id: number; author: string; excerpt: string; deleted: boolean } | null;
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
  /** Deleted by a moderator: shown as «Удалено модератором» (issue 10). */
  moderated: boolean;
  /** Hidden by reports until a moderator decides; the body is "" except for its author and moderators (issue 10). */
  hidden: boolean;
  /**
   * The members the body mentions, resolved (public conversation only: there a mention notifies, so
   * the name links to the profile; docs/product/conversations.md#public-conversation); [] elsewhere.
   */
  mentions: MentionRefDto[];
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
  /**
   * A personal conversation: the other member's read marker (the id of the last message they
   * read, 0 for none), for read receipts (docs/product/conversations.md#read-receipts); null for
   * groups and the public conversation.
   */
  peerReadUpTo: number | null;
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
  | { type: "message.deleted"; messageId: number; conversationId: number }
  /** A personal conversation's member read up to message `upTo` (docs/product/conversations.md#read-receipts). */
  | { type: "read"; userId: number; upTo: number };

/** The frames that change messages (all but `read`). */
export type MessageFrameData = Exclude<ConversationFrameData, { type: "read" }>;
