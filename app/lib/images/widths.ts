/**
 * Widths and URLs of the image endpoint
 * (docs/product/interface.md#images: "a fixed image endpoint with query parameters url, w and q", snapped to the screens of docs/product/limits.md#uploads-and-images). Pure: components build image URLs
 * with `imageUrl` / `imageSrcSet`, the endpoint snaps widths with `snapWidth`.
 */

/** The fixed path of the image endpoint (app/routes/api/images/image.ts). */
export const IMAGE_ENDPOINT = "/api/image";

/** Screen widths in CSS pixels (docs/product/limits.md#uploads-and-images: xs 320 … xxl and 2xl 1536). */
export const IMAGE_SCREENS = { xs: 320, sm: 640, md: 768, lg: 1024, xl: 1280, xxl: 1536, "2xl": 1536 } as const;

/** Pixel densities (docs/product/limits.md#uploads-and-images: 1 and 2); a 2× screen asks for twice the CSS width. */
export const IMAGE_DENSITIES = [1, 2] as const;

/**
 * Every width in device pixels the endpoint produces: each screen width at each density,
 * ascending, without duplicates: 320, 640, 768, 1024, 1280, 1536, 2048, 2560, 3072.
 */
export const IMAGE_WIDTHS: readonly number[] = [
  ...new Set(Object.values(IMAGE_SCREENS).flatMap((screen) => IMAGE_DENSITIES.map((density) => screen * density))),
].sort((a, b) => a - b);

/** Quality when `q` is absent (docs/product/limits.md#uploads-and-images: default quality 100). */
export const DEFAULT_IMAGE_QUALITY = 100;

/**
 * The configured width nearest to `requested` (pixels, a positive number); a tie goes to the
 * larger width so the picture is never blurrier than asked. Requests above the widest width
 * get the widest (3072).
 */
export function snapWidth(requested: number): number {
  let best = IMAGE_WIDTHS[0]!;
  for (const width of IMAGE_WIDTHS) {
    if (Math.abs(width - requested) <= Math.abs(best - requested)) best = width;
  }
  return best;
}

/**
 * The endpoint URL of `src` (a path on this site such as /uploads/… or /images/…, or an
 * absolute URL on an allowed host) at `width` device pixels (snapped) and `quality` (1-100).
 */
export function imageUrl(src: string, options: { width?: number; quality?: number; variant?: "placeholder" | "notification" } = {}): string {
  const query = new URLSearchParams({ url: src });
  if (options.variant !== undefined) {
    query.set("v", options.variant);
    return `${IMAGE_ENDPOINT}?${query}`;
  }
  if (options.width !== undefined) query.set("w", String(snapWidth(options.width)));
  if (options.quality !== undefined) query.set("q", String(options.quality));
  return `${IMAGE_ENDPOINT}?${query}`;
}

/**
 * `src` through the endpoint when this site can resize it: a path on this site to a raster
 * picture (png, jpg, jpeg, webp, gif, avif) or anything under /uploads/. Everything else comes
 * back unchanged: SVG, under /uploads/ too (already scalable, and refused by the endpoint), data: URLs and
 * absolute URLs (the browser cannot know IMAGE_ALLOWED_HOSTS; they load directly).
 */
export function optimizedImageUrl(src: string, options: { width?: number; quality?: number; variant?: "placeholder" | "notification" } = {}): string {
  const local = src.startsWith("/") && !src.startsWith("//");
  const path = src.replace(/[?#].*$/, "");
  const raster = /\.(png|jpe?g|webp|gif|avif)$/i.test(path);
  const svg = /\.svg$/i.test(path);
  return local && !svg && (raster || src.startsWith("/uploads/")) ? imageUrl(src, options) : src;
}

/** A `srcSet` for an image shown `cssWidth` CSS pixels wide: one candidate per density ("… 1x, … 2x"). */
export function imageSrcSet(src: string, cssWidth: number, quality?: number): string {
  return IMAGE_DENSITIES.map((density) => `${imageUrl(src, { width: cssWidth * density, quality })} ${density}x`).join(", ");
}
