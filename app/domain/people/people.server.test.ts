import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { follows } from "~/db/schema";
import { eventBus, type DomainEvent } from "~/lib/events.server";
import { Forbidden, NotFound, ValidationFailed } from "~/lib/errors";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import type { UserRow } from "../users/users.server";
import { blockMember, toggleBlock, unblockMember } from "./blocks.server";
import { followMember, toggleFollow, unfollowMember } from "./follows.server";
import { getProfileRelations, isBlockedBy, RELATION_LIST_LIMIT } from "./relations.server";
import { profileReturnPath } from "./return-path";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

/** Every event published while `action` runs, collected once their handlers have run. */
async function eventsDuring(action: () => Promise<unknown>): Promise<DomainEvent[]> {
  const seen: DomainEvent[] = [];
  const unsubscribe = eventBus(t.db).subscribe("*", (event) => void seen.push(event));
  try {
    await action();
    await eventBus(t.db).drain();
  } finally {
    unsubscribe();
  }
  return seen;
}

describe(`follows on ${engine}`, () => {
  it("a member follows another: counts, flags and lists change; follow.created is published once", async () => {
    const star = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const events = await eventsDuring(() => followMember(t.db, fan, star.id));
    expect(events).toEqual([{ type: "follow.created", followerId: fan.id, followeeId: star.id }]);

    const seenByFan = await getProfileRelations(t.db, fan.id, star.id);
    expect(seenByFan).toMatchObject({ followerCount: 1, followingCount: 0, following: true, blocking: false, blockedByThem: false });
    expect(seenByFan.followers.map((u) => u.username)).toEqual([fan.username]);
    expect(await getProfileRelations(t.db, null, star.id)).toMatchObject({ followerCount: 1, following: false });
    const fanProfile = await getProfileRelations(t.db, star.id, fan.id);
    expect(fanProfile).toMatchObject({ followerCount: 0, followingCount: 1, following: false });
    expect(fanProfile.followees.map((u) => u.id)).toEqual([star.id]);
  });

  it("following twice is idempotent: one row, no second event", async () => {
    const star = await makeUser(t.db);
    const fan = await makeUser(t.db);
    await followMember(t.db, fan, star.id);
    let result: Awaited<ReturnType<typeof followMember>> | undefined;
    const events = await eventsDuring(async () => (result = await followMember(t.db, fan, star.id)));
    expect(events).toEqual([]);
    expect(result).toMatchObject({ following: true, changed: false });
    expect((await getProfileRelations(t.db, null, star.id)).followerCount).toBe(1);
  });

  it("unfollowing removes the follow and is idempotent too", async () => {
    const star = await makeUser(t.db);
    const fan = await makeUser(t.db);
    await followMember(t.db, fan, star.id);
    await expect(unfollowMember(t.db, fan, star.id)).resolves.toMatchObject({ following: false, changed: true });
    await expect(unfollowMember(t.db, fan, star.id)).resolves.toMatchObject({ following: false, changed: false });
    expect(await getProfileRelations(t.db, fan.id, star.id)).toMatchObject({ followerCount: 0, following: false });
  });

  it("refuses following oneself and unknown members", async () => {
    const member = await makeUser(t.db);
    const events = await eventsDuring(async () => {
      await expect(followMember(t.db, member, member.id)).rejects.toMatchObject({ code: "cannot_follow_self", message: "Нельзя подписаться на самого себя" });
    });
    expect(events).toEqual([]);
    await expect(followMember(t.db, member, 987_654_321)).rejects.toBeInstanceOf(NotFound);
    await expect(followMember(t.db, member, Number.NaN)).rejects.toMatchObject({ code: "profile_not_found" });
    // The database keeps the rule too.
    await expect(t.db.insert(follows).values({ followerId: member.id, followeeId: member.id })).rejects.toThrow();
  });

  it("lists the latest 20 followers and keeps the exact count", async () => {
    const star = await makeUser(t.db);
    const fans: UserRow[] = [];
    for (let i = 0; i < RELATION_LIST_LIMIT + 3; i += 1) fans.push(await makeUser(t.db));
    for (const fan of fans) await followMember(t.db, fan, star.id);
    const relations = await getProfileRelations(t.db, null, star.id);
    expect(relations.followerCount).toBe(23);
    expect(relations.followers).toHaveLength(RELATION_LIST_LIMIT);
    expect(new Set(relations.followers.map((u) => u.id)).size).toBe(RELATION_LIST_LIMIT);
    expect(relations.followers.every((u) => fans.some((fan) => fan.id === u.id))).toBe(true);
  });
});

describe(`blocks on ${engine}`, () => {
  it("blocking shows on both sides and isBlockedBy answers for one direction only", async () => {
    const owner = await makeUser(t.db);
    const troll = await makeUser(t.db);
    await blockMember(t.db, owner, troll.id);
    expect(await isBlockedBy(t.db, owner.id, troll.id)).toBe(true);
    expect(await isBlockedBy(t.db, troll.id, owner.id)).toBe(false);
    expect(await getProfileRelations(t.db, owner.id, troll.id)).toMatchObject({ blocking: true, blockedByThem: false });
    expect(await getProfileRelations(t.db, troll.id, owner.id)).toMatchObject({ blocking: false, blockedByThem: true });
    await expect(blockMember(t.db, owner, troll.id)).resolves.toMatchObject({ blocking: true, changed: false });
    await expect(unblockMember(t.db, owner, troll.id)).resolves.toMatchObject({ blocking: false, changed: true });
    expect(await isBlockedBy(t.db, owner.id, troll.id)).toBe(false);
  });

  it("blocking removes the follows in both directions", async () => {
    const owner = await makeUser(t.db);
    const other = await makeUser(t.db);
    const bystander = await makeUser(t.db);
    await followMember(t.db, owner, other.id);
    await followMember(t.db, other, owner.id);
    await followMember(t.db, bystander, owner.id);
    await blockMember(t.db, owner, other.id);
    const between = await t.db
      .select()
      .from(follows)
      .where(and(eq(follows.followerId, other.id), eq(follows.followeeId, owner.id)));
    expect(between).toEqual([]);
    expect(await getProfileRelations(t.db, owner.id, other.id)).toMatchObject({ followerCount: 0, followingCount: 0, following: false });
    // Other members' follows are untouched.
    expect((await getProfileRelations(t.db, null, owner.id)).followers.map((u) => u.id)).toEqual([bystander.id]);
    // Unblocking does not bring the follows back.
    await unblockMember(t.db, owner, other.id);
    expect((await getProfileRelations(t.db, null, other.id)).followerCount).toBe(0);
  });

  it("a blocked member cannot follow the blocker, nor the blocker the blocked until unblocking", async () => {
    const owner = await makeUser(t.db);
    const troll = await makeUser(t.db);
    await blockMember(t.db, owner, troll.id);
    await expect(followMember(t.db, troll, owner.id)).rejects.toMatchObject({ code: "blocked", status: 403 });
    await expect(followMember(t.db, owner, troll.id)).rejects.toMatchObject({ code: "blocking" });
    await unblockMember(t.db, owner, troll.id);
    await expect(followMember(t.db, troll, owner.id)).resolves.toMatchObject({ following: true, changed: true });
  });

  it("refuses blocking oneself and unknown members", async () => {
    const member = await makeUser(t.db);
    await expect(blockMember(t.db, member, member.id)).rejects.toBeInstanceOf(ValidationFailed);
    await expect(blockMember(t.db, member, 987_654_321)).rejects.toMatchObject({ code: "profile_not_found" });
    await expect(unblockMember(t.db, member, 0)).rejects.toBeInstanceOf(NotFound);
    expect(await isBlockedBy(t.db, member.id, Number.NaN)).toBe(false);
  });

  it("answers empty relations for a malformed profile id", async () => {
    expect(await getProfileRelations(t.db, null, Number.NaN)).toMatchObject({ followerCount: 0, followers: [], followees: [] });
  });

  it("refused follows publish nothing", async () => {
    const owner = await makeUser(t.db);
    const troll = await makeUser(t.db);
    await blockMember(t.db, owner, troll.id);
    const events = await eventsDuring(() => expect(followMember(t.db, troll, owner.id)).rejects.toBeInstanceOf(Forbidden));
    expect(events).toEqual([]);
  });
});

describe(`toggles on ${engine}`, () => {
  it("the forms' toggle follows, unfollows, blocks and unblocks in turn", async () => {
    const a = await makeUser(t.db);
    const b = await makeUser(t.db);
    await expect(toggleFollow(t.db, a, b.id)).resolves.toMatchObject({ following: true, changed: true });
    await expect(toggleFollow(t.db, a, b.id)).resolves.toMatchObject({ following: false, changed: true });
    await expect(toggleBlock(t.db, a, b.id)).resolves.toMatchObject({ blocking: true, changed: true });
    await expect(toggleBlock(t.db, a, b.id)).resolves.toMatchObject({ blocking: false, changed: true });
    await expect(toggleFollow(t.db, a, 1e12)).rejects.toMatchObject({ code: "profile_not_found" });
  });
});

describe("profileReturnPath", () => {
  it("goes back to the same profile page with its query, never elsewhere", () => {
    expect(profileReturnPath(7, "/profile/7?wallPage=3", "#wall")).toBe("/profile/7?wallPage=3#wall");
    expect(profileReturnPath(7, "/profile/7")).toBe("/profile/7");
    for (const bad of ["https://evil.example/profile/7", "//evil.example/profile/7", "/\\evil.example", "/profile/8", "/profile/7/wall", null, 42]) {
      expect(profileReturnPath(7, bad, "#wall")).toBe("/profile/7#wall");
    }
  });
});
