/**
 * Draws the site's icons from public/favicon.svg (their source): public/favicon-32.png, the tab's
 * icon, and public/apple-touch-icon.png (180 px), the home screen's. The pages name the PNGs, not
 * the SVG: a browser draws an SVG icon on the page's main thread after the first paint (docs/decisions/0059).
 *
 *   node scripts/favicons.mjs      after changing public/favicon.svg; commit the PNGs
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const PUBLIC = path.resolve(import.meta.dirname, "../public");
const SOURCE = readFileSync(path.join(PUBLIC, "favicon.svg"), "utf8");
// The home screen rounds the icon's corners itself and fills what is transparent with black.
const SQUARE = SOURCE.replace(/ rx="\d+"/, "");

for (const [file, size, svg] of [
  ["favicon-32.png", 32, SOURCE],
  ["apple-touch-icon.png", 180, SQUARE],
]) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: size <= 32 })
    .toFile(path.join(PUBLIC, file));
  console.log(`public/${file}: ${size}×${size}`);
}
