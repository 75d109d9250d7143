import { describe, expect, it } from "vitest";
import type { MessageDto } from "~/domain/conversations/types";
import {
  applyFrame,
  dayTitle,
  forgetRestored,
  formatListTime,
  formatMessageTime,
  groupByDay,
  isConversationFrame,
  mergeMessages,
  trackRestored,
  withRestored,
} from "./messages";

function message(id: number, patch: Partial<MessageDto> = {}): MessageDto {
  return {
    id,
    conversationId: 1,
    author: { id: 1, username: "ivan", displayName: null, image: null, ranks: [] },
    body: `сообщение ${id}`,
    image: null,
    replyTo: null,
    createdAt: "2026-11-21T10:00:00.000Z",
    editedAt: null,
    deleted: false,
    moderated: false,
    hidden: false,
    mentions: [],
    ...patch,
  };
}

describe("mergeMessages", () => {
  it("keeps each message once, oldest first, whichever list brought it", () => {
    const page = [message(3), message(4)];
    const older = [message(1), message(2)];
    const live = [message(4), message(5)];
    expect(mergeMessages(older, page, live).map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it("prefers the edited and then the deleted version of a message", () => {
    const edited = message(2, { body: "исправлено", editedAt: "2026-11-21T10:05:00.000Z" });
    expect(mergeMessages([edited], [message(2)])[0]!.body).toBe("исправлено");
    expect(mergeMessages([message(2)], [edited])[0]!.body).toBe("исправлено");
    const deleted = message(2, { body: "", deleted: true });
    expect(mergeMessages([deleted], [edited])[0]!.deleted).toBe(true);
  });
});

describe("trackRestored", () => {
  it("shows a message a moderator restored, though merging keeps the deleted copy, until it is deleted again", () => {
    const removed = message(2, { body: "", deleted: true, moderated: true });
    const back = message(2);
    const shown = mergeMessages([message(1), removed], [back]);
    expect(shown[1]!.deleted).toBe(true);
    const restored = trackRestored(new Map(), shown, [back]);
    expect(withRestored(shown, restored).map((m) => m.deleted)).toEqual([false, false]);
    const edited = message(2, { body: "исправлено", editedAt: "2026-11-21T10:05:00.000Z" });
    expect(withRestored(shown, trackRestored(restored, shown, [edited]))[1]!.body).toBe("исправлено");
    expect(withRestored(shown, trackRestored(restored, shown, [removed]))[1]!.deleted).toBe(true);
    expect(withRestored(shown, forgetRestored(restored, 2))[1]!.deleted).toBe(true);
  });

  it("does not undo an author's own deletion or a deletion a stale page has not seen", () => {
    const ownDelete = message(2, { body: "", deleted: true, moderated: false });
    expect(trackRestored(new Map(), [ownDelete], [message(2)]).size).toBe(0);
    expect(trackRestored(new Map(), [message(2)], [message(2)]).size).toBe(0);
  });
});

describe("applyFrame", () => {
  it("adds a new message once, even when one's own send already brought it", () => {
    const mine = message(7);
    const live = applyFrame([mine], [], { type: "message.created", message: mine });
    expect(live).toHaveLength(1);
  });

  it("marks a message on screen deleted", () => {
    const live = applyFrame([], [message(3)], { type: "message.deleted", messageId: 3, conversationId: 1 });
    expect(live).toEqual([{ ...message(3), body: "", deleted: true }]);
    expect(applyFrame([], [], { type: "message.deleted", messageId: 9, conversationId: 1 })).toEqual([]);
  });

  it("updates the quotes of an edited or deleted message", () => {
    const quoted = message(3);
    const answer = message(4, { replyTo: { id: 3, author: "ivan", excerpt: "сообщение 3", deleted: false } });
    const edited = applyFrame([], [quoted, answer], {
      type: "message.updated",
      message: { ...quoted, body: "исправлено", editedAt: "2026-11-21T10:05:00.000Z" },
    });
    expect(mergeMessages([quoted, answer], edited).find((m) => m.id === 4)!.replyTo!.excerpt).toBe("исправлено");
    // A long edit is quoted as the server quotes it: one line, 100 characters (code points) with «…».
    const long = `${"😀".repeat(60)}\n\n${"я".repeat(60)}`;
    const longEdit = applyFrame([], [quoted, answer], { type: "message.updated", message: { ...quoted, body: long, editedAt: "2026-11-21T10:06:00.000Z" } });
    expect(longEdit.find((m) => m.id === 4)!.replyTo!.excerpt).toBe(`${"😀".repeat(60)} ${"я".repeat(38)}…`);
    const deleted = applyFrame(edited, [quoted, answer], { type: "message.deleted", messageId: 3, conversationId: 1 });
    const shown = mergeMessages([quoted, answer], deleted);
    expect(shown.map((m) => [m.id, m.deleted, m.replyTo?.deleted ?? null])).toEqual([
      [3, true, null],
      [4, false, true],
    ]);
  });

  it("recognises conversation frames only", () => {
    expect(isConversationFrame({ type: "message.created", message: message(1) })).toBe(true);
    expect(isConversationFrame({ type: "message.deleted", messageId: 1, conversationId: 1 })).toBe(true);
    expect(isConversationFrame({ type: "pong" })).toBe(false);
    expect(isConversationFrame(null)).toBe(false);
  });
});

describe("days and times (Moscow time)", () => {
  it("groups messages by day", () => {
    const days = groupByDay([
      message(1, { createdAt: "2026-11-20T20:00:00.000Z" }), // 23:00 in Moscow
      message(2, { createdAt: "2026-11-20T21:30:00.000Z" }), // 00:30 the next day
      message(3, { createdAt: "2026-11-21T08:00:00.000Z" }),
    ]);
    expect(days.map((d) => [d.day, d.messages.map((m) => m.id)])).toEqual([
      ["2026-11-20", [1]],
      ["2026-11-21", [2, 3]],
    ]);
  });

  it("titles days as a reader expects", () => {
    const now = new Date("2026-11-21T12:00:00.000Z");
    expect(dayTitle("2026-11-21", now)).toBe("Сегодня");
    expect(dayTitle("2026-11-20", now)).toBe("Вчера");
    expect(dayTitle("2026-11-02", now)).toBe("2 ноября");
    expect(dayTitle("2025-03-08", now)).toBe("8 марта 2025 г.");
  });

  it("shows the time for today's last message and the date otherwise", () => {
    const now = new Date("2026-11-21T12:00:00.000Z");
    expect(formatListTime("2026-11-21T11:05:00.000Z", now)).toBe("14:05");
    expect(formatListTime("2026-11-02T11:05:00.000Z", now)).toBe("2 нояб.");
  });

  it("counts days and shows times in the reader's time zone", () => {
    const list = [
      message(1, { createdAt: "2026-11-20T20:00:00.000Z" }), // 23:00 in Moscow, 05:00 on the 21st in Vladivostok
      message(2, { createdAt: "2026-11-21T08:00:00.000Z" }),
    ];
    expect(groupByDay(list, "Asia/Vladivostok").map((d) => [d.day, d.messages.map((m) => m.id)])).toEqual([["2026-11-21", [1, 2]]]);
    expect(groupByDay(list, "America/New_York").map((d) => d.day)).toEqual(["2026-11-20", "2026-11-21"]);
    expect(formatMessageTime("2026-11-20T20:00:00.000Z", "Asia/Vladivostok")).toBe("06:00");
    expect(formatMessageTime("2026-11-20T20:00:00.000Z")).toBe("23:00");
    // 23:30 UTC on the 21st: already the 22nd in Moscow, still the 21st in London.
    const now = new Date("2026-11-21T23:30:00.000Z");
    expect(dayTitle("2026-11-22", now)).toBe("Сегодня");
    expect(dayTitle("2026-11-21", now, "Europe/London")).toBe("Сегодня");
    expect(dayTitle("2026-11-20", now, "Europe/London")).toBe("Вчера");
    expect(dayTitle("2026-11-01", new Date("2026-11-02T10:00:00.000Z"), "Asia/Tokyo")).toBe("Вчера");
    expect(dayTitle("2026-02-28", new Date("2026-03-01T10:00:00.000Z"), "UTC")).toBe("Вчера");
    expect(dayTitle("2026-11-12", now, "Europe/London")).toBe("12 ноября");
  });
});
