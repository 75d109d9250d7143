import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~/db/schema";
import type { UserRow } from "~/domain/users/users.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { promoteToModerator } from "../../../tests/setup/ledger";
import { normalizeBlacklistQuery } from "./blacklist-query";
import { decideClaim, fileClaim, listBlacklist } from "./claims.server";

let t: TestDatabase;
let moderator: UserRow;
let keyCounter = 0;
const key = () => `blacklist-key-${++keyCounter}`;
const page = { page: 1, perPage: 10 };
const description = "Продавец получил оплату и пропал, аккаунт так и не передал.";

beforeAll(async () => {
  t = await createTestDatabase();
  moderator = await makeUser(t.db);
  await promoteToModerator(t.db, moderator.id);
});
afterAll(async () => {
  await t.destroy();
});

/** Upholds a claim against `accused` with the moderator's `note`; returns the claim id. */
async function blacklist(accused: UserRow, note: string, decide = true): Promise<number> {
  const claimant = await makeUser(t.db);
  const claim = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 5_000, description, evidence: [] }, key());
  if (decide) await decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note }, key());
  return claim.id;
}

describe(`the blacklist search on ${engine} (docs/product/claims.md#blacklist-search)`, () => {
  it("finds by username, display name or reason, in any case; pages keep the search; nothing found is an empty page", async () => {
    const suffix = Date.now().toString(36);
    const seller = await makeUser(t.db, { username: `Perekup_${suffix}` });
    await t.db
      .update(users)
      .set({ displayName: `Антон Кидалов ${suffix}` })
      .where(eq(users.id, seller.id));
    const other = await makeUser(t.db);
    const first = await blacklist(seller, "Не передал аккаунт Steam после оплаты");
    const second = await blacklist(seller, "Исчез с предоплатой");
    const third = await blacklist(other, `Подделал скриншот перевода ${suffix}`);
    // An open claim is not on the blacklist, whatever it says.
    await blacklist(other, "", false);

    const ids = async (q: string, p = page) => (await listBlacklist(t.db, p, q)).items.map((e) => e.claimId);
    expect(await ids(`perekup_${suffix}`)).toEqual([second, first]);
    expect(await ids(`@PEREKUP_${suffix}`)).toEqual([second, first]);
    expect(await ids(`кидалов ${suffix}`)).toEqual([second, first]);
    expect(await ids(`скриншот перевода ${suffix}`)).toEqual([third]);
    expect(await ids(`steam`)).toContain(first);
    // `_` and `%` match only themselves.
    expect(await ids(`perekup%${suffix}`)).toEqual([]);
    expect(await ids(`ничего такого ${suffix}`)).toEqual([]);
    expect(await listBlacklist(t.db, page, `ничего такого ${suffix}`)).toMatchObject({ items: [], total: 0 });

    const paged = await listBlacklist(t.db, { page: 2, perPage: 1 }, `perekup_${suffix}`);
    expect(paged).toMatchObject({ total: 2, totalPages: 2 });
    expect(paged.items.map((e) => e.claimId)).toEqual([first]);
    // No search lists everyone.
    expect((await listBlacklist(t.db, { page: 1, perPage: 50 }, "")).items.map((e) => e.claimId)).toEqual(expect.arrayContaining([first, second, third]));
  });

  it("normalises the query: whitespace folded, a leading @ dropped, 100 characters at most", () => {
    expect(normalizeBlacklistQuery("  @ivan   petrov ")).toBe("ivan petrov");
    expect(normalizeBlacklistQuery(null)).toBe("");
    expect(normalizeBlacklistQuery("я".repeat(150))).toHaveLength(100);
  });
});
