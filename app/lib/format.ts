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

/** The calendar day of a moment in a zone, as "YYYY-MM-DD" (for comparing days). */
function dayKey(date: Date, timeZone: string): string {
  return zoned("day", timeZone).format(date);
}

/**
 * A date read relatively (docs/product/interface.md#dates-and-numbers), as of `now` in `timeZone`:
 * under a minute (or in the future) «только что»; under an hour «5 минут назад»; the same day
 * «сегодня в 14:05»; the day before «вчера в 14:05»; the same year «21 ноября в 14:05»; else
 * «21 ноября 2025 г. в 14:05». With `zoneLabel` (the server's Moscow rendering) the clock times
 * carry it: «вчера в 14:05 МСК».
 */
export function formatRelative(iso: string, now: Date, timeZone: string = TIME_ZONE, zoneLabel?: string): string {
  const date = new Date(iso);
  const seconds = Math.floor((now.getTime() - date.getTime()) / 1000);
  if (seconds < 60) return "только что";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} ${plural(minutes, ["минуту", "минуты", "минут"])} назад`;
  const time = zoned("time", timeZone).format(date) + (zoneLabel ? ` ${zoneLabel}` : "");
  const day = dayKey(date, timeZone);
  if (day === dayKey(now, timeZone)) return `сегодня в ${time}`;
  if (day === dayKey(new Date(now.getTime() - 24 * 3600 * 1000), timeZone)) return `вчера в ${time}`;
  const sameYear = day.slice(0, 4) === dayKey(now, timeZone).slice(0, 4);
  const dayText = zoned(sameYear ? "dayMonth" : "dayMonthYear", timeZone).format(date);
  return `${dayText} в ${time}`;
}

/** The full date and time in a zone, for a tooltip: «21 ноября 2026 г. в 14:05». */
export function formatDateTimeIn(iso: string, timeZone: string): string {
  return zoned("full", timeZone).format(new Date(iso));
}
