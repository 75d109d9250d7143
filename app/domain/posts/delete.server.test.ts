import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost, makeUser } from "../../../tests/setup/factories";
import { deleteOwnPost, getPostToDelete } from "./delete.server";
import { getPost, listPosts } from "./posts.server";
import { deleteContent, restoreContent } from "../moderation/content.server";
import { users } from "~/db/schema";
import { eq } from "drizzle-orm";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function makeModerator() {
  const moderator = await makeUser(t.db);
  await t.db.update(users).set({ role: "moderator" }).where(eq(users.id, moderator.id));
  return { ...moderator, role: "moderator" as const };
}

describe(`deleting one's own post on ${engine} (docs/product/content.md#posts)`, () => {
  it("the author deletes their post: it leaves the lists and its page says the author deleted it", async () => {
    const author = await makeUser(t.db);
    const id = await makePost(t.db, author, "Удаляемый пост");
    await expect(getPostToDelete(t.db, author, id)).resolves.toEqual({ id, title: "Удаляемый пост", commentCount: 0 });
    await expect(deleteOwnPost(t.db, author, id)).resolves.toMatchObject({ id, title: "Удаляемый пост" });
    const mine = await listPosts(t.db, { authorId: author.id, reader: author }, { page: 1, perPage: 10 });
    expect(mine.items.map((p) => p.id)).not.toContain(id);
    await expect(getPost(t.db, id, author)).rejects.toMatchObject({ status: 404, code: "post_deleted", message: "Пост удалён автором" });
  });

  it("another member may not delete it (403 not_post_author) and the post stays", async () => {
    const author = await makeUser(t.db);
    const other = await makeUser(t.db);
    const id = await makePost(t.db, author);
    await expect(getPostToDelete(t.db, other, id)).rejects.toMatchObject({ status: 403, code: "not_post_author" });
    await expect(deleteOwnPost(t.db, other, id)).rejects.toMatchObject({ status: 403, code: "not_post_author" });
    await expect(getPost(t.db, id)).resolves.toMatchObject({ id, deleted: false });
  });

  it("an unknown, malformed or already deleted post is 404 post_not_found", async () => {
    const author = await makeUser(t.db);
    const id = await makePost(t.db, author);
    await deleteOwnPost(t.db, author, id);
    for (const missing of [id, 2_000_000_000, -1, Number.NaN]) {
      await expect(deleteOwnPost(t.db, author, missing)).rejects.toMatchObject({ status: 404, code: "post_not_found" });
    }
  });

  it("a post a moderator deleted cannot be deleted again by its author; the author's own delete cannot be restored", async () => {
    const moderator = await makeModerator();
    const author = await makeUser(t.db);
    const byModerator = await makePost(t.db, author);
    await deleteContent(t.db, moderator.id, { type: "post", id: byModerator });
    await expect(deleteOwnPost(t.db, author, byModerator)).rejects.toMatchObject({ code: "post_not_found" });
    await expect(getPost(t.db, byModerator)).rejects.toMatchObject({ message: "Пост удалён модератором" });

    const byAuthor = await makePost(t.db, author);
    await deleteOwnPost(t.db, author, byAuthor);
    await expect(restoreContent(t.db, moderator.id, { type: "post", id: byAuthor })).rejects.toMatchObject({ status: 409, code: "deleted_by_author" });
    await expect(restoreContent(t.db, moderator.id, { type: "post", id: byModerator })).resolves.toMatchObject({ deleted: false });
  });
});
