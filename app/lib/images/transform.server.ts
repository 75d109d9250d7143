/** Resizing and re-encoding for the image endpoint (issue 6 item 6), with sharp. */
import { AppError, ValidationFailed } from "../errors";
import { MAX_INPUT_DIMENSION, probeImageWithReason } from "./decode.server";
import { CONTENT_TYPES, IMAGE_VARIANTS, pickFormat, type ImageVariant, type OutputFormat } from "./params";

/** Seconds of libvips work one picture may take before it is abandoned (issue 13 item 6). */
export const TRANSFORM_TIMEOUT_S = 10;

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
 * the format pickFormat chooses from `accept`; a `variant` (IMAGE_VARIANTS) gives a fixed size,
 * fit and quality instead. Throws ValidationFailed (400,
 * `unsupported_image`) when the bytes are not a jpeg, png, webp, gif or avif picture, AppError
 * 413 `image_too_large` when a side exceeds MAX_INPUT_DIMENSION or the picture MAX_INPUT_PIXELS
 * (checked on the header, before decoding), and AppError 503 `image_timeout` when encoding takes
 * longer than TRANSFORM_TIMEOUT_S.
 */
export async function transformImage(
  bytes: Uint8Array,
  options: { width: number | undefined; quality: number; accept: string | null; variant?: ImageVariant },
): Promise<TransformedImage> {
  const image = await probeImageWithReason(bytes);
  if ("refused" in image) {
    if (image.refused === "too_large") {
      throw new AppError("image_too_large", 413, `Изображение слишком большое: не больше ${MAX_INPUT_DIMENSION} точек по каждой стороне`);
    }
    throw new ValidationFailed("Это не изображение или его формат не поддерживается", undefined, "unsupported_image");
  }
  const format = pickFormat(options.accept, image);
  const shape = options.variant ? IMAGE_VARIANTS[options.variant] : null;
  const width = Math.min(options.width ?? image.width, image.width);
  const quality = shape?.quality ?? options.quality;
  let pipeline = image.pipeline
    .timeout({ seconds: TRANSFORM_TIMEOUT_S })
    .resize(shape ? { width: shape.width, height: shape.height, fit: shape.fit, withoutEnlargement: false } : { width, withoutEnlargement: true });
  if (format === "avif") pipeline = pipeline.avif({ quality, effort: 2 });
  else if (format === "webp") pipeline = pipeline.webp({ quality });
  else if (format === "jpeg") pipeline = pipeline.jpeg({ quality, mozjpeg: true });
  else if (format === "png") pipeline = pipeline.png({ quality, palette: quality < 100 });
  else pipeline = pipeline.gif();
  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: CONTENT_TYPES[format], format, width: info.width };
  } catch (error) {
    if (error instanceof Error && /timeout/i.test(error.message)) {
      throw new AppError("image_timeout", 503, "Изображение обрабатывается слишком долго");
    }
    // A header that reads fine over a body that does not decode (truncated or corrupt file).
    throw new ValidationFailed("Изображение повреждено и не может быть обработано", undefined, "unsupported_image");
  }
}
