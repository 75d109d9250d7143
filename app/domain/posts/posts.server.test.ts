import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { createPost, getPost, listPosts, updatePost } from "./posts.server";
import { PostInputSchema } from "./schemas";
import { categories, posts } from "~/db/schema";
import { CATEGORIES } from "./categories";
import { Forbidden, NotFound, RateLimited } from "~/lib/errors";
import { eventBus, type DomainEvent } from "~/lib/events.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

const input = (overrides: Partial<{ title: string; body: string; categoryId: number; kind: "post" | "article" }> = {}) => ({
  title: "Продам аккаунт Steam",
  body: "## Описание\n\nЦена: **2 500 ₽**",
  categoryId: 3,
  kind: "post" as const,
  ...overrides,
});

describe(`posts on ${engine}`, () => {
  it("publishes a post and reads it back with its author and safe HTML", async () => {
    const author = await makeUser(t.db);
    const created = await createPost(t.db, author, input({ body: "Привет <script>alert(1)</script> **мир**" }));
    const read = await getPost(t.db, created.id);
    expect(read).toMatchObject({ title: "Продам аккаунт Steam", category: { id: 3, name: "Игровые аккаунты" }, kind: "post" });
    expect(read.author).toMatchObject({ id: author.id, username: author.username });
    expect(read.html).toContain("<strong>мир</strong>");
    expect(read.html).not.toContain("<script");
    const feed = await listPosts(t.db, { authorId: author.id }, { page: 1, perPage: 10 });
    expect(feed.items[0]).toMatchObject({ id: created.id, excerpt: "Привет мир" });
    expect(feed.items[0]).not.toHaveProperty("body");
  });

  it("publishes post.created after the insert, with mentions resolved to links and targets", async () => {
    const author = await makeUser(t.db, { username: "Event_Author" });
    const mentioned = await makeUser(t.db, { username: "Event_Reader" });
    const events: DomainEvent[] = [];
    const unsubscribe = eventBus(t.db).subscribe("post.created", (event) => void events.push(event));
    const post = await createPost(t.db, author, input({ body: "Смотри, @event_reader, и ты, @event_author" }));
    await eventBus(t.db).drain();
    unsubscribe();
    expect(events).toEqual([{ type: "post.created", postId: post.id, authorId: author.id, mentionedUserIds: [mentioned.id] }]);
    expect(post.html).toContain(`href="/profile/${mentioned.id}"`);
    expect((await getPost(t.db, post.id)).html).toContain(`href="/profile/${mentioned.id}"`);
  });

  it("allows one post per 30 seconds per member (docs/product/limits.md#rate-limits)", async () => {
    const author = await makeUser(t.db);
    await createPost(t.db, author, input({ title: "Первый пост" }));
    await expect(createPost(t.db, author, input({ title: "Второй пост" }))).rejects.toBeInstanceOf(RateLimited);
    const other = await makeUser(t.db);
    await expect(createPost(t.db, other, input({ title: "Пост другого участника" }))).resolves.toMatchObject({ title: "Пост другого участника" });
    const mine = await listPosts(t.db, { authorId: author.id }, { page: 1, perPage: 10 });
    expect(mine.items.map((p) => p.title)).toEqual(["Первый пост"]);
  });

  it("lets only the author edit, marking the post edited", async () => {
    const author = await makeUser(t.db);
    const stranger = await makeUser(t.db);
    const post = await createPost(t.db, author, input());
    await expect(updatePost(t.db, stranger, post.id, input({ title: "Чужая правка" }))).rejects.toBeInstanceOf(Forbidden);
    const edited = await updatePost(t.db, author, post.id, input({ title: "Новая цена", categoryId: 1, kind: "article" }));
    expect(edited).toMatchObject({ title: "Новая цена", category: { id: 1 }, kind: "article" });
    expect(edited.editedAt).not.toBeNull();
    expect((await getPost(t.db, post.id)).title).toBe("Новая цена");
    await expect(updatePost(t.db, author, 987_654, input())).rejects.toBeInstanceOf(NotFound);
  });

  it("answers NotFound for unknown or malformed ids", async () => {
    await expect(getPost(t.db, 123_456_789)).rejects.toBeInstanceOf(NotFound);
    await expect(getPost(t.db, Number("abc"))).rejects.toBeInstanceOf(NotFound);
    await expect(getPost(t.db, 1e12)).rejects.toBeInstanceOf(NotFound);
  });

  it("lists newest first, 10 a page, filtered by category and kind", async () => {
    const author = await makeUser(t.db);
    const now = Date.now();
    await t.db.insert(posts).values(
      Array.from({ length: 23 }, (_, i) => ({
        authorId: author.id,
        title: `Пост номер ${i}`,
        body: "Текст",
        categoryId: i % 2 === 0 ? 9 : 8,
        kind: i % 5 === 0 ? ("article" as const) : ("post" as const),
        createdAt: new Date(now - i * 60_000),
      })),
    );
    const first = await listPosts(t.db, { authorId: author.id }, { page: 1, perPage: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.items[0]?.title).toBe("Пост номер 0");
    expect(first).toMatchObject({ total: 23, totalPages: 3 });
    const third = await listPosts(t.db, { authorId: author.id }, { page: 3, perPage: 10 });
    expect(third.items.map((p) => p.title)).toEqual(["Пост номер 20", "Пост номер 21", "Пост номер 22"]);
    const mining = await listPosts(t.db, { authorId: author.id, categoryId: 9 }, { page: 1, perPage: 50 });
    expect(mining.total).toBe(12);
    expect(mining.items.every((p) => p.category.id === 9)).toBe(true);
    const articles = await listPosts(t.db, { authorId: author.id, kind: "article" }, { page: 1, perPage: 50 });
    expect(articles.items.map((p) => p.title)).toEqual(["Пост номер 0", "Пост номер 5", "Пост номер 10", "Пост номер 15", "Пост номер 20"]);
  });

  it("keeps the database guards: unknown category and empty title are refused", async () => {
    const author = await makeUser(t.db);
    await expect(t.db.insert(posts).values({ authorId: author.id, title: "Нормальный", body: "x", categoryId: 42 })).rejects.toThrow();
    await expect(t.db.insert(posts).values({ authorId: author.id, title: "x", body: "x", categoryId: 1 })).rejects.toThrow();
  });
});

describe("PostInputSchema", () => {
  it("explains each refused field in Russian", () => {
    const result = PostInputSchema.safeParse({ title: "ab", body: "   ", categoryId: "10", kind: "poem" });
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toEqual({
      title: "Заголовок — не короче 3 символов",
      body: "Напишите текст поста",
      categoryId: "Выберите категорию",
      kind: "Выберите тип публикации",
    });
  });

  it("counts characters as the database does: two emoji are a too-short title", () => {
    const result = PostInputSchema.safeParse({ title: "🔥🔥", body: "Текст", categoryId: "7" });
    expect(result.error?.issues[0]?.message).toBe("Заголовок — не короче 3 символов");
    expect(PostInputSchema.safeParse({ title: "🔥🔥🔥", body: "Текст", categoryId: "7" }).success).toBe(true);
  });

  it("refuses a NUL character in the title or body", () => {
    const result = PostInputSchema.safeParse({ title: "Нул\u0000ь", body: "Те\u0000кст", categoryId: "7" });
    expect(result.error?.issues.map((i) => i.message)).toEqual(["Недопустимый символ в тексте", "Недопустимый символ в тексте"]);
  });

  it("accepts a body of 50 000 characters and refuses one more", () => {
    const ok = PostInputSchema.safeParse({ title: "Длинный", body: "я".repeat(50_000), categoryId: "7" });
    expect(ok.success).toBe(true);
    const tooLong = PostInputSchema.safeParse({ title: "Длинный", body: "я".repeat(50_001), categoryId: "7" });
    expect(tooLong.success).toBe(false);
  });
});

describe(`categories on ${engine}`, () => {
  it("the migration's rows are exactly the nine categories of docs/product/content.md#categories", async () => {
    const rows = await t.db.select().from(categories).orderBy(categories.id);
    expect(rows).toEqual(CATEGORIES.map(({ id, slug, name }) => ({ id, slug, name })));
  });
});
