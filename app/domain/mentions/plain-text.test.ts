import { describe, expect, it } from "vitest";
import { markdownMentions } from "~/lib/markdown.server";
import { mentionSegments } from "./plain-text";

const ivan = { id: 7, username: "Ivan" };
const admin = { id: 1, username: "admin" };

describe("mentionSegments (public chat mentions as links)", () => {
  it("links each resolved @username, any case, and keeps the rest as text that joins back to the message", () => {
    const text = "@ivan, привет! Спроси у @ADMIN про сделку.";
    const segments = mentionSegments(text, [ivan, admin]);
    expect(segments).toEqual([{ text: "@ivan", mention: ivan }, { text: ", привет! Спроси у " }, { text: "@ADMIN", mention: admin }, { text: " про сделку." }]);
    expect(segments.map((s) => s.text).join("")).toBe(text);
  });

  it("leaves unknown names, names glued to a word, e-mail addresses and longer names as text", () => {
    for (const text of ["@someone привет", "text@admin", "mail admin@admin.ru", "@ivan-petrov", "@admin.panel", "@@admin"]) {
      expect(mentionSegments(text, [ivan, admin]).every((s) => !("mention" in s))).toBe(true);
    }
    // A sentence's final dot is fine.
    expect(mentionSegments("спасибо @ivan.", [ivan])).toEqual([{ text: "спасибо " }, { text: "@ivan", mention: ivan }, { text: "." }]);
  });

  it("agrees with the notification rule on plain text: the members it links are those markdownMentions finds", () => {
    const everyone = [ivan, admin, { id: 3, username: "петя_1" }];
    const known = new Set(everyone.map((member) => member.username.toLowerCase()));
    for (const text of ["@ivan и @admin", "text@admin @петя_1", "@ivan-petrov @admin.", "(@ivan) «@admin»", "@ivan_x @Ivan"]) {
      const linked = mentionSegments(text, everyone).flatMap((s) => ("mention" in s ? [s.text.slice(1).toLowerCase()] : []));
      expect([...new Set(linked)]).toEqual(markdownMentions(text).filter((name) => known.has(name)));
    }
  });

  it("never reads a message as markup: tags stay text beside the link", () => {
    const text = '<img src=x onerror="alert(1)"> @ivan <a href="javascript:alert(1)">x</a>';
    const segments = mentionSegments(text, [ivan]);
    expect(segments).toEqual([{ text: '<img src=x onerror="alert(1)"> ' }, { text: "@ivan", mention: ivan }, { text: ' <a href="javascript:alert(1)">x</a>' }]);
  });

  it("keeps a message without resolved mentions whole, and an empty one empty", () => {
    expect(mentionSegments("@ivan привет", [])).toEqual([{ text: "@ivan привет" }]);
    expect(mentionSegments("", [ivan])).toEqual([]);
  });
});
