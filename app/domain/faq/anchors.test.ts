import { describe, expect, it } from "vitest";
import { isValidAnchor, slugify } from "./anchors";

describe("FAQ anchors", () => {
  it.each([
    ["Как вывести депозит?", "kak-vyvesti-depozit"],
    ["Что такое «гарант»?", "chto-takoe-garant"],
    ["Ещё вопрос: щи, жук, юла, яма", "esche-vopros-schi-zhuk-yula-yama"],
    ["Fee 5 % — минимум 50 ₽", "fee-5-minimum-50"],
    ["???", ""],
  ])("%s → %s", (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });

  it("cuts long slugs at a word boundary, within 60 characters", () => {
    const slug = slugify("Почему вывод депозита занимает четырнадцать дней и можно ли его ускорить если очень нужно");
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug.endsWith("-")).toBe(false);
    expect(isValidAnchor(slug)).toBe(true);
  });

  it("accepts only what the database accepts", () => {
    expect(isValidAnchor("kak-vyvesti-depozit")).toBe(true);
    expect(isValidAnchor("-start")).toBe(false);
    expect(isValidAnchor("Заглавные")).toBe(false);
    expect(isValidAnchor("a".repeat(81))).toBe(false);
  });
});
