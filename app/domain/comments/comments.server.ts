/**
 * Comments on posts (issue 3). STUB: the comments helper implements it.
 */
import type { Db } from "~/db/client.server";
import type { UserRow } from "../users/users.server";

/** One comment as shown in a thread (the helper defines the fields). */
export interface CommentDto {
  id: number;
}

/** The comment threads of post `postId` as the viewer sees them. */
export async function listPostComments(_db: Db, _viewer: UserRow | null, _postId: number): Promise<CommentDto[]> {
  return [];
}
