/** /search: full-text search of posts in Russian. STUB. */
export { default, meta } from "./placeholder";
