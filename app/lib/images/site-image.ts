/**
 * Where the page loads a picture from, now that the Content-Security-Policy allows pictures from
 * this site only (`img-src 'self' data: blob:`, issue 13 item 11). Pure.
 */
import { classifyImageUrl } from "./allow-list";
import { imageUrl, optimizedImageUrl } from "./widths";

/**
 * The URL a page may show `src` at, `width` device pixels wide: a path on this site (or an absolute
 * URL on `siteOrigin`) as optimizedImageUrl gives it, a picture of `allowedHosts` through the image
 * endpoint, and null for anything else (another host, another scheme, a malformed URL) — the
 * browser would refuse to load it, and must not be sent to track readers.
 */
export function siteImageUrl(src: string, width: number, siteOrigin: string, allowedHosts: readonly string[]): string | null {
  let source: ReturnType<typeof classifyImageUrl>;
  try {
    source = classifyImageUrl(src, siteOrigin, allowedHosts);
  } catch {
    return null;
  }
  return source.kind === "local" ? optimizedImageUrl(source.path, { width }) : imageUrl(src, { width });
}

/**
 * The 10×10 placeholder (docs/product/interface.md#images) of a picture siteImageUrl
 * would show through the image endpoint, or null when the picture does not go through it (SVG,
 * another host) and so has no placeholder.
 */
export function sitePlaceholderUrl(src: string, siteOrigin: string, allowedHosts: readonly string[]): string | null {
  let source: ReturnType<typeof classifyImageUrl>;
  try {
    source = classifyImageUrl(src, siteOrigin, allowedHosts);
  } catch {
    return null;
  }
  if (source.kind === "remote") return imageUrl(src, { variant: "placeholder" });
  const shown = optimizedImageUrl(source.path, { variant: "placeholder" });
  return shown === source.path ? null : shown;
}
