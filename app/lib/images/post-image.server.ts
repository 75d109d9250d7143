/**
 * Pictures uploaded into a post's text (docs/product/content.md#post-editor). Pure: takes the
 * uploaded bytes, returns the picture to store; saving it is the caller's job. The limits and
 * the refusal texts are the avatar's (app/lib/images/avatar.server.ts, docs/product/limits.md#uploads-and-images).
 */
import { ValidationFailed } from "../errors";
import { MAX_AVATAR_BYTES } from "./avatar.server";
import { probeImage } from "./decode.server";
import { TRANSFORM_TIMEOUT_S } from "./transform.server";

/** The largest picture upload, in bytes (10 MB, as avatars). */
export const MAX_POST_IMAGE_BYTES = MAX_AVATAR_BYTES;

/** The longest side of a stored post picture in pixels: the image endpoint's largest width (1536 × 2). */
export const POST_IMAGE_MAX_SIDE = 3072;

const refuse = (message: string, code: string) => new ValidationFailed(message, { image: [message] }, code);

/**
 * Validates an uploaded picture and returns it as WebP with its size in pixels: EXIF orientation applied, metadata
 * dropped, shrunk to fit 3072×3072 (never enlarged), the first frame of an animation. The type is
 * recognised from the content: jpeg, png, webp, gif or avif. Throws ValidationFailed (400, field
 * `image`) with code `image_empty`, `image_too_large` (over 10 MB) or `image_unsupported_type`
 * (not one of those types, or over 50 megapixels or 8192 points a side, or damaged).
 */
export async function processPostImage(bytes: Uint8Array): Promise<{ bytes: Buffer; contentType: "image/webp"; width: number; height: number }> {
  if (bytes.byteLength === 0) throw refuse("Файл пустой — выберите изображение", "image_empty");
  if (bytes.byteLength > MAX_POST_IMAGE_BYTES) throw refuse("Файл слишком большой: не больше 10 МБ", "image_too_large");
  const image = await probeImage(bytes);
  if (!image) {
    throw refuse(
      "Можно загрузить изображение JPEG, PNG, WebP, GIF или AVIF не больше 50 мегапикселей и 8192 точек по каждой стороне",
      "image_unsupported_type",
    );
  }
  try {
    const { data, info } = await image.pipeline
      .timeout({ seconds: TRANSFORM_TIMEOUT_S })
      .resize(POST_IMAGE_MAX_SIDE, POST_IMAGE_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: "image/webp", width: info.width, height: info.height };
  } catch {
    throw refuse("Изображение повреждено — выберите другой файл", "image_unsupported_type");
  }
}
