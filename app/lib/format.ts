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
