/**
 * A tooltip for a control that is whole without it: a header icon, a name in the online list
 * (docs/product/interface.md#tooltips-and-hover-cards). The server and the first render show the
 * control alone; once the page has hydrated, Radix's tooltip (with its popper and floating-ui, about
 * 17 KB gzip) is fetched and wraps it, so pages that only show hints never load it up front
 * (docs/decisions/0040-code-only-javascript-needs-loads-after-hydration.md).
 */
import { lazy, Suspense } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

const HintTooltip = lazy(() => import("~/components/ui/hint-tooltip"));
const HintProvider = lazy(() => import("~/components/ui/hint-tooltip").then((module) => ({ default: module.HintProvider })));

/**
 * `children`: one element that takes a ref and pointer and focus handlers (a link or a button);
 * `label`: the tooltip's text, in Russian.
 */
export function Hint({ label, children }: { label: string; children: React.ReactElement }) {
  const hydrated = useHydrated();
  if (!hydrated) return children;
  return (
    <Suspense fallback={children}>
      <HintTooltip label={label}>{children}</HintTooltip>
    </Suspense>
  );
}

/**
 * Hints that share their delays (a header's icons, a list of names): once one has closed, the next
 * opens at once for 300 ms (`TooltipProvider`). Until Radix's code is there, the children alone.
 */
export function HintGroup({ children }: { children: React.ReactNode }) {
  const hydrated = useHydrated();
  if (!hydrated) return children;
  return (
    <Suspense fallback={children}>
      <HintProvider>{children}</HintProvider>
    </Suspense>
  );
}
