import { describe, expect, it } from "vitest";
import {
  chatConversationOf,
  chatUnreadTotal,
  formatUnreadCount,
  initialUnreadState,
  titleWithUnread,
  unreadOf,
  unreadReducer,
  unreadTotal,
  type UnreadState,
} from "./unread";

const groupMessage = (conversationId: number) =>
  ({ type: "PRIVATE_CONVERSATION_MESSAGE_NEW", privateMessage: { conversationId, conversation: { name: "Сделки" } }, privatePersonalMessage: null }) as const;
const personalMessage = (conversationId: number) =>
  ({ type: "PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW", privateMessage: null, privatePersonalMessage: { conversationId } }) as const;
const like = { type: "POST_LIKE", privateMessage: null, privatePersonalMessage: null } as const;

const start: UnreadState = initialUnreadState(2, {
  personal: [{ conversationId: 7, unreadMessages: 3, processed: true }],
  group: [],
});

describe("unreadReducer (docs/product/notifications.md#unread-counting)", () => {
  it("raises the notification count by one for a notification that is not a chat message", () => {
    const next = unreadReducer(start, { type: "notification", notification: like, open: null });
    expect(next.notifications).toBe(3);
    expect(next.personal).toEqual(start.personal);
  });

  it("leaves the count alone for a notification that was already unread (a grouped like gaining a liker)", () => {
    const again = unreadReducer(start, { type: "notification", notification: { ...like, raisesUnread: false }, open: null });
    expect(again).toBe(start);
    // New, or unread again after being read: counted.
    expect(unreadReducer(start, { type: "notification", notification: { ...like, raisesUnread: true }, open: null }).notifications).toBe(3);
  });

  it("creates a conversation's entry at 1 with processed false for its first new message", () => {
    const next = unreadReducer(start, { type: "notification", notification: groupMessage(12), open: null });
    expect(next.group).toEqual([{ conversationId: 12, unreadMessages: 1, processed: false }]);
    expect(next.notifications).toBe(2);
  });

  it("raises an existing conversation's counter and marks it unprocessed", () => {
    const next = unreadReducer(start, { type: "notification", notification: personalMessage(7), open: null });
    expect(next.personal).toEqual([{ conversationId: 7, unreadMessages: 4, processed: false }]);
  });

  it("leaves the counters alone for a message in the conversation on screen", () => {
    const next = unreadReducer(start, { type: "notification", notification: personalMessage(7), open: { kind: "personal", conversationId: 7 } });
    expect(next).toBe(start);
    // The same id in the other kind is another conversation.
    const other = unreadReducer(start, { type: "notification", notification: groupMessage(7), open: { kind: "personal", conversationId: 7 } });
    expect(unreadOf(other, { kind: "group", conversationId: 7 })).toBe(1);
  });

  it("drops a conversation's counter when it is read, and takes the server's figures on reset", () => {
    const read = unreadReducer(start, { type: "conversationRead", conversation: { kind: "personal", conversationId: 7 } });
    expect(read.personal).toEqual([]);
    expect(unreadReducer(read, { type: "conversationRead", conversation: { kind: "group", conversationId: 1 } })).toBe(read);
    const reset = unreadReducer(read, {
      type: "reset",
      notifications: 0,
      record: { personal: [], group: [{ conversationId: 3, unreadMessages: 5, processed: true }] },
    });
    expect(reset).toEqual({ notifications: 0, personal: [], group: [{ conversationId: 3, unreadMessages: 5, processed: true }] });
  });
});

describe("unread totals", () => {
  it("adds the notification count and every chat counter, leaving out the conversation on screen", () => {
    const state = unreadReducer(start, { type: "notification", notification: groupMessage(12), open: null });
    expect(chatUnreadTotal(state)).toBe(4);
    expect(unreadTotal(state)).toBe(6);
    expect(unreadTotal(state, { kind: "personal", conversationId: 7 })).toBe(3);
  });

  it("reads the conversation of chat notifications only", () => {
    expect(chatConversationOf(groupMessage(4))).toEqual({ kind: "group", conversationId: 4 });
    expect(chatConversationOf(personalMessage(5))).toEqual({ kind: "personal", conversationId: 5 });
    expect(chatConversationOf(like)).toBeNull();
  });
});

describe("titleWithUnread (docs/product/interface.md#page-titles)", () => {
  it("prefixes the unread total, with 99+ above 99 and nothing at 0", () => {
    expect(titleWithUnread("Главная | Сходка", 1)).toBe("(1) Главная | Сходка");
    expect(titleWithUnread("Главная | Сходка", 99)).toBe("(99) Главная | Сходка");
    expect(titleWithUnread("Главная | Сходка", 100)).toBe("(99+) Главная | Сходка");
    expect(titleWithUnread("Главная | Сходка", 0)).toBe("Главная | Сходка");
  });

  it("replaces an earlier prefix instead of stacking them", () => {
    expect(titleWithUnread("(3) Главная | Сходка", 4)).toBe("(4) Главная | Сходка");
    expect(titleWithUnread("(99+) Главная | Сходка", 0)).toBe("Главная | Сходка");
    // A title that merely starts with a bracket is left alone.
    expect(titleWithUnread("(черновик) Пост | Сходка", 2)).toBe("(2) (черновик) Пост | Сходка");
  });

  it("formats badge counts the same way", () => {
    expect(formatUnreadCount(0)).toBe("0");
    expect(formatUnreadCount(42)).toBe("42");
    expect(formatUnreadCount(1000)).toBe("99+");
  });
});
