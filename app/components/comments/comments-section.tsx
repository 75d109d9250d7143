import type { CommentDto } from "~/domain/comments/comments.server";

/** STUB: the comment threads and the form under a post (the comments helper fills it). */
export function CommentsSection(_props: { postId: number; comments: CommentDto[]; viewerId: number | null; canModerate: boolean }) {
  return null;
}
