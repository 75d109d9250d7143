/**
 * A tooltip for a control that is whole without it: a header icon, a name in the online list
 * (docs/product/interface.md#tooltips-and-hover-cards). The server and the first render show the
 * control alone; once the page has hydrated, Radix's tooltip (with its popper and floating-ui, about
 * 17 KB gzip) is fetched and wraps it, so pages that only show hints never load it up front
 * (docs/decisions/0040-code-only-javascript-needs-loads-after-hydration.md).
 */
import { lazy } from "react";
import { AfterHydration } from "~/components/ui/after-hydration";

const HintTooltip = lazy(() => import("~/components/ui/hint-tooltip"));
const HintProvider = lazy(() => import("~/components/ui/hint-tooltip").then((module) => ({ default: module.HintProvider })));

/**
 * `children`: one element that takes a ref and pointer and focus handlers (a link or a button);
 * `label`: the tooltip's text, in Russian.
 */
export function Hint({ label, children }: { label: string; children: React.ReactElement }) {
  return (
    <AfterHydration fallback={children}>
      <HintTooltip label={label}>{children}</HintTooltip>
    </AfterHydration>
  );
}

/**
 * Hints that share their delays (a header's icons, a list of names): once one has closed, the next
 * opens at once for 300 ms (`TooltipProvider`). Until Radix's code is there, the children alone.
 */
export function HintGroup({ children }: { children: React.ReactNode }) {
  return (
    <AfterHydration fallback={children}>
      <HintProvider>{children}</HintProvider>
    </AfterHydration>
  );
}
