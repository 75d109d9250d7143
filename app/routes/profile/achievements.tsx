/** /profile/achievements: the member's achievements. STUB. */
export { default, loader, meta } from "../placeholder-private";
