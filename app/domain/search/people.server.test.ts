import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { users } from "~/db/schema";
import { listOnlineProfiles, listOnlineProfilesPage, ONLINE_WINDOW_MS, searchProfiles } from "./people.server";
import { countQueries } from "../../../tests/setup/query-count";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

const page = { page: 1, perPage: 10 };

describe(`people search on ${engine}`, () => {
  it("puts username prefix matches first, then similar names, without private fields", async () => {
    const similar = await makeUser(t.db, { username: "protrader" });
    const longer = await makeUser(t.db, { username: "Trader_Pro" });
    const exact = await makeUser(t.db, { username: "trader" });
    await makeUser(t.db, { username: "gamer_vasya" });
    const found = await searchProfiles(t.db, "TRADER", page);
    expect(found.items.map((u) => u.username)).toEqual(["trader", "Trader_Pro", "protrader"]);
    expect(found.total).toBe(3);
    expect(found.items[0]).toEqual({ id: exact.id, username: "trader", displayName: null, image: null, ranks: [] });
    expect(Object.keys(found.items[1]!).sort()).toEqual(["displayName", "id", "image", "ranks", "username"]);
    expect(JSON.stringify(found)).not.toContain("@example.test");
    expect(found.items.map((u) => u.id)).toEqual([exact.id, longer.id, similar.id]);
  });

  it("matches a short prefix, a leading @ and a typo; `_` matches only itself", async () => {
    await makeUser(t.db, { username: "Иван_Петров" });
    await makeUser(t.db, { username: "xzy_wallet" });
    expect((await searchProfiles(t.db, "ив", page)).items.map((u) => u.username)).toEqual(["Иван_Петров"]);
    expect((await searchProfiles(t.db, "@иван_", page)).items.map((u) => u.username)).toEqual(["Иван_Петров"]);
    // Unescaped, LIKE 'x_y%' would match «xzy_wallet».
    expect((await searchProfiles(t.db, "x_y", page)).items).toEqual([]);
    expect((await searchProfiles(t.db, "tradre", page)).items.map((u) => u.username)).toContain("trader");
  });

  it("answers empty and odd queries with an empty page, and pages in two queries", async () => {
    for (const q of ["", "  ", "@", "%", "\\", "\u0000", "'; select 1; --", "x".repeat(500)]) {
      const found = await searchProfiles(t.db, q, page);
      expect(found.items, q).toEqual([]);
    }
    for (let i = 0; i < 4; i++) await makeUser(t.db, { username: `seller_${i}` });
    const { result, queries } = await countQueries(t.db, () => searchProfiles(t.db, "seller", { page: 2, perPage: 3 }));
    expect(result).toMatchObject({ total: 4, page: 2, totalPages: 2 });
    expect(result.items.map((u) => u.username)).toEqual(["seller_3"]);
    expect(queries).toBe(2);
  });
});

describe(`online list on ${engine}`, () => {
  it("lists members seen in the last 5 minutes, most recent first", async () => {
    const now = new Date("2030-01-01T12:00:00Z");
    const seen = async (username: string, msAgo: number | null) => {
      const user = await makeUser(t.db, { username });
      await t.db
        .update(users)
        .set({ lastSeenAt: msAgo === null ? null : new Date(now.getTime() - msAgo) })
        .where(eq(users.id, user.id));
      return user;
    };
    const justNow = await seen("online_now", 10_000);
    const edge = await seen("online_edge", ONLINE_WINDOW_MS - 1000);
    const minuteAgo = await seen("online_minute", 60_000);
    await seen("gone_away", ONLINE_WINDOW_MS + 1000);
    await seen("never_seen", null);

    const block = await countQueries(t.db, () => listOnlineProfiles(t.db, 10, now));
    expect(block.result.members.map((u) => u.id)).toEqual([justNow.id, minuteAgo.id, edge.id]);
    expect(block.result.members[0]).toEqual({ id: justNow.id, username: "online_now", displayName: null, image: null, ranks: [] });
    expect(block.result.total).toBe(3);
    // The home page's block: the first members and how many there are, in one query.
    expect(block.queries).toBe(1);
    const firstTwo = await listOnlineProfiles(t.db, 2, now);
    expect(firstTwo.members.map((u) => u.username)).toEqual(["online_now", "online_minute"]);
    expect(firstTwo.total).toBe(3);

    const { result, queries } = await countQueries(t.db, () => listOnlineProfilesPage(t.db, { page: 2, perPage: 2 }, now));
    expect(result).toMatchObject({ total: 3, page: 2, totalPages: 2 });
    expect(result.items).toEqual([
      {
        id: edge.id,
        username: "online_edge",
        displayName: null,
        image: null,
        ranks: [],
        lastSeenAt: new Date(now.getTime() - ONLINE_WINDOW_MS + 1000).toISOString(),
      },
    ]);
    expect(queries).toBe(2);

    // Five minutes later nobody from that moment is online any more.
    expect(await listOnlineProfiles(t.db, 10, new Date(now.getTime() + ONLINE_WINDOW_MS))).toEqual({ members: [], total: 0 });
  });
});
