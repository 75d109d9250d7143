import { describe, expect, it } from "vitest";
import { formatCount, formatDate, formatDateTime, formatDateTimeIn, formatRelative, LOCAL_TIME_ZONE, plural } from "./format";

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

describe("texts made without Intl (docs/decisions/0049-dates-without-intl-in-the-browser.md) read as Intl's", () => {
  // A spread of moments from Moscow's fixed offset (late 2014) to 2040, minutes apart and days apart.
  const moments = Array.from({ length: 3_000 }, (_, i) => new Date(Date.UTC(2014, 9, 25, 22) + i * 9_173_000 * 97 + (i % 7) * 61_000));
  const intlText = (date: Date, timeZone: string, options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat("ru-RU", { ...options, timeZone }).format(date);
  const full: Intl.DateTimeFormatOptions = { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" };

  it("Moscow's dates and times, as the server renders and the browser hydrates them", () => {
    for (const date of moments) {
      expect(formatDateTime(date.toISOString())).toBe(intlText(date, "Europe/Moscow", full));
      expect(formatDate(date.toISOString())).toBe(intlText(date, "Europe/Moscow", { day: "numeric", month: "long", year: "numeric" }));
    }
  });

  it("the reader's own zone, read from Date's local time, as Intl reads the same zone", () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    for (const date of moments) expect(formatDateTimeIn(date.toISOString(), LOCAL_TIME_ZONE)).toBe(intlText(date, zone, full));
  });

  // Intl's own path for the same clocks: Riyadh keeps UTC+3 as Moscow does, Abidjan UTC.
  it("relative dates in Moscow and in the reader's zone", () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const now = new Date("2026-11-21T11:05:00Z");
    for (const hoursAgo of [2, 11, 20, 30, 47, 50, 24 * 40, 24 * 400]) {
      const iso = new Date(now.getTime() - hoursAgo * 3600_000).toISOString();
      expect(formatRelative(iso, now, "Europe/Moscow", "МСК")).toBe(formatRelative(iso, now, "Asia/Riyadh", "МСК"));
      expect(formatRelative(iso, now, LOCAL_TIME_ZONE)).toBe(formatRelative(iso, now, zone === "UTC" ? "Africa/Abidjan" : zone));
    }
  });

  it("counts grouped by threes with a no-break space", () => {
    const values = [0, 7, 42, 999, 1_000, 9_999, 10_000, 12_345, 99_999, 100_000, 1_234_567, 1_000_000_000, Number.MAX_SAFE_INTEGER, -5, -1_234, -12_345_678];
    const intl = new Intl.NumberFormat("ru-RU");
    for (const value of values) expect(formatCount(value)).toBe(intl.format(value));
    expect(formatCount(1.5)).toBe("1,5");
  });
});
