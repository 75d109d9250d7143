import { describe, expect, it } from "vitest";
import { formatKopecks, formatSignedKopecks, isValidAmount, kopecksToInput, MAX_OPERATION_KOPECKS, parseRoubles } from "./money";

const nb = (text: string) => text.replace(/ /gu, "\u00a0");

describe("parseRoubles", () => {
  it.each([
    ["1234", 123_400],
    ["1 234,50", 123_450],
    ["1\u00a0234,5", 123_450],
    ["1\u202f234.05", 123_405],
    ["1 234,50 ₽", 123_450],
    ["100 руб.", 10_000],
    ["100р", 10_000],
    [" 0,01 ", 1],
    ["0", 0],
    ["10000000", MAX_OPERATION_KOPECKS],
  ])("%j → %i kopecks", (input, kopecks) => {
    expect(parseRoubles(input)).toBe(kopecks);
  });

  it.each(["", " ", "-5", "1,234", "1.2.3", "12,", ",5", "abc", "1e3", "5 $", "12345678901234", "Infinity"])("refuses %j", (input) => {
    expect(parseRoubles(input)).toBeNull();
  });
});

describe("formatKopecks", () => {
  it.each([
    [0, "0,00 ₽"],
    [1, "0,01 ₽"],
    [50, "0,50 ₽"],
    [123_450, "1 234,50 ₽"],
    [100_000_000_000, "1 000 000 000,00 ₽"],
    [-500, "\u22125,00 ₽"],
  ])("%i kopecks → %j", (kopecks, text) => {
    expect(formatKopecks(kopecks)).toBe(nb(text));
  });

  it("signs log amounts and round-trips through parseRoubles", () => {
    expect(formatSignedKopecks(123_450)).toBe(nb("+1 234,50 ₽"));
    expect(formatSignedKopecks(-1)).toBe(nb("\u22120,01 ₽"));
    for (const kopecks of [1, 99, 100, 123_456, MAX_OPERATION_KOPECKS]) {
      expect(parseRoubles(formatKopecks(kopecks))).toBe(kopecks);
      expect(parseRoubles(kopecksToInput(kopecks))).toBe(kopecks);
    }
    expect(kopecksToInput(123_405)).toBe("1234,05");
    expect(() => formatKopecks(1.5)).toThrow(RangeError);
  });

  it("accepts only whole positive amounts up to 10 000 000 ₽", () => {
    expect(isValidAmount(1)).toBe(true);
    expect(isValidAmount(MAX_OPERATION_KOPECKS)).toBe(true);
    expect(isValidAmount(MAX_OPERATION_KOPECKS + 1)).toBe(false);
    expect(isValidAmount(0)).toBe(false);
    expect(isValidAmount(-1)).toBe(false);
    expect(isValidAmount(1.5)).toBe(false);
    expect(isValidAmount(Number.NaN)).toBe(false);
  });
});
