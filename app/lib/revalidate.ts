/**
 * When a money page reloads its data after an action (issue 5 review): React Router 7 skips the
 * loaders after an action answers 4xx, which suits a typo (the form keeps what was typed, nothing
 * changed), but a 409 means the thing changed under the member — the deal moved on, the claim was
 * decided, the hold was released, the withdrawal closed. Then the page must show the new state and
 * buttons beside the Russian refusal, so it reloads.
 */
import type { ShouldRevalidateFunctionArgs } from "react-router";

/** `shouldRevalidate` of the money pages: always after a 409 answer, otherwise React Router's default. */
export function revalidateAfterConflict({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return actionStatus === 409 || defaultShouldRevalidate;
}
