import type { PostDto } from "~/domain/posts/posts.server";
import type { PostEngagement } from "~/domain/posts/engagement.server";

/** STUB: like and bookmark controls under a post (the likes helper fills it). */
export function PostActions(_props: { post: PostDto; engagement: PostEngagement; canAct: boolean; isAuthor: boolean }) {
  return null;
}
