import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, plural } from "./format";

describe("plural", () => {
  it.each([
    [1, "пост"],
    [2, "поста"],
    [5, "постов"],
    [11, "постов"],
    [21, "пост"],
    [22, "поста"],
    [112, "постов"],
  ])("%i → %s", (n, word) => {
    expect(plural(n, ["пост", "поста", "постов"])).toBe(word);
  });
});

describe("dates", () => {
  it("shows Moscow time in Russian", () => {
    expect(formatDateTime("2026-11-21T11:05:00Z")).toBe("21 ноября 2026 г. в 14:05");
    expect(formatDate("2026-01-01T00:30:00Z")).toBe("1 января 2026 г.");
  });
});
