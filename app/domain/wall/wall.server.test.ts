import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { wallPosts } from "~/db/schema";
import { eventBus, type DomainEvent } from "~/lib/events.server";
import { Forbidden, NotFound, RateLimited, ValidationFailed } from "~/lib/errors";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { toggleLike } from "../likes/likes.server";
import { blockMember, unblockMember } from "../people/blocks.server";
import { WallActionSchema, WallPostInputSchema } from "./schemas";
import { createWallPost, deleteWallPost, getPinnedWallPost, listWallPosts, loadWall, pinWallPost, unpinWallPost } from "./wall.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

/** The same database through a second Drizzle handle that counts the statements it sends. */
async function countingDb(): Promise<{ db: Db; queries: () => number; reset: () => void }> {
  let queries = 0;
  const logger = { logQuery: () => void (queries += 1) };
  const client = (t.db as unknown as { $client: never }).$client;
  const db =
    t.kind === "pglite"
      ? (await import("drizzle-orm/pglite")).drizzle(client, { schema, logger })
      : (await import("drizzle-orm/postgres-js")).drizzle(client, { schema, logger });
  return { db: db as unknown as Db, queries: () => queries, reset: () => void (queries = 0) };
}

/** Entries written straight into the table (the 5-second limit is not what these tests are about). */
async function seedEntries(ownerId: number, authorId: number, bodies: string[]) {
  const now = Date.now();
  return t.db
    .insert(wallPosts)
    .values(bodies.map((body, i) => ({ ownerId, authorId, body, createdAt: new Date(now - (bodies.length - i) * 60_000) })))
    .returning();
}

const firstPage = { page: 1, perPage: 10 };

describe(`wall on ${engine}`, () => {
  it("a member writes on another member's wall; the entry renders Markdown and links mentions", async () => {
    const owner = await makeUser(t.db);
    const writer = await makeUser(t.db);
    const entry = await createWallPost(t.db, writer, owner.id, { body: `  Привет, **@${owner.username}**! Сделка прошла отлично <script>x</script>  ` });
    expect(entry).toMatchObject({ ownerId: owner.id, author: { id: writer.id, username: writer.username }, pinned: false, likeCount: 0, liked: false });
    expect(entry.body).toBe(`Привет, **@${owner.username}**! Сделка прошла отлично <script>x</script>`);
    expect(entry.html).toContain(`<a href="/profile/${owner.id}" class="mention">@${owner.username}</a>`);
    expect(entry.html).not.toContain("<script");
    const wall = await loadWall(t.db, null, owner.id, firstPage);
    expect(wall.pinned).toBeNull();
    expect(wall.entries).toMatchObject({ total: 1, page: 1, totalPages: 1 });
    expect(wall.entries.items[0]).toMatchObject({ id: entry.id, html: entry.html });
  });

  it("refuses an empty body, one over 10 000 characters and a NUL, in Russian", async () => {
    const owner = await makeUser(t.db);
    const writer = await makeUser(t.db);
    await expect(createWallPost(t.db, writer, owner.id, { body: "   " })).rejects.toMatchObject({
      code: "invalid_input",
      fieldErrors: { body: ["Напишите текст записи"] },
    });
    await expect(createWallPost(t.db, writer, owner.id, { body: "я".repeat(10_001) })).rejects.toMatchObject({
      message: expect.stringMatching(/^Запись — не длиннее 10\s000 символов$/),
    });
    await expect(createWallPost(t.db, writer, owner.id, { body: "до\0после" })).rejects.toBeInstanceOf(ValidationFailed);
    // Characters are code points: 10 000 emoji (20 000 UTF-16 units) are allowed, as the database counts them.
    const emoji = await createWallPost(t.db, writer, owner.id, { body: "🙂".repeat(10_000) });
    expect([...emoji.body]).toHaveLength(10_000);
    expect((await listWallPosts(t.db, null, owner.id, firstPage)).total).toBe(1);
  });

  it("refuses a member the owner blocked, with code `blocked`, and lets them write again once unblocked", async () => {
    const owner = await makeUser(t.db);
    const blocked = await makeUser(t.db);
    await blockMember(t.db, owner, blocked.id);
    const refused = createWallPost(t.db, blocked, owner.id, { body: "Почему ты меня заблокировал?" });
    await expect(refused).rejects.toBeInstanceOf(Forbidden);
    await expect(refused).rejects.toMatchObject({ code: "blocked", message: "Владелец стены ограничил вам возможность писать на ней" });
    expect((await listWallPosts(t.db, null, owner.id, firstPage)).total).toBe(0);
    // The owner blocking someone does not stop the owner writing on that member's wall.
    await expect(createWallPost(t.db, owner, blocked.id, { body: "Запись владельца" })).resolves.toMatchObject({ ownerId: blocked.id });
    await unblockMember(t.db, owner, blocked.id);
    await expect(createWallPost(t.db, blocked, owner.id, { body: "Спасибо, что разблокировал" })).resolves.toMatchObject({ ownerId: owner.id });
  });

  it("allows one entry per 5 seconds per member (docs/product/limits.md#rate-limits)", async () => {
    const owner = await makeUser(t.db);
    const writer = await makeUser(t.db);
    await createWallPost(t.db, writer, owner.id, { body: "Первая запись" });
    await expect(createWallPost(t.db, writer, owner.id, { body: "Вторая запись" })).rejects.toBeInstanceOf(RateLimited);
    await expect(createWallPost(t.db, owner, owner.id, { body: "Запись владельца" })).resolves.toMatchObject({ body: "Запись владельца" });
    expect((await listWallPosts(t.db, null, owner.id, firstPage)).items.map((e) => e.body)).toEqual(["Запись владельца", "Первая запись"]);
  });

  it("answers NotFound for an unknown wall and an unknown entry", async () => {
    const writer = await makeUser(t.db);
    await expect(createWallPost(t.db, writer, 987_654_321, { body: "Кому это?" })).rejects.toMatchObject({ code: "profile_not_found" });
    await expect(loadWall(t.db, null, Number("abc"), firstPage)).rejects.toBeInstanceOf(NotFound);
    await expect(getPinnedWallPost(t.db, null, 1e12)).rejects.toBeInstanceOf(NotFound);
    await expect(deleteWallPost(t.db, writer, 987_654_321)).rejects.toMatchObject({ code: "wall_post_not_found" });
    await expect(pinWallPost(t.db, writer, -1)).rejects.toMatchObject({ code: "wall_post_not_found" });
  });

  it("lets the author and the owner delete an entry, not a stranger", async () => {
    const owner = await makeUser(t.db);
    const author = await makeUser(t.db);
    const stranger = await makeUser(t.db);
    const [byAuthor, byOwner, kept] = await seedEntries(owner.id, author.id, ["Удалит автор", "Удалит владелец", "Останется"]);
    await expect(deleteWallPost(t.db, stranger, kept!.id)).rejects.toMatchObject({ code: "not_allowed", status: 403 });
    await expect(deleteWallPost(t.db, author, byAuthor!.id)).resolves.toEqual({ ownerId: owner.id });
    await expect(deleteWallPost(t.db, owner, byOwner!.id)).resolves.toEqual({ ownerId: owner.id });
    expect((await listWallPosts(t.db, null, owner.id, firstPage)).items.map((e) => e.body)).toEqual(["Останется"]);
    // Hard delete: the row is gone, not hidden.
    expect(await t.db.select().from(wallPosts).where(eq(wallPosts.id, byAuthor!.id))).toEqual([]);
  });

  it("keeps one pinned entry per wall: pinning another replaces it; only the owner pins", async () => {
    const owner = await makeUser(t.db);
    const writer = await makeUser(t.db);
    const [first, second, third] = await seedEntries(owner.id, writer.id, ["Первая", "Вторая", "Третья"]);
    await expect(pinWallPost(t.db, writer, first!.id)).rejects.toMatchObject({ code: "not_wall_owner", status: 403 });

    await pinWallPost(t.db, owner, first!.id);
    let wall = await loadWall(t.db, null, owner.id, firstPage);
    expect(wall.pinned).toMatchObject({ id: first!.id, pinned: true });
    expect(wall.entries.items.map((e) => e.body)).toEqual(["Третья", "Вторая"]);
    expect(wall.entries.total).toBe(2);

    await pinWallPost(t.db, owner, second!.id);
    wall = await loadWall(t.db, null, owner.id, firstPage);
    expect(wall.pinned).toMatchObject({ id: second!.id, body: "Вторая" });
    expect(wall.entries.items.map((e) => e.body)).toEqual(["Третья", "Первая"]);
    expect(await getPinnedWallPost(t.db, null, owner.id)).toMatchObject({ id: second!.id });

    // Pinning the pinned entry again changes nothing.
    await pinWallPost(t.db, owner, second!.id);
    expect((await getPinnedWallPost(t.db, null, owner.id))?.id).toBe(second!.id);

    await expect(unpinWallPost(t.db, writer, second!.id)).rejects.toBeInstanceOf(Forbidden);
    await unpinWallPost(t.db, owner, second!.id);
    expect(await getPinnedWallPost(t.db, null, owner.id)).toBeNull();
    expect((await listWallPosts(t.db, null, owner.id, firstPage)).items.map((e) => e.id)).toEqual([third!.id, second!.id, first!.id]);
  });

  it("shows the like count and the viewer's own like through the likes module", async () => {
    const owner = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const [entry] = await seedEntries(owner.id, owner.id, ["Запись для лайка"]);
    await toggleLike(t.db, fan, "wall_post", entry!.id);
    expect((await loadWall(t.db, fan, owner.id, firstPage)).entries.items[0]).toMatchObject({ likeCount: 1, liked: true });
    expect((await loadWall(t.db, owner, owner.id, firstPage)).entries.items[0]).toMatchObject({ likeCount: 1, liked: false });
    expect((await loadWall(t.db, null, owner.id, firstPage)).entries.items[0]).toMatchObject({ likeCount: 1, liked: false });
  });

  it("the database itself refuses a second pinned entry on one wall", async () => {
    const owner = await makeUser(t.db);
    const [a, b] = await seedEntries(owner.id, owner.id, ["А", "Б"]);
    await t.db.update(wallPosts).set({ pinnedAt: new Date() }).where(eq(wallPosts.id, a!.id));
    await expect(t.db.update(wallPosts).set({ pinnedAt: new Date() }).where(eq(wallPosts.id, b!.id))).rejects.toThrow();
  });

  it("pins of one wall sent at once leave exactly one pinned entry", async () => {
    const owner = await makeUser(t.db);
    const entries = await seedEntries(owner.id, owner.id, ["1", "2", "3", "4", "5", "6"]);
    await Promise.all(entries.map((entry) => pinWallPost(t.db, owner, entry.id)));
    const pinned = await t.db.select().from(wallPosts).where(eq(wallPosts.ownerId, owner.id));
    expect(pinned.filter((row) => row.pinnedAt !== null)).toHaveLength(1);
  });

  it("pages newest first and bounds the queries of a wall page whatever its length", async () => {
    const owner = await makeUser(t.db);
    const writers = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    await seedEntries(owner.id, writers[0]!.id, [`Одна запись для @${writers[1]!.username}`]);
    const counting = await countingDb();
    counting.reset();
    const small = await loadWall(counting.db, writers[2]!, owner.id, { page: 1, perPage: 50 });
    const queriesForOne = counting.queries();
    expect(small.entries.items).toHaveLength(1);

    const bodies = Array.from({ length: 45 }, (_, i) => `Запись ${i} для @${writers[i % 3]!.username}`);
    for (let i = 0; i < 45; i += 1) await seedEntries(owner.id, writers[i % 3]!.id, [bodies[i]!]);
    const pinned = (await seedEntries(owner.id, writers[1]!.id, ["Закреплённая"]))[0]!;
    await pinWallPost(t.db, owner, pinned.id);

    counting.reset();
    const big = await loadWall(counting.db, writers[2]!, owner.id, { page: 1, perPage: 50 });
    expect(big.entries.items).toHaveLength(46);
    expect(big.pinned?.id).toBe(pinned.id);
    expect(new Set(big.entries.items.map((e) => e.author.id)).size).toBe(3);
    expect(big.entries.items.every((e) => e.html.includes('class="mention"'))).toBe(true);
    expect(counting.queries()).toBe(queriesForOne);
    expect(counting.queries()).toBeLessThanOrEqual(6);

    const second = await loadWall(t.db, null, owner.id, { page: 2, perPage: 10 });
    expect(second.entries).toMatchObject({ page: 2, total: 46, totalPages: 5 });
    expect(second.entries.items[0]?.body).toBe("Запись 34 для @" + writers[34 % 3]!.username);
  });

  it("publishes wall_post.created after the entry is stored, with the mentioned members to notify", async () => {
    const owner = await makeUser(t.db);
    const writer = await makeUser(t.db);
    const friend = await makeUser(t.db);
    const blocker = await makeUser(t.db);
    await blockMember(t.db, blocker, writer.id);
    const seen: DomainEvent[] = [];
    const stored: boolean[] = [];
    const unsubscribe = eventBus(t.db).subscribe("wall_post.created", async (event, db) => {
      seen.push(event);
      stored.push((await db.select().from(wallPosts).where(eq(wallPosts.id, event.wallPostId))).length === 1);
    });
    const entry = await createWallPost(t.db, writer, owner.id, {
      body: `@${friend.username}, @${blocker.username}, @${writer.username} и @нет_такого_участника — смотрите`,
    });
    await eventBus(t.db).drain();
    unsubscribe();
    expect(seen).toEqual([{ type: "wall_post.created", wallPostId: entry.id, ownerId: owner.id, authorId: writer.id, mentionedUserIds: [friend.id] }]);
    expect(stored).toEqual([true]);
  });

  it("publishes nothing for a refused entry", async () => {
    const owner = await makeUser(t.db);
    const blocked = await makeUser(t.db);
    await blockMember(t.db, owner, blocked.id);
    const seen: DomainEvent[] = [];
    const unsubscribe = eventBus(t.db).subscribe("*", (event) => void seen.push(event));
    await expect(createWallPost(t.db, blocked, owner.id, { body: "Нельзя" })).rejects.toBeInstanceOf(Forbidden);
    await eventBus(t.db).drain();
    unsubscribe();
    expect(seen).toEqual([]);
  });
});

describe("wall schemas", () => {
  it("explain refused input in Russian", () => {
    expect(WallPostInputSchema.safeParse({}).error?.issues[0]?.message).toBe("Напишите текст записи");
    expect(WallPostInputSchema.safeParse({ body: "x".repeat(10_000) }).success).toBe(true);
    expect(WallActionSchema.safeParse({ intent: "pin", entryId: "abc" }).error?.issues[0]?.message).toBe("Запись не найдена");
    expect(WallActionSchema.safeParse({ intent: "delete", entryId: "12" }).data).toEqual({ intent: "delete", entryId: 12 });
    expect(WallActionSchema.safeParse({ intent: "hack" }).success).toBe(false);
  });
});
