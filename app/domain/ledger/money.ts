/**
 * Roubles as people type and read them, kopecks as the ledger stores them
 * (docs/product/money.md#amounts: integer kopecks, never floats). A pure module: pages and the browser use it too.
 *
 * Formatting is done by hand, not with Intl, so the server and every browser print exactly
 * the same characters (no hydration mismatch): groups of three digits and the ₽ sign are
 * separated by a no-break space (U+00A0), negatives use the minus sign U+2212.
 */

import { formatCount } from "~/lib/format";

/** Kopecks in a rouble. */
export const KOPECKS_PER_ROUBLE = 100;

/**
 * The largest amount one operation may move: 10 000 000 ₽ (1 000 000 000 kopecks). Far below
 * 2^53, so sums of many operations stay exact as JS numbers.
 */
export const MAX_OPERATION_KOPECKS = 10_000_000 * KOPECKS_PER_ROUBLE;

/** The longest hold a sender may set on a transfer: 30 days (docs/product/money.md#holds). */
export const MAX_HOLD_HOURS = 720;
/** The longest transfer memo, in characters. */
export const MAX_MEMO_LENGTH = 500;

const NBSP = "\u00a0";
const MINUS = "\u2212";

/** True for a whole number of kopecks from 1 to MAX_OPERATION_KOPECKS. */
export function isValidAmount(kopecks: number): boolean {
  return Number.isSafeInteger(kopecks) && kopecks > 0 && kopecks <= MAX_OPERATION_KOPECKS;
}

/**
 * Parses a rouble amount typed by a person into kopecks: «1234», «1 234,50», «1234.5»,
 * «1 234,50 ₽», «100 руб.». Spaces (ordinary, no-break, thin) may group digits; the decimal
 * separator is a comma or a dot with at most two digits after it. Returns null for anything
 * else (negative, three decimals, letters, empty, more than 13 integer digits). Zero parses
 * to 0: range checks are the caller's (isValidAmount).
 */
export function parseRoubles(input: string): number | null {
  const text = input
    .trim()
    .replace(/\s*(₽|руб\.?|р\.?)$/iu, "")
    .replace(/[\s\u00a0\u2009\u202f]/gu, "");
  const match = /^(\d{1,13})(?:[.,](\d{1,2}))?$/u.exec(text);
  if (!match) return null;
  const roubles = Number.parseInt(match[1]!, 10);
  const kopecks = match[2] ? Number.parseInt(match[2].padEnd(2, "0"), 10) : 0;
  return roubles * KOPECKS_PER_ROUBLE + kopecks;
}

/** «1 234,50 ₽» for 123450 kopecks; «−5,00 ₽» for −500. Throws on a non-integer. */
export function formatKopecks(kopecks: number): string {
  return `${kopecks < 0 ? MINUS : ""}${formatNumber(Math.abs(kopecks))}${NBSP}₽`;
}

/** A balance-log amount with its sign: «+1 234,50 ₽», «−5,00 ₽», «0,00 ₽». */
export function formatSignedKopecks(kopecks: number): string {
  return kopecks > 0 ? `+${formatKopecks(kopecks)}` : formatKopecks(kopecks);
}

/** The value to put back into an amount field: «1234,50» (no grouping, no sign of currency). */
export function kopecksToInput(kopecks: number): string {
  if (!Number.isSafeInteger(kopecks) || kopecks < 0) throw new RangeError(`not a kopeck amount: ${kopecks}`);
  return `${Math.floor(kopecks / KOPECKS_PER_ROUBLE)},${String(kopecks % KOPECKS_PER_ROUBLE).padStart(2, "0")}`;
}

function formatNumber(kopecks: number): string {
  if (!Number.isSafeInteger(kopecks)) throw new RangeError(`not a kopeck amount: ${kopecks}`);
  const roubles = formatCount(Math.floor(kopecks / KOPECKS_PER_ROUBLE));
  return `${roubles},${String(kopecks % KOPECKS_PER_ROUBLE).padStart(2, "0")}`;
}
