/**
 * Dates and numbers as a Russian reader expects them. Times are shown in Moscow time on
 * both server and browser, so server-rendered text hydrates unchanged.
 *
 * In the browser a page's first Intl object costs 35–60 ms of the main thread (the ICU data it
 * loads; measured in Chromium here, docs/decisions/0049-dates-without-intl-in-the-browser.md), so
 * the texts a page hydrates with are made without Intl: Moscow's wall clock by arithmetic (UTC+3
 * all year since 2014), the reader's own by the Date's local time, digits grouped by hand. Intl
 * remains for other zones (the chat's reader zone) and moments in Moscow before 2014; the tests
 * compare each text with Intl's.
 */
const TIME_ZONE = "Europe/Moscow";

/** The zone name that stands for the reader's own: the browser's local time, read from Date. */
export const LOCAL_TIME_ZONE = "local";

/** «21 ноября 2026 г. в 14:05» */
export function formatDateTime(iso: string): string {
  return zonedTexts(iso, TIME_ZONE).full;
}

/** «21 ноября 2026 г.» */
export function formatDate(iso: string): string {
  return zonedTexts(iso, TIME_ZONE).dayMonthYear;
}

const NBSP = "\u00a0";
let integerFormat: Intl.NumberFormat | undefined;

/**
 * «12 345»: digits grouped by threes with a no-break space, as ru-RU does (from 1 000 up), made
 * without Intl for safe integers; other numbers go to Intl's ru-RU. Money's roubles are grouped by
 * it too (domain/ledger/money.ts).
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value)) return (integerFormat ??= new Intl.NumberFormat("ru-RU")).format(value);
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/gu, NBSP);
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

/** Month names as a date says them: «21 ноября». */
const MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"];
/** Moscow has kept UTC+3 all year since 26 October 2014, 02:00 local time. */
const MOSCOW_FIXED_SINCE_MS = Date.UTC(2014, 9, 25, 22);
const MOSCOW_OFFSET_MS = 3 * 3600 * 1000;

/** A moment as a wall clock shows it: month 1–12. */
interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/**
 * `date` on the wall clock of `timeZone` without Intl: the reader's own zone (LOCAL_TIME_ZONE) by
 * the Date's local time, Moscow by its fixed offset; null for any other zone or an earlier Moscow.
 */
function wallClock(date: Date, timeZone: string): WallClock | null {
  if (timeZone === LOCAL_TIME_ZONE) {
    return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate(), hour: date.getHours(), minute: date.getMinutes() };
  }
  if (timeZone !== TIME_ZONE || date.getTime() < MOSCOW_FIXED_SINCE_MS) return null;
  const moscow = new Date(date.getTime() + MOSCOW_OFFSET_MS);
  return {
    year: moscow.getUTCFullYear(),
    month: moscow.getUTCMonth() + 1,
    day: moscow.getUTCDate(),
    hour: moscow.getUTCHours(),
    minute: moscow.getUTCMinutes(),
  };
}

const twoDigits = (n: number) => String(n).padStart(2, "0");

/** The calendar day "YYYY-MM-DD" of a wall-clock moment, as en-CA writes it. */
const clockDay = ({ year, month, day }: WallClock) => `${year}-${twoDigits(month)}-${twoDigits(day)}`;

/** The calendar day "YYYY-MM-DD" of `date` in `timeZone`. */
function dayIn(date: Date, timeZone: string): string {
  const clock = wallClock(date, timeZone);
  return clock ? clockDay(clock) : zoned("day", timeZone).format(date);
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
    const clock = wallClock(date, timeZone);
    texts = clock
      ? clockTexts(clock)
      : {
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

/** The texts of a wall-clock moment, as Intl's ru-RU writes them (en-CA's for the day). */
function clockTexts(clock: WallClock): ZonedTexts {
  const time = `${twoDigits(clock.hour)}:${twoDigits(clock.minute)}`;
  const dayMonth = `${clock.day} ${MONTHS[clock.month - 1]}`;
  const dayMonthYear = `${dayMonth} ${clock.year} г.`;
  return { day: clockDay(clock), time, dayMonth, dayMonthYear, full: `${dayMonthYear} в ${time}` };
}

/** Today's and yesterday's calendar days ("YYYY-MM-DD") in `timeZone` as of `now`, remembered for its minute. */
const readerDays = new Map<string, { today: string; yesterday: string }>();
function daysAround(now: Date, timeZone: string): { today: string; yesterday: string } {
  // Every zone's offset is whole minutes: within one minute the day does not change.
  const minute = Math.floor(now.getTime() / 60_000);
  const key = `${minute}|${timeZone}`;
  let days = readerDays.get(key);
  if (!days) {
    days = { today: dayIn(now, timeZone), yesterday: dayIn(new Date(now.getTime() - 24 * 3600 * 1000), timeZone) };
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
