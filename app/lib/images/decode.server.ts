/**
 * Recognising an uploaded or fetched picture by its content (never by name or declared type)
 * with sharp, for the image endpoint and avatars.
 */
import sharp, { type Sharp } from "sharp";

/** Input formats accepted: jpeg, png, webp, gif and avif (SVG, TIFF, HEIC and the rest are refused). */
export type InputFormat = "jpeg" | "png" | "webp" | "gif" | "avif";

/** The largest decoded picture accepted, in pixels (about 7000×7000): stops decompression bombs. */
export const MAX_INPUT_PIXELS = 50_000_000;

/**
 * The longest side accepted, in pixels. A picture within MAX_INPUT_PIXELS can still be 1 pixel
 * wide and 49 000 000 high, a 95 KB PNG that took a minute of CPU to resize (issue 13 item 6).
 */
export const MAX_INPUT_DIMENSION = 8192;

/** Why probeImage refused the bytes. */
export type ProbeRefusal = "unsupported" | "too_large";

export interface ProbedImage {
  format: InputFormat;
  width: number;
  height: number;
  hasAlpha: boolean;
  /** A sharp pipeline on the bytes, auto-rotated by EXIF orientation (metadata is dropped on output). */
  pipeline: Sharp;
}

/**
 * Reads the header of `bytes` (only the header: nothing is decoded yet). Returns null when they
 * are not a picture of an accepted format or are larger than MAX_INPUT_PIXELS or
 * MAX_INPUT_DIMENSION on a side; never throws for bad input. Animated GIF and WebP keep their
 * first frame only. probeImageWithReason tells the two refusals apart.
 */
export async function probeImage(bytes: Uint8Array): Promise<ProbedImage | null> {
  const probed = await probeImageWithReason(bytes);
  return "refused" in probed ? null : probed;
}

/** As probeImage, with why the bytes were refused: `unsupported` (not an accepted picture) or `too_large` (pixels or a side over the caps). */
export async function probeImageWithReason(bytes: Uint8Array): Promise<ProbedImage | { refused: ProbeRefusal }> {
  if (bytes.byteLength === 0) return { refused: "unsupported" };
  const input = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" });
  try {
    const metadata = await input().metadata();
    const format = inputFormat(metadata.format, metadata.compression);
    if (!format || !metadata.width || !metadata.height) return { refused: "unsupported" };
    if (metadata.width * metadata.height > MAX_INPUT_PIXELS || Math.max(metadata.width, metadata.height) > MAX_INPUT_DIMENSION) {
      return { refused: "too_large" };
    }
    const rotated = (metadata.orientation ?? 1) >= 5;
    return {
      format,
      width: rotated ? metadata.height : metadata.width,
      height: rotated ? metadata.width : metadata.height,
      hasAlpha: metadata.hasAlpha ?? false,
      pipeline: input().rotate(),
    };
  } catch {
    return { refused: "unsupported" };
  }
}

function inputFormat(format: string | undefined, compression: string | undefined): InputFormat | null {
  if (format === "jpeg" || format === "png" || format === "webp" || format === "gif") return format;
  if (format === "heif" && compression === "av1") return "avif";
  return null;
}
