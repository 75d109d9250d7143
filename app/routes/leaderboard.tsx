/** /leaderboard: members ranked by reputation and posts, per week, month, all time. STUB. */
export { default, meta } from "./placeholder";
