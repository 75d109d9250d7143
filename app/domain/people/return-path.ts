/**
 * Where a profile form (wall, follow, block) sends the browser back to when JavaScript is off:
 * the page it was posted from, if that is this member's profile (keeping its query, such as
 * `?wallPage=3`), otherwise the profile itself. Never another site or another page, so the
 * posted value cannot become an open redirect.
 */
export function profileReturnPath(profileId: number, back: unknown, hash = ""): string {
  const profile = `/profile/${profileId}`;
  if (typeof back !== "string" || !back.startsWith("/") || back.startsWith("//") || back.startsWith("/\\")) return profile + hash;
  const url = new URL(back, "http://profile.invalid");
  if (url.origin !== "http://profile.invalid" || url.pathname !== profile) return profile + hash;
  return url.pathname + url.search + hash;
}
