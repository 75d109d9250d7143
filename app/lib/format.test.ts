import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatRelative, plural } from "./format";

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

describe("formatRelative (docs/product/interface.md#dates-and-numbers)", () => {
  // 25 November 2026, 15:00 in Moscow (12:00 UTC).
  const now = new Date("2026-11-25T12:00:00Z");
  it.each([
    ["2026-11-25T11:59:30Z", "только что"],
    ["2026-11-25T12:00:20Z", "только что"],
    ["2026-11-25T11:59:00Z", "1 минуту назад"],
    ["2026-11-25T11:57:00Z", "3 минуты назад"],
    ["2026-11-25T11:55:00Z", "5 минут назад"],
    ["2026-11-25T11:01:00Z", "59 минут назад"],
    ["2026-11-25T06:30:00Z", "сегодня в 09:30"],
    ["2026-11-24T11:05:00Z", "вчера в 14:05"],
    ["2026-11-24T20:59:00Z", "вчера в 23:59"],
    ["2026-11-24T21:00:00Z", "сегодня в 00:00"],
    ["2026-11-23T20:00:00Z", "23 ноября в 23:00"],
    ["2025-03-08T09:00:00Z", "8 марта 2025 г. в 12:00"],
  ])("%s reads «%s» in Moscow", (iso, text) => {
    expect(formatRelative(iso, now)).toBe(text);
  });
  it("marks the server's Moscow clock times with «МСК»", () => {
    expect(formatRelative("2026-11-24T11:05:00Z", now, "Europe/Moscow", "МСК")).toBe("вчера в 14:05 МСК");
    expect(formatRelative("2026-11-25T11:55:00Z", now, "Europe/Moscow", "МСК")).toBe("5 минут назад");
  });
  it("counts days in the reader's zone", () => {
    // 22:30 UTC on the 24th is already the 25th in Moscow but still the 24th in New York.
    const late = "2026-11-24T22:30:00Z";
    expect(formatRelative(late, now, "Europe/Moscow")).toBe("сегодня в 01:30");
    expect(formatRelative(late, now, "America/New_York")).toBe("вчера в 17:30");
    expect(formatRelative(late, now, "Asia/Vladivostok")).toBe("сегодня в 08:30");
  });
  it("turns «сегодня» into «вчера» at the reader's midnight, though each date is formatted once", () => {
    const evening = "2026-11-25T19:00:00Z"; // 22:00 in Moscow
    expect(formatRelative(evening, new Date("2026-11-25T20:59:59Z"), "Europe/Moscow")).toBe("сегодня в 22:00");
    expect(formatRelative(evening, new Date("2026-11-25T21:00:00Z"), "Europe/Moscow")).toBe("вчера в 22:00");
    expect(formatRelative(evening, new Date("2026-11-26T21:00:00Z"), "Europe/Moscow")).toBe("25 ноября в 22:00");
    expect(formatRelative(evening, new Date("2027-01-02T09:00:00Z"), "Europe/Moscow")).toBe("25 ноября 2026 г. в 22:00");
  });
});
