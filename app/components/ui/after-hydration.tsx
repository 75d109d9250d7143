/**
 * Code only JavaScript needs, loaded after hydration (docs/decisions/0040-code-only-javascript-needs-loads-after-hydration.md):
 * `fallback` is what the server renders and what shows until the page has hydrated and the lazy
 * component in `children` has arrived (and always without JavaScript); then `children`. The server
 * never renders `children`, so nothing hydrates differently. The fallback and the children are
 * different elements, and each switch replaces them: not for what a person presses or focuses,
 * whose press would land on the element being replaced (decision 0041).
 */
import { Suspense } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

export function AfterHydration({ fallback, children }: { fallback: React.ReactNode; children: React.ReactNode }) {
  const hydrated = useHydrated();
  if (!hydrated) return fallback;
  return <Suspense fallback={fallback}>{children}</Suspense>;
}
