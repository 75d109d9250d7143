import { describe, expect, it } from "vitest";
import { excerptOf, messageExcerpt, REPLY_EXCERPT_LENGTH } from "./excerpt";

describe("excerptOf (the quote of a reply)", () => {
  it("keeps a short message whole, on one line", () => {
    expect(excerptOf("  Привет,\n\n  как дела?  ")).toBe("Привет, как дела?");
    expect(excerptOf("я".repeat(REPLY_EXCERPT_LENGTH))).toBe("я".repeat(REPLY_EXCERPT_LENGTH));
  });

  it("cuts a longer one to 100 code points, the ellipsis last, never splitting an emoji", () => {
    const cut = excerptOf("😀".repeat(REPLY_EXCERPT_LENGTH + 1));
    expect([...cut]).toHaveLength(REPLY_EXCERPT_LENGTH);
    expect(cut).toBe(`${"😀".repeat(REPLY_EXCERPT_LENGTH - 1)}…`);
  });
});

describe("messageExcerpt (a quote, or the conversation list's line)", () => {
  it("a picture alone reads «Изображение»; text beside a picture is quoted as text", () => {
    expect(messageExcerpt("", true)).toBe("Изображение");
    expect(messageExcerpt("  Смотри  ", true)).toBe("Смотри");
    expect(messageExcerpt("", false)).toBe("");
  });
});
