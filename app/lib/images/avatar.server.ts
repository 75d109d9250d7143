/**
 * Avatar processing for the settings page (issue 6: members change their avatar). Pure: takes
 * the uploaded bytes, returns the picture to store; saving it is the caller's job
 * (app/lib/storage/storage.server.ts).
 */
import { ValidationFailed } from "../errors";
import { probeImage } from "./decode.server";
import { TRANSFORM_TIMEOUT_S } from "./transform.server";

/** Side of the stored avatar in pixels (the largest avatar shown is lg 128 px, docs/product/interface.md#avatar, at density 2). */
export const AVATAR_SIZE = 256;

/** The largest avatar upload, in bytes (10 MB). */
export const MAX_AVATAR_BYTES = 10 * 1024 * 1024;

const refuse = (message: string, code: string) => new ValidationFailed(message, { avatar: [message] }, code);

/**
 * Validates an uploaded avatar and returns it square-cropped around the centre and resized to
 * 256×256 WebP (EXIF orientation applied, metadata dropped; small pictures are enlarged).
 * The type is recognised from the content: jpeg, png, webp, gif or avif (first frame of an
 * animation). Throws ValidationFailed (400, field `avatar`) with code `avatar_empty`,
 * `avatar_too_large` (over 10 MB or 50 megapixels) or `avatar_unsupported_type`.
 */
export async function processAvatar(bytes: Uint8Array): Promise<{ bytes: Buffer; contentType: "image/webp" }> {
  if (bytes.byteLength === 0) throw refuse("Файл пустой — выберите изображение", "avatar_empty");
  if (bytes.byteLength > MAX_AVATAR_BYTES) throw refuse("Файл слишком большой: не больше 10 МБ", "avatar_too_large");
  const image = await probeImage(bytes);
  if (!image) {
    throw refuse(
      "Аватар должен быть изображением JPEG, PNG, WebP, GIF или AVIF не больше 50 мегапикселей и 8192 точек по каждой стороне",
      "avatar_unsupported_type",
    );
  }
  try {
    const output = await image.pipeline
      .timeout({ seconds: TRANSFORM_TIMEOUT_S })
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: "cover", position: "centre" })
      .webp({ quality: 85 })
      .toBuffer();
    return { bytes: output, contentType: "image/webp" };
  } catch {
    throw refuse("Изображение повреждено — выберите другой файл", "avatar_unsupported_type");
  }
}
