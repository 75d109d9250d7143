/**
 * The post form's picture field without JavaScript (docs/product/content.md#post-editor): a file
 * chosen in `image` is uploaded when the form is published and put at the end of the text.
 */
import { uploadPostImage } from "~/domain/uploads/post-images.server";
import type { UserRow } from "~/domain/users/users.server";
import { BODY_MAX } from "~/domain/posts/schemas";
import type { AppContext } from "~/lib/context";
import { ValidationFailed } from "~/lib/errors";
import { getStorage } from "~/lib/storage/storage.server";

/**
 * `body` with the picture attached in form field `image` appended as `![](url)` on a paragraph of
 * its own, or `body` unchanged when no file was chosen. Throws what uploadPostImage throws (field
 * `image`), and ValidationFailed `body_too_long` (field `body`) when the picture would take the
 * text past BODY_MAX characters.
 */
export async function withAttachedImage(ctx: AppContext, actor: UserRow, form: FormData, body: string): Promise<string> {
  const file = form.get("image");
  if (!(file instanceof File) || file.size === 0) return body;
  const { url } = await uploadPostImage(ctx.db, getStorage(ctx.config), actor, new Uint8Array(await file.arrayBuffer()));
  const text = `${body.trimEnd()}\n\n![](${url})`;
  if (text.length > BODY_MAX) {
    const message = `Для изображения не хватает места: текст не длиннее ${BODY_MAX.toLocaleString("ru-RU")} символов`;
    throw new ValidationFailed(message, { body: [message] }, "body_too_long");
  }
  return text;
}
