import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost, makeUser } from "../../../tests/setup/factories";
import { comments, posts, rateLimits, settings, wallPosts } from "~/db/schema";
import { cookVersion, renderMarkdown } from "~/lib/markdown.server";
import { listPostComments } from "../comments/comments.server";
import { createComment, editComment } from "../comments/write.server";
import { createPost, getPost, updatePost } from "../posts/posts.server";
import { createWallPost, listWallPosts } from "../wall/wall.server";
import { recookStaleRows } from "./cooked.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});
beforeEach(async () => {
  await t.db.delete(rateLimits);
});

const input = (body: string) => ({ title: "Продам велосипед", body, categoryId: 7, kind: "post" as const });

describe(`cooked Markdown on ${engine} (issue 12, decision 0027)`, () => {
  it("stores a post's HTML when it is written and edited, and the page shows what was stored", async () => {
    const author = await makeUser(t.db, { username: "cook_author" });
    const post = await createPost(t.db, author, input("**Жирный** текст"));
    const [stored] = await t.db.select({ html: posts.cookedHtml, version: posts.cookedVersion }).from(posts).where(eq(posts.id, post.id));
    expect(stored).toEqual({ html: "<p><strong>Жирный</strong> текст</p>\n", version: cookVersion() });
    expect(post.html).toBe(stored!.html);

    await updatePost(t.db, author, post.id, input("_Новый_ текст"));
    expect((await getPost(t.db, post.id)).html).toBe("<p><em>Новый</em> текст</p>\n");

    // Reading takes the stored HTML, it does not render the body again.
    await t.db.update(posts).set({ cookedHtml: "<p>из хранилища</p>\n" }).where(eq(posts.id, post.id));
    expect((await getPost(t.db, post.id)).html).toBe("<p>из хранилища</p>\n");
  });

  it("links a mention by the member's name as it is when read: a member who joins later is linked without cooking again", async () => {
    const author = await makeUser(t.db, { username: "cook_writer" });
    const postId = await makePost(t.db, author);
    const comment = await createComment(t.db, author, postId, { body: "Спроси у @Cook_Later" });
    expect(comment.html).toBe("<p>Спроси у @Cook_Later</p>\n");

    const later = await makeUser(t.db, { username: "cook_later" });
    const [shown] = await listPostComments(t.db, null, postId);
    expect(shown!.html).toBe(`<p>Спроси у <a href="/profile/${later.id}" class="mention">@cook_later</a></p>\n`);
    const [stored] = await t.db.select({ html: comments.cookedHtml }).from(comments).where(eq(comments.id, comment.id));
    expect(stored!.html).not.toContain("/profile/");

    const edited = await editComment(t.db, author, postId, comment.id, "Уже спросил у @cook_later");
    expect(edited.html).toBe(`<p>Уже спросил у <a href="/profile/${later.id}" class="mention">@cook_later</a></p>\n`);
  });

  it("shows the same HTML as rendering the body live, for posts, comments and wall entries with mentions, links, code and pictures", async () => {
    const author = await makeUser(t.db, { username: "cook_same" });
    const friend = await makeUser(t.db, { username: "cook_friend" });
    const body = "Привет @cook_friend и @nobody_cook!\n\n- [ссылка](https://example.com)\n- `@cook_friend` в коде\n\n![фото](https://tracker.example/p.gif)";
    const mentions = new Map([["cook_friend", { id: friend.id, username: friend.username }]]);
    const live = renderMarkdown(body, mentions);
    expect(live).toContain(`href="/profile/${friend.id}"`);

    const post = await createPost(t.db, author, input(body));
    expect((await getPost(t.db, post.id)).html).toBe(live);
    await createComment(t.db, author, post.id, { body });
    expect((await listPostComments(t.db, null, post.id))[0]!.html).toBe(live);
    await createWallPost(t.db, author, friend.id, { body });
    expect((await listWallPosts(t.db, null, friend.id, { page: 1, perPage: 10 })).items[0]!.html).toBe(live);
  });

  it("renders rows stored without HTML or by another renderer when read, and the re-cook job stores them once", async () => {
    const author = await makeUser(t.db, { username: "cook_stale" });
    // Written straight into the tables, as the benchmark's generated rows and rows from before cooking are.
    const postId = await makePost(t.db, author);
    const [comment] = await t.db.insert(comments).values({ postId, authorId: author.id, body: "*старый* комментарий" }).returning({ id: comments.id });
    const [entry] = await t.db
      .insert(wallPosts)
      .values({ ownerId: author.id, authorId: author.id, body: "стена", cookedHtml: "<p>устаревшая разметка</p>\n", cookedVersion: "0:old" })
      .returning({ id: wallPosts.id });
    await t.db.delete(settings).where(eq(settings.key, "cookedVersionComplete"));

    expect((await getPost(t.db, postId)).html).toBe("<p>Текст поста</p>\n");
    expect((await listPostComments(t.db, null, postId))[0]!.html).toBe("<p><em>старый</em> комментарий</p>\n");
    expect((await listWallPosts(t.db, null, author.id, { page: 1, perPage: 10 })).items[0]!.html).toBe("<p>стена</p>\n");

    expect(await recookStaleRows(t.db)).toBeGreaterThanOrEqual(3);
    const [storedPost] = await t.db.select({ html: posts.cookedHtml, version: posts.cookedVersion }).from(posts).where(eq(posts.id, postId));
    const [storedComment] = await t.db.select({ html: comments.cookedHtml }).from(comments).where(eq(comments.id, comment!.id));
    const [storedEntry] = await t.db.select({ html: wallPosts.cookedHtml }).from(wallPosts).where(eq(wallPosts.id, entry!.id));
    expect([storedPost, storedComment!.html, storedEntry!.html]).toEqual([
      { html: "<p>Текст поста</p>\n", version: cookVersion() },
      "<p><em>старый</em> комментарий</p>\n",
      "<p>стена</p>\n",
    ]);
    // The version is recorded: the next start walks nothing.
    expect(await recookStaleRows(t.db)).toBe(0);
  });
});
