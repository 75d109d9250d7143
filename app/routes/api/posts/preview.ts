/**
 * POST /api/posts/preview — the post editor's live preview: form field `body` (Markdown) in,
 * `{success, data: {html}}` out, rendered and sanitised as the published post will be
 * (docs/product/content.md#post-editor). Sign-in and the `X-CSRF-Token` header required: 401
 * `unauthorized`, 403 `csrf_invalid`.
 */
import type { Route } from "./+types/preview";
import { previewPostBody } from "~/domain/posts/preview.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { validateCsrfHeaderOrForm } from "~/lib/csrf.server";
import { handleApi } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";

export { methodNotAllowed as loader } from "~/lib/api.server";

export async function action({ request, context }: Route.ActionArgs) {
  return handleApi(async () => {
    await requireApiUser(context, request);
    await validateCsrfHeaderOrForm(request);
    const body = (await readForm(request)).get("body");
    return apiData(await previewPostBody(context.db, typeof body === "string" ? body : ""));
  });
}
