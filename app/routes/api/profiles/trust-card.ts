/**
 * GET /api/profiles/{id}/trust-card (docs/product/interface.md#trust-card): public.
 * `{success: true, data: TrustCardDto}` — ranks, deposit (kopecks), completed deals, reputation,
 * open and upheld claims against the member, joined and last seen (ISO). 404 `user_not_found`.
 * Asked by the hover card on avatars and names when it opens.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/trust-card";
import { getTrustCard } from "~/domain/users/trust-card.server";
import { apiData } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";

export async function loader({ params, context }: Route.LoaderArgs) {
  return handleApi(async () => apiData(await getTrustCard(context.db, Number(params.id))));
}
