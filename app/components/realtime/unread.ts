/**
 * The browser's unread state (docs/product/notifications.md#unread-counting): the notification count and the unread-messages
 * record, raised by realtime frames and replaced by the server's exact figures whenever the
 * root loader runs again. Pure functions, shared by the provider, the header and the tests.
 */
import type { UnreadItem, UnreadRecordDto } from "~/domain/conversations/types";
import type { NotificationDto, NotificationType } from "~/domain/notifications/types";

/** The counters the header, the conversation list and the title show (docs/product/notifications.md#unread-counting). */
export interface UnreadState {
  /** Unread notifications that are not chat messages. */
  notifications: number;
  personal: UnreadItem[];
  group: UnreadItem[];
}

/** A conversation as the unread record files it: the public one counts as "group". */
export interface ConversationRef {
  kind: "group" | "personal";
  conversationId: number;
}

/** What changes the counters: the server's figures, a live notification, a conversation read. */
export type UnreadAction =
  /** The server's figures (root loader): exact counts, every item processed. */
  | { type: "reset"; notifications: number; record: UnreadRecordDto }
  /** A frame on the `notifications` channel. `open` is the conversation on screen, if any. */
  | {
      type: "notification";
      notification: Pick<NotificationDto, "type" | "privateMessage" | "privatePersonalMessage" | "raisesUnread">;
      open: ConversationRef | null;
    }
  /** The member read a conversation (opened it, or a message arrived while it was open). */
  | { type: "conversationRead"; conversation: ConversationRef };

const CHAT_TYPES: Partial<Record<NotificationType, ConversationRef["kind"]>> = {
  PRIVATE_CONVERSATION_MESSAGE_NEW: "group",
  PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW: "personal",
};

/** The conversation a chat-message notification is about, or null for every other notification. */
export function chatConversationOf(notification: Pick<NotificationDto, "type" | "privateMessage" | "privatePersonalMessage">): ConversationRef | null {
  const kind = CHAT_TYPES[notification.type];
  if (!kind) return null;
  const conversationId = kind === "group" ? notification.privateMessage?.conversationId : notification.privatePersonalMessage?.conversationId;
  return typeof conversationId === "number" ? { kind, conversationId } : null;
}

/** True when `a` and `b` name the same conversation (same kind and id); false when either is null. */
export function sameConversation(a: ConversationRef | null, b: ConversationRef | null): boolean {
  return a !== null && b !== null && a.kind === b.kind && a.conversationId === b.conversationId;
}

/** The state the root loader's figures describe. */
export function initialUnreadState(notifications: number, record: UnreadRecordDto): UnreadState {
  return { notifications, personal: record.personal, group: record.group };
}

/**
 * docs/product/notifications.md#unread-counting: a notification that is not a chat message raises the notification count by one —
 * unless its frame says it was unread already (`raisesUnread: false`, a grouped like gaining a
 * liker: the server still counts one row); a chat message raises its conversation's counter,
 * creating the entry at 1 with processed false — unless that conversation is on screen, where
 * it is read as it arrives.
 */
export function unreadReducer(state: UnreadState, action: UnreadAction): UnreadState {
  switch (action.type) {
    case "reset":
      return initialUnreadState(action.notifications, action.record);
    case "notification": {
      const target = chatConversationOf(action.notification);
      if (!target) {
        // A chat type without its conversation is malformed: count it nowhere rather than twice.
        if (CHAT_TYPES[action.notification.type] || action.notification.raisesUnread === false) return state;
        return { ...state, notifications: state.notifications + 1 };
      }
      if (sameConversation(target, action.open)) return state;
      const list = state[target.kind];
      const existing = list.find((item) => item.conversationId === target.conversationId);
      const next = existing
        ? list.map((item) => (item === existing ? { ...item, unreadMessages: item.unreadMessages + 1, processed: false } : item))
        : [...list, { conversationId: target.conversationId, unreadMessages: 1, processed: false }];
      return { ...state, [target.kind]: next };
    }
    case "conversationRead": {
      const { kind, conversationId } = action.conversation;
      const list = state[kind];
      if (!list.some((item) => item.conversationId === conversationId)) return state;
      return { ...state, [kind]: list.filter((item) => item.conversationId !== conversationId) };
    }
  }
}

/** Unread messages of one conversation (0 when it has no entry). */
export function unreadOf(state: UnreadState, conversation: ConversationRef): number {
  return state[conversation.kind].find((item) => item.conversationId === conversation.conversationId)?.unreadMessages ?? 0;
}

/** Unread messages across all conversations, leaving out `except` (the conversation on screen). */
export function chatUnreadTotal(state: UnreadState, except: ConversationRef | null = null): number {
  let total = 0;
  for (const kind of ["personal", "group"] as const) {
    for (const item of state[kind]) {
      if (!sameConversation({ kind, conversationId: item.conversationId }, except)) total += item.unreadMessages;
    }
  }
  return total;
}

/** docs/product/notifications.md#unread-counting: unread total = notification count + all chat unread counters. */
export function unreadTotal(state: UnreadState, except: ConversationRef | null = null): number {
  return state.notifications + chatUnreadTotal(state, except);
}

/** A count as badges and the title show it: «99+» above 99 (docs/product/interface.md#page-titles). */
export function formatUnreadCount(count: number): string {
  return count > 99 ? "99+" : String(Math.max(0, Math.trunc(count)));
}

const TITLE_PREFIX = /^\(\d+\+?\) /;

/** `title` with its unread prefix set: «(3) Главная | Сходка», «(99+) …», none at 0 (docs/product/interface.md#page-titles). */
export function titleWithUnread(title: string, total: number): string {
  const base = title.replace(TITLE_PREFIX, "");
  return total > 0 ? `(${formatUnreadCount(total)}) ${base}` : base;
}
