/**
 * Hidden fields of the profile forms (wall, follow, block). Each form works as a plain
 * form post with a redirect back; once JavaScript runs, `via=fetcher` tells the action that a
 * fetcher is asking, so it answers data (the page revalidates in place) instead of a
 * redirect that would navigate and scroll.
 */
import { useLocation } from "react-router";

/** The fetcher marker of the shared forms module (kept under this name for the profile forms). */
export { FetcherMarker as JsMarker } from "~/components/forms/fetcher-marker";

/** The page the form is on, for the redirect back when JavaScript is off. */
export function BackInput() {
  const location = useLocation();
  return <input type="hidden" name="back" value={location.pathname + location.search} />;
}

/** The sign-in page that brings the visitor back to the current page. */
export function useLoginHref(): string {
  const location = useLocation();
  return `/auth/login?redirect=${encodeURIComponent(location.pathname + location.search)}`;
}
