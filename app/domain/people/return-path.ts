import { safeRedirect } from "~/lib/session.server";

/**
 * Where a profile form (wall, follow, block) sends the browser back to when JavaScript is off:
 * the page it was posted from, if that is this member's profile (keeping its query, such as
 * `?wallPage=3`), otherwise the profile itself. Never another site or another page, so the
 * posted value cannot become an open redirect (safeRedirect does the same-site check).
 */
export function profileReturnPath(profileId: number, back: unknown, hash = ""): string {
  const profile = `/profile/${profileId}`;
  const target = safeRedirect(back, profile).replace(/#.*$/, "");
  return (target.split("?")[0] === profile ? target : profile) + hash;
}
