/** /profile/bookmarks: the member's bookmarked posts, newest first. STUB. */
export { default, loader, meta } from "../placeholder-private";
