/**
 * An author deletes their own post (docs/product/content.md#posts). Moderators delete anyone's
 * post through deleteContent (app/domain/moderation/content.server.ts), which also writes the
 * audit log; an author's own delete is their choice, so it is not logged and a moderator cannot
 * restore it (restoreContent refuses `deleted_by_author`).
 */
import { eq } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { posts } from "~/db/schema";
import { Forbidden, NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";

/** The post being deleted, as the confirmation step shows it. */
export interface PostToDelete {
  id: number;
  title: string;
  commentCount: number;
}

async function ownLivePost(db: Db | Tx, actor: { id: number }, id: number, lock: boolean): Promise<PostToDelete> {
  if (!isValidId(id)) throw new NotFound("Пост не найден", "post_not_found");
  const query = db
    .select({ id: posts.id, title: posts.title, commentCount: posts.commentCount, authorId: posts.authorId, deletedAt: posts.deletedAt })
    .from(posts)
    .where(eq(posts.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row || row.deletedAt) throw new NotFound("Пост не найден", "post_not_found");
  if (row.authorId !== actor.id) throw new Forbidden("Удалить пост может только его автор", "not_post_author");
  return { id: row.id, title: row.title, commentCount: row.commentCount };
}

/**
 * The post `id` that `actor` may delete (for the confirmation step): its id, title and comment count.
 * Throws NotFound `post_not_found` (no such post, or already deleted) and Forbidden
 * `not_post_author` for anyone but its author.
 */
export function getPostToDelete(db: Db, actor: { id: number }, id: number): Promise<PostToDelete> {
  return ownLivePost(db, actor, id, false);
}

/**
 * Soft-deletes post `id` by its author at `now`: `deleted_at` is set and `deleted_by_id` is the
 * author (what tells an author's delete from a moderator's), and a pin on the home feed is
 * dropped. The post leaves every list, search and its page (404 «Пост удалён автором» for
 * readers); its comments stay in the database with it but are no longer shown anywhere, since
 * they are read only through their post (docs/product/content.md#posts).
 * Returns the deleted post. Throws NotFound `post_not_found` (no such post or already deleted)
 * and Forbidden `not_post_author`.
 */
export async function deleteOwnPost(db: Db, actor: { id: number }, id: number, now: Date = new Date()): Promise<PostToDelete> {
  return db.transaction(async (tx) => {
    const post = await ownLivePost(tx, actor, id, true);
    await tx.update(posts).set({ deletedAt: now, deletedById: actor.id, pinnedAt: null }).where(eq(posts.id, id));
    return post;
  });
}
