import { describe, expect, it } from "vitest";
import { filterWords, matchesFilter, normalizeForFilter } from "./filter";

describe("the FAQ filter", () => {
  it("normalises case, ё and punctuation", () => {
    expect(normalizeForFilter("  Ещё РАЗ: «Депозит»,  14 дней!")).toBe("еще раз депозит 14 дней");
  });

  it("every word of the query must occur", () => {
    const text = normalizeForFilter("Как вывести депозит? Вывод занимает 14 дней.");
    expect(matchesFilter(text, filterWords("депозит"))).toBe(true);
    expect(matchesFilter(text, filterWords("ВЫВОД 14"))).toBe(true);
    expect(matchesFilter(text, filterWords("вывод гарант"))).toBe(false);
    expect(matchesFilter(text, filterWords("   "))).toBe(true);
  });

  it("ё and е are the same letter", () => {
    expect(matchesFilter(normalizeForFilter("Ещё вопросы"), filterWords("еще"))).toBe(true);
    expect(matchesFilter(normalizeForFilter("Еще вопросы"), filterWords("ещё"))).toBe(true);
  });
});
