/** Resizing and re-encoding for the image endpoint (issue 6 item 6), with sharp. */
import { ValidationFailed } from "../errors";
import { probeImage } from "./decode.server";
import { CONTENT_TYPES, pickFormat, type OutputFormat } from "./params";

export interface TransformedImage {
  bytes: Buffer;
  contentType: string;
  format: OutputFormat;
  /** Output width in pixels. */
  width: number;
}

/**
 * Resizes `bytes` to `width` pixels (never wider than the source: no upscaling; undefined
 * keeps the source width), keeping the aspect ratio, and encodes it at `quality` (1-100) in
 * the format pickFormat chooses from `accept`. Throws ValidationFailed (400,
 * `unsupported_image`) when the bytes are not a jpeg, png, webp, gif or avif picture.
 */
export async function transformImage(
  bytes: Uint8Array,
  options: { width: number | undefined; quality: number; accept: string | null },
): Promise<TransformedImage> {
  const image = await probeImage(bytes);
  if (!image) throw new ValidationFailed("Это не изображение или его формат не поддерживается", undefined, "unsupported_image");
  const format = pickFormat(options.accept, image);
  const width = Math.min(options.width ?? image.width, image.width);
  const quality = options.quality;
  let pipeline = image.pipeline.resize({ width, withoutEnlargement: true });
  if (format === "avif") pipeline = pipeline.avif({ quality, effort: 2 });
  else if (format === "webp") pipeline = pipeline.webp({ quality });
  else if (format === "jpeg") pipeline = pipeline.jpeg({ quality, mozjpeg: true });
  else if (format === "png") pipeline = pipeline.png({ quality, palette: quality < 100 });
  else pipeline = pipeline.gif();
  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: CONTENT_TYPES[format], format, width: info.width };
  } catch {
    // A header that reads fine over a body that does not decode (truncated or corrupt file).
    throw new ValidationFailed("Изображение повреждено и не может быть обработано", undefined, "unsupported_image");
  }
}
