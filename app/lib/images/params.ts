/**
 * The query of the image endpoint (docs/product/interface.md#images): `url`, `w` and `q`, and the output format
 * chosen from the Accept header. Pure; errors are ValidationFailed (400) with stable codes.
 */
import { ValidationFailed } from "../errors";
import { DEFAULT_IMAGE_QUALITY, snapWidth } from "./widths";

export interface ImageQuery {
  /** The `url` parameter as given (classified by allow-list.ts). */
  url: string;
  /** Snapped width in device pixels, or undefined to keep the source width. */
  width: number | undefined;
  /** 1-100. */
  quality: number;
  /**
   * A fixed shape instead of `w`/`q` (docs/product/interface.md#images):
   * "placeholder" is 10×10 at quality 50 (shown blurred by 3 px while the picture loads),
   * "notification" a 150×150 square crop (avatars in the notification list).
   */
  variant: ImageVariant | undefined;
}

/** The fixed shapes of the image endpoint's `v` parameter. */
export const IMAGE_VARIANTS = {
  placeholder: { width: 10, height: 10, quality: 50, fit: "inside" },
  notification: { width: 150, height: 150, quality: 80, fit: "cover" },
} as const;

export type ImageVariant = keyof typeof IMAGE_VARIANTS;

/** Formats the endpoint writes (docs/product/interface.md#images: avif, webp, png, jpg, gif). */
export type OutputFormat = "avif" | "webp" | "png" | "jpeg" | "gif";

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
};

const invalid = (field: string, message: string, code: string) => new ValidationFailed(message, { [field]: [message] }, code);

/**
 * Reads `url` (required), `w` (a whole number of pixels 1-100000, snapped with snapWidth;
 * absent keeps the source width), `q` (a whole number 1-100, default 100) and `v` (an
 * IMAGE_VARIANTS name, which overrides `w` and `q`). Throws ValidationFailed with code
 * `invalid_image_url`, `invalid_image_width`, `invalid_image_quality` or `invalid_image_variant`.
 */
export function parseImageQuery(params: URLSearchParams): ImageQuery {
  const url = params.get("url");
  if (!url) throw invalid("url", "Не указана ссылка на изображение", "invalid_image_url");
  const w = params.get("w");
  let width: number | undefined;
  if (w !== null && w !== "") {
    if (!/^\d{1,6}$/.test(w) || Number(w) < 1 || Number(w) > 100_000) {
      throw invalid("w", "Ширина должна быть целым числом пикселей", "invalid_image_width");
    }
    width = snapWidth(Number(w));
  }
  const q = params.get("q");
  let quality = DEFAULT_IMAGE_QUALITY;
  if (q !== null && q !== "") {
    if (!/^\d{1,3}$/.test(q) || Number(q) < 1 || Number(q) > 100) {
      throw invalid("q", "Качество должно быть целым числом от 1 до 100", "invalid_image_quality");
    }
    quality = Number(q);
  }
  const v = params.get("v");
  let variant: ImageVariant | undefined;
  if (v !== null && v !== "") {
    if (!Object.hasOwn(IMAGE_VARIANTS, v)) throw invalid("v", "Неизвестный вид изображения", "invalid_image_variant");
    variant = v as ImageVariant;
  }
  return { url, width, quality, variant };
}

/** True when the Accept header lists `type` with a non-zero q (wildcards do not count). */
function accepts(accept: string, type: string): boolean {
  return accept.split(",").some((part) => {
    const [media, ...parameters] = part.trim().toLowerCase().split(";");
    if (media?.trim() !== type) return false;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * The output format: avif when Accept names image/avif, else webp when it names image/webp,
 * else the source format when it is png, jpeg or gif, else png for a source with
 * transparency and jpeg without (a webp or avif source sent to a browser that reads neither).
 */
export function pickFormat(accept: string | null, source: { format: string; hasAlpha: boolean }): OutputFormat {
  if (accept && accepts(accept, "image/avif")) return "avif";
  if (accept && accepts(accept, "image/webp")) return "webp";
  if (source.format === "png" || source.format === "jpeg" || source.format === "gif") return source.format;
  return source.hasAlpha ? "png" : "jpeg";
}
