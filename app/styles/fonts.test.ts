/**
 * The rouble sign's font files (app/styles/fonts.css) are what scripts/subset-rouble-fonts.ts cuts
 * from the installed font packages: a package update that changes the glyph fails here until the
 * files are made again.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUBLE_FONTS, subsetRouble } from "../../scripts/subset-rouble-fonts";

describe("the rouble sign's font files", () => {
  for (const { file, from } of ROUBLE_FONTS) {
    it(`${file} is «₽» cut from ${path.basename(from)}, a few KB`, async () => {
      const committed = readFileSync(path.resolve(import.meta.dirname, "../..", file));
      expect(committed.length).toBeLessThan(8_000);
      expect(committed.equals(await subsetRouble(from))).toBe(true);
    });
  }
});
