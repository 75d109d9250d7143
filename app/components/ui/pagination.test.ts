import { describe, expect, it } from "vitest";

import { paginationRange } from "~/components/ui/pagination";

describe("paginationRange", () => {
  it("returns nothing when there are no pages", () => {
    expect(paginationRange(1, 0)).toEqual([]);
    expect(paginationRange(1, -3)).toEqual([]);
    expect(paginationRange(1, Number.NaN)).toEqual([]);
  });

  it("returns a single page", () => {
    expect(paginationRange(1, 1)).toEqual([1]);
  });

  it("lists every page when they all fit (up to 2 * siblings + 5)", () => {
    expect(paginationRange(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(paginationRange(5, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(paginationRange(9, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("uses the default sibling count of 2", () => {
    expect(paginationRange(10, 20)).toEqual(paginationRange(10, 20, 2));
  });

  it("shows an ellipsis only on the right near the start", () => {
    expect(paginationRange(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, "ellipsis", 20]);
    expect(paginationRange(3, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, "ellipsis", 20]);
    expect(paginationRange(5, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, "ellipsis", 20]);
  });

  it("shows an ellipsis only on the left near the end", () => {
    expect(paginationRange(20, 20)).toEqual([1, "ellipsis", 14, 15, 16, 17, 18, 19, 20]);
    expect(paginationRange(16, 20)).toEqual([1, "ellipsis", 14, 15, 16, 17, 18, 19, 20]);
  });

  it("shows ellipses on both sides in the middle with 2 siblings each side", () => {
    expect(paginationRange(10, 20)).toEqual([1, "ellipsis", 8, 9, 10, 11, 12, "ellipsis", 20]);
    expect(paginationRange(6, 20)).toEqual([1, "ellipsis", 4, 5, 6, 7, 8, "ellipsis", 20]);
    expect(paginationRange(15, 20)).toEqual([1, "ellipsis", 13, 14, 15, 16, 17, "ellipsis", 20]);
  });

  it("never hides a single page behind an ellipsis", () => {
    for (let total = 1; total <= 40; total++) {
      for (let page = 1; page <= total; page++) {
        const items = paginationRange(page, total);
        items.forEach((item, i) => {
          if (item !== "ellipsis") return;
          const before = items[i - 1];
          const after = items[i + 1];
          expect(typeof before).toBe("number");
          expect(typeof after).toBe("number");
          expect((after as number) - (before as number)).toBeGreaterThan(2);
        });
      }
    }
  });

  it("always contains first, last and current page with its siblings, in order, with constant length", () => {
    for (const siblings of [0, 1, 2, 3]) {
      for (let total = 1; total <= 40; total++) {
        for (let page = 1; page <= total; page++) {
          const items = paginationRange(page, total, siblings);
          const numbers = items.filter((i): i is number => i !== "ellipsis");
          expect(numbers[0]).toBe(1);
          expect(numbers.at(-1)).toBe(total);
          for (let p = Math.max(1, page - siblings); p <= Math.min(total, page + siblings); p++) {
            expect(numbers).toContain(p);
          }
          expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
          expect(new Set(numbers).size).toBe(numbers.length);
          expect(items.length).toBe(Math.min(total, 2 * siblings + 5));
        }
      }
    }
  });

  it("clamps out-of-range and fractional pages", () => {
    expect(paginationRange(0, 20)).toEqual(paginationRange(1, 20));
    expect(paginationRange(-5, 20)).toEqual(paginationRange(1, 20));
    expect(paginationRange(99, 20)).toEqual(paginationRange(20, 20));
    expect(paginationRange(10.7, 20)).toEqual(paginationRange(10, 20));
    expect(paginationRange(Number.NaN, 20)).toEqual(paginationRange(1, 20));
  });

  it("supports other sibling counts", () => {
    expect(paginationRange(10, 20, 1)).toEqual([1, "ellipsis", 9, 10, 11, "ellipsis", 20]);
    expect(paginationRange(10, 20, 0)).toEqual([1, "ellipsis", 10, "ellipsis", 20]);
  });
});
