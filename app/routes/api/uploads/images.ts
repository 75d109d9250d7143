/**
 * POST /api/uploads/images — the post editor uploads a picture (multipart field `file`) and gets
 * `{success, data: {url}}` (201) to put in the text as `![](url)` (docs/product/content.md#post-editor).
 * Sign-in and the `X-CSRF-Token` header (or a `csrf` field) required. Errors: 401 `unauthorized`,
 * 403 `csrf_invalid`, `member_muted`, 400 `image_empty`, `image_too_large`, `image_unsupported_type`,
 * 413 `payload_too_large` (server/index.js, over 10 MB), 429 `rate_limited`.
 */
import type { Route } from "./+types/images";
import { uploadPostImage } from "~/domain/uploads/post-images.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { validateCsrfHeaderOrForm } from "~/lib/csrf.server";
import { handleApi, ValidationFailed } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { getStorage } from "~/lib/storage/storage.server";

export { methodNotAllowed as loader } from "~/lib/api.server";

export async function action({ request, context }: Route.ActionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    await validateCsrfHeaderOrForm(request);
    const file = (await readForm(request)).get("file");
    if (!(file instanceof File))
      throw new ValidationFailed("Файл пустой — выберите изображение", { image: ["Файл пустой — выберите изображение"] }, "image_empty");
    const uploaded = await uploadPostImage(context.db, getStorage(context.config), user, new Uint8Array(await file.arrayBuffer()));
    return apiData(uploaded, { status: 201 });
  });
}
