/** A public page that a later issue fills («скоро»). */
import { useLocation } from "react-router";
import type { Route } from "./+types/placeholder";
import { ComingSoon, placeholderTitle } from "~/components/layout/coming-soon";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches, location }) => pageMeta(matches, placeholderTitle(location.pathname));

export default function PlaceholderPage() {
  return <ComingSoon title={placeholderTitle(useLocation().pathname)} />;
}
