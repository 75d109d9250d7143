/**
 * The rouble sign «₽» (U+20BD) in the site's own fonts. It lives in the fonts' latin-ext files
 * (85 and 71 KB), which the site does not load (app/styles/fonts.css), so «₽» fell back to the
 * system font: another face and weight beside every sum. This cuts the one glyph out of each
 * latin-ext file, keeping the weight axis, into app/styles/fonts/*-rouble.woff2 (a few KB, fetched
 * only by pages that show «₽», by their unicode-range). The files are committed; after a font
 * package update run `npx tsx scripts/subset-rouble-fonts.ts` (app/styles/fonts.test.ts fails
 * until then).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import subsetFont from "subset-font";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The rouble sign, U+20BD. */
const ROUBLE = "\u20bd";

/** Each subset file (path from the repository root) and the latin-ext file it is cut from. */
export const ROUBLE_FONTS = [
  { file: "app/styles/fonts/inter-rouble.woff2", from: "node_modules/@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2" },
  { file: "app/styles/fonts/montserrat-rouble.woff2", from: "node_modules/@fontsource-variable/montserrat/files/montserrat-latin-ext-wght-normal.woff2" },
] as const;

/** The WOFF2 bytes holding only «₽» of `from` (a path from the repository root), all its weights. */
export async function subsetRouble(from: string): Promise<Buffer> {
  return subsetFont(readFileSync(path.join(ROOT, from)), ROUBLE, { targetFormat: "woff2" });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const { file, from } of ROUBLE_FONTS) {
    const bytes = await subsetRouble(from);
    writeFileSync(path.join(ROOT, file), bytes);
    console.log(`${file}: ${bytes.length} bytes`);
  }
}
