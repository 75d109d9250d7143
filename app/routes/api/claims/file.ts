/**
 * POST /api/claims (issue 5; PRODUCT.md Claims and blacklist): file a claim. JSON
 * `{accused: username | id, amount: kopecks, description, evidence?: string[], dealId?: number | null}`,
 * CSRF token in the `X-CSRF-Token` header. 201 `{success: true, data: ClaimDto}`.
 * 401 `unauthorized`; 403 `csrf_invalid`; 400 `invalid_body`, `invalid_input` (with fields),
 * `claim_against_self`, `deal_not_between_parties`; 404 `accused_not_found`; 409 `claim_already_open`.
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import type { Route } from "./+types/file";
import { fileClaim } from "~/domain/claims/claims.server";
import type { FileClaimInput } from "~/domain/claims/schemas";
import { apiData, requireApiUser } from "~/lib/api.server";
import { validateCsrfHeaderOrForm } from "~/lib/csrf.server";
import { handleApi } from "~/lib/errors";
import { readJsonObject } from "./body.server";

export async function action({ request, context }: Route.ActionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    await validateCsrfHeaderOrForm(request);
    const body = await readJsonObject(request);
    // fileClaim validates every field itself (FileClaimInputSchema) and answers invalid_input.
    return apiData(await fileClaim(context.db, user.id, body as unknown as FileClaimInput), { status: 201 });
  });
}
