/**
 * /ads/{id}/click (docs/product/pages.md#ads): counts a click on a running ad and redirects to
 * its link (302, never cached). An ad that ended still leads to its link, uncounted; an unknown,
 * pending or rejected ad is 404, so this never redirects to a link no admin approved.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/click";
import { clickAd } from "~/domain/ads/ad-listings.server";
import { pageData } from "~/lib/errors";

export async function loader({ params, context }: Route.LoaderArgs) {
  const link = await pageData(() => clickAd(context.db, Number(params.id)));
  return redirect(link, { headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } });
}
