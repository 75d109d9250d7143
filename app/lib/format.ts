/**
 * Dates and numbers as a Russian reader expects them. Times are shown in Moscow time on
 * both server and browser, so server-rendered text hydrates unchanged.
 */
const TIME_ZONE = "Europe/Moscow";

const dateTime = new Intl.DateTimeFormat("ru-RU", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: TIME_ZONE,
});
const dateOnly = new Intl.DateTimeFormat("ru-RU", { day: "numeric", month: "long", year: "numeric", timeZone: TIME_ZONE });
const integer = new Intl.NumberFormat("ru-RU");

/** «21 ноября 2026 г. в 14:05» */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** «21 ноября 2026 г.» */
export function formatDate(iso: string): string {
  return dateOnly.format(new Date(iso));
}

/** «12 345» with a non-breaking thin space, as ru-RU groups digits. */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** The Russian plural form for `n`: plural(5, ["пост", "поста", "постов"]) → «постов». */
export function plural(n: number, forms: readonly [string, string, string]): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return forms[0];
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return forms[1];
  return forms[2];
}

/** Moscow, the zone the server renders dates in before the browser says the reader's own. */
export const SERVER_TIME_ZONE = TIME_ZONE;

const ZONED_FORMATS = {
  day: ["en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }],
  time: ["ru-RU", { hour: "2-digit", minute: "2-digit" }],
  dayMonth: ["ru-RU", { day: "numeric", month: "long" }],
  dayMonthYear: ["ru-RU", { day: "numeric", month: "long", year: "numeric" }],
  full: ["ru-RU", { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" }],
} as const satisfies Record<string, readonly [string, Intl.DateTimeFormatOptions]>;
const zonedFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The formatter of `kind` in `timeZone`, made once per zone: building an Intl.DateTimeFormat costs
 * tens of microseconds, and a page formats a date per post, comment and message. Throws
 * RangeError for an unknown zone, as Intl does.
 */
function zoned(kind: keyof typeof ZONED_FORMATS, timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let formatter = zonedFormatters.get(key);
  if (!formatter) {
    const [locale, options] = ZONED_FORMATS[kind];
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    zonedFormatters.set(key, formatter);
  }
  return formatter;
}

/** A moment's texts in one zone: none depends on when it is read, so each is formatted once. */
interface ZonedTexts {
  /** The calendar day, "YYYY-MM-DD" (for comparing days). */
  day: string;
  time: string;
  dayMonth: string;
  dayMonthYear: string;
  full: string;
}

/** How many (moment, zone) pairs zonedTexts remembers; the oldest is forgotten first. */
const ZONED_TEXTS_KEPT = 20_000;
const zonedTextsCache = new Map<string, ZonedTexts>();

/**
 * The texts of the moment `iso` in `timeZone`, formatted once and remembered: a page formats the
 * same comments' and posts' dates on every request, five Intl calls each (about 11 µs a date, 2 %
 * of a member's post page with 50 comments; issue 12).
 */
function zonedTexts(iso: string, timeZone: string): ZonedTexts {
  const key = `${iso}|${timeZone}`;
  let texts = zonedTextsCache.get(key);
  if (!texts) {
    const date = new Date(iso);
    texts = {
      day: zoned("day", timeZone).format(date),
      time: zoned("time", timeZone).format(date),
      dayMonth: zoned("dayMonth", timeZone).format(date),
      dayMonthYear: zoned("dayMonthYear", timeZone).format(date),
      full: zoned("full", timeZone).format(date),
    };
    if (zonedTextsCache.size >= ZONED_TEXTS_KEPT) zonedTextsCache.delete(zonedTextsCache.keys().next().value!);
    zonedTextsCache.set(key, texts);
  }
  return texts;
}

/** Today's and yesterday's calendar days ("YYYY-MM-DD") in `timeZone` as of `now`, remembered for its minute. */
const readerDays = new Map<string, { today: string; yesterday: string }>();
function daysAround(now: Date, timeZone: string): { today: string; yesterday: string } {
  // Every zone's offset is whole minutes: within one minute the day does not change.
  const minute = Math.floor(now.getTime() / 60_000);
  const key = `${minute}|${timeZone}`;
  let days = readerDays.get(key);
  if (!days) {
    const day = zoned("day", timeZone);
    days = { today: day.format(now), yesterday: day.format(new Date(now.getTime() - 24 * 3600 * 1000)) };
    if (readerDays.size >= 100) readerDays.clear();
    readerDays.set(key, days);
  }
  return days;
}

/**
 * A date read relatively (docs/product/interface.md#dates-and-numbers), as of `now` in `timeZone`:
 * under a minute (or in the future) «только что»; under an hour «5 минут назад»; the same day
 * «сегодня в 14:05»; the day before «вчера в 14:05»; the same year «21 ноября в 14:05»; else
 * «21 ноября 2025 г. в 14:05». With `zoneLabel` (the server's Moscow rendering) the clock times
 * carry it: «вчера в 14:05 МСК».
 */
export function formatRelative(iso: string, now: Date, timeZone: string = TIME_ZONE, zoneLabel?: string): string {
  const seconds = Math.floor((now.getTime() - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return "только что";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} ${plural(minutes, ["минуту", "минуты", "минут"])} назад`;
  const texts = zonedTexts(iso, timeZone);
  const time = texts.time + (zoneLabel ? ` ${zoneLabel}` : "");
  const { today, yesterday } = daysAround(now, timeZone);
  if (texts.day === today) return `сегодня в ${time}`;
  if (texts.day === yesterday) return `вчера в ${time}`;
  const sameYear = texts.day.slice(0, 4) === today.slice(0, 4);
  return `${sameYear ? texts.dayMonth : texts.dayMonthYear} в ${time}`;
}

/** The full date and time in a zone, for a tooltip: «21 ноября 2026 г. в 14:05». */
export function formatDateTimeIn(iso: string, timeZone: string): string {
  return zonedTexts(iso, timeZone).full;
}
