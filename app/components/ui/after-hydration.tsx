/**
 * Code only JavaScript needs, loaded after hydration (docs/decisions/0040-code-only-javascript-needs-loads-after-hydration.md):
 * `fallback` is what the server renders and what shows until the page has hydrated and the lazy
 * component in `children` has arrived (and always without JavaScript); then `children`. The server
 * never renders `children`, so nothing hydrates differently. The fallback and the children are
 * different elements, and each switch replaces them: not for what a person presses or focuses,
 * whose press would land on the element being replaced (decision 0041).
 */
import { Suspense, useEffect, useState } from "react";

/**
 * Runs `run` in a task of its own, after the current one; returns what cancels it (an effect's
 * cleanup). The effects after hydration all run in one task, and a lazy import started there, with
 * the module preloads it adds to the document, made that task longer (issue 12, decision 0050).
 */
export function inNextTask(run: () => void): () => void {
  const timer = window.setTimeout(run);
  return () => window.clearTimeout(timer);
}

/** `children` from the task after the one that mounted this (hydration, or a later render), not within it (`inNextTask`). */
export function AfterHydration({ fallback, children }: { fallback: React.ReactNode; children: React.ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => inNextTask(() => setMounted(true)), []);
  if (!mounted) return fallback;
  return <Suspense fallback={fallback}>{children}</Suspense>;
}
