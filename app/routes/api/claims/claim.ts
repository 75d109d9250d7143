/**
 * GET /api/claims/{id} (issue 5; docs/product/claims.md#who-sees-a-claim): `{success: true, data: ClaimDto}`.
 * Upheld claims are public; open and rejected ones answer only the claimant, the accused and
 * moderators — 404 `claim_not_found` for anyone else (visitors included) and for an unknown id.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/claim";
import { getClaim } from "~/domain/claims/claims.server";
import { apiData } from "~/lib/api.server";
import { getOptionalUser } from "~/lib/auth.server";
import { handleApi } from "~/lib/errors";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const viewer = await getOptionalUser(context, request);
    return apiData(await getClaim(context.db, viewer?.id ?? null, Number(params.id)));
  });
}
