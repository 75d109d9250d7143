/**
 * The font files app/styles/fonts.css declares (Inter and Montserrat, Cyrillic and Latin), asked
 * for with the page (docs/decisions/0043-fonts-asked-for-with-the-page.md). Every page's text uses
 * all four: Russian words take the Cyrillic files, spaces, digits and punctuation the Latin ones.
 */
import { preload } from "react-dom";
import interCyrillic from "@fontsource-variable/inter/files/inter-cyrillic-wght-normal.woff2?url";
import interLatin from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import montserratCyrillic from "@fontsource-variable/montserrat/files/montserrat-cyrillic-wght-normal.woff2?url";
import montserratLatin from "@fontsource-variable/montserrat/files/montserrat-latin-wght-normal.woff2?url";

const FONT_FILES = [interCyrillic, interLatin, montserratCyrillic, montserratLatin];

/**
 * Adds a `<link rel="preload" as="font">` for each font file to the document's head (React puts
 * font preloads first in it). Found only once the stylesheet applied, the fonts arrived after the
 * page's first layout, and each arrival laid the whole page out again. Call while rendering the
 * document.
 */
export function preloadFonts(): void {
  for (const href of FONT_FILES) preload(href, { as: "font", type: "font/woff2", crossOrigin: "anonymous" });
}
