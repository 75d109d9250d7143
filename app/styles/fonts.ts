/**
 * The font files app/styles/fonts.css declares (Inter and Montserrat, Cyrillic and Latin, and each
 * one's rouble sign), asked for with the page (docs/decisions/0043-fonts-asked-for-with-the-page.md,
 * docs/decisions/0058-the-rouble-sign-is-asked-for-with-the-page.md). Every page's text uses the
 * first four: Russian words take the Cyrillic files, spaces, digits and punctuation the Latin ones.
 * «₽» is in prices, balances and members' own text on most pages; its files are 1.2 and 3.6 KB.
 */
import { preload } from "react-dom";
import interCyrillic from "@fontsource-variable/inter/files/inter-cyrillic-wght-normal.woff2?url";
import interLatin from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import montserratCyrillic from "@fontsource-variable/montserrat/files/montserrat-cyrillic-wght-normal.woff2?url";
import montserratLatin from "@fontsource-variable/montserrat/files/montserrat-latin-wght-normal.woff2?url";
import interRouble from "./fonts/inter-rouble.woff2?url";
import montserratRouble from "./fonts/montserrat-rouble.woff2?url";

const FONT_FILES = [interCyrillic, interLatin, montserratCyrillic, montserratLatin, interRouble, montserratRouble];

/**
 * Adds a `<link rel="preload" as="font">` for each font file to the document's head (React puts
 * font preloads first in it). Found only once the stylesheet applied, the fonts arrived after the
 * page's first layout, and each arrival laid the whole page out again. Call while rendering the
 * document.
 */
export function preloadFonts(): void {
  for (const href of FONT_FILES) preload(href, { as: "font", type: "font/woff2", crossOrigin: "anonymous" });
}
