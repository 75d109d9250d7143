import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~/db/schema";
import { fileClaim } from "~/domain/claims/claims.server";
import { createDeal } from "~/domain/deals/deals.server";
import { topUp } from "~/domain/ledger/wallet.server";
import type { UserRow } from "~/domain/users/users.server";
import { createUserSession } from "~/lib/session.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost } from "../../../tests/setup/factories";
import { makeMember, refusal } from "../../../tests/setup/moderation";
import { getDashboardCounts, getMemberAdminView, listMembers } from "./members.server";
import { fileReport } from "./reports.server";
import { liftSanction, muteMember, suspendMember } from "./sanctions.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let keys = 0;
const key = () => `members-${++keys}`;
const page = { page: 1, perPage: 50 };

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeMember(t.db, "admin");
  moderator = await makeMember(t.db, "moderator");
});
afterAll(async () => {
  await t.destroy();
});

describe(`the /admin dashboard and members on ${engine}`, () => {
  it("counts open reports (items and reports), open claims, disputes and today's new members", async () => {
    const before = await getDashboardCounts(t.db, moderator.id);
    const [author, a, b] = [await makeMember(t.db), await makeMember(t.db), await makeMember(t.db)];
    const postId = await makePost(t.db, author);
    await fileReport(t.db, a.id, { targetType: "post", targetId: postId, reason: "spam" });
    await fileReport(t.db, b.id, { targetType: "post", targetId: postId, reason: "fraud" });
    await fileReport(t.db, a.id, { targetType: "profile", targetId: author.id, reason: "abuse" });
    await fileClaim(t.db, a.id, { accused: author.username, amount: 50_000, description: "Не отдал аккаунт после оплаты", evidence: [] }, key());
    const after = await getDashboardCounts(t.db, moderator.id);
    expect(after).toEqual({
      openReportItems: before.openReportItems + 2,
      openReports: before.openReports + 3,
      openClaims: before.openClaims + 1,
      openDisputes: before.openDisputes,
      newMembersToday: before.newMembersToday + 3,
    });
    const yesterday = await makeMember(t.db);
    await t.db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(users.id, yesterday.id));
    expect((await getDashboardCounts(t.db, moderator.id)).newMembersToday).toBe(after.newMembersToday);
    expect((await refusal(() => getDashboardCounts(t.db, a.id))).code).toBe("not_moderator");
  });

  it("lists members by name or email, role, suspended, muted and SCAMMER, newest first, in pages", async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const suspended = await makeMember(t.db);
    const muted = await makeMember(t.db);
    const scammer = await makeMember(t.db);
    const plain = await makeMember(t.db);
    for (const [user, suffix] of [
      [suspended, "a"],
      [muted, "b"],
      [scammer, "c"],
      [plain, "d"],
    ] as const) {
      await t.db
        .update(users)
        .set({ username: `${tag}_${suffix}`, email: `${tag}.${suffix}@mail.test` })
        .where(eq(users.id, user.id));
    }
    await t.db.update(users).set({ scammer: true }).where(eq(users.id, scammer.id));
    const until = new Date(Date.now() + 86_400_000);
    await suspendMember(t.db, moderator.id, suspended.id, { reason: "Спам", endsAt: until });
    await muteMember(t.db, moderator.id, muted.id, { reason: "Флуд", endsAt: null });
    const expired = await muteMember(t.db, moderator.id, plain.id, { reason: "Было давно", endsAt: until });
    await liftSanction(t.db, moderator.id, expired.id);

    const names = async (filter: Parameters<typeof listMembers>[2]) =>
      (await listMembers(t.db, moderator.id, { q: tag, ...filter }, page)).items.map((m) => m.username);
    expect(await names({})).toEqual([`${tag}_d`, `${tag}_c`, `${tag}_b`, `${tag}_a`]);
    expect(await names({ q: `${tag}.C@MAIL` })).toEqual([`${tag}_c`]);
    expect(await names({ suspended: true })).toEqual([`${tag}_a`]);
    expect(await names({ muted: true })).toEqual([`${tag}_b`]);
    expect(await names({ muted: false, suspended: false })).toEqual([`${tag}_d`, `${tag}_c`]);
    expect(await names({ scammer: true })).toEqual([`${tag}_c`]);
    expect((await listMembers(t.db, moderator.id, { role: "admin" }, page)).items.map((m) => m.id)).toContain(admin.id);
    const [row] = (await listMembers(t.db, moderator.id, { q: `${tag}_a` }, page)).items;
    expect(row).toMatchObject({ suspendedUntil: until.toISOString(), suspendedForever: false, mutedUntil: null, ranks: [] });
    expect((await listMembers(t.db, moderator.id, { q: `${tag}_b` }, page)).items[0]).toMatchObject({ mutedForever: true });
    // LIKE wildcards are taken literally.
    expect(await names({ q: "%" })).toEqual([]);
    const paged = await listMembers(t.db, moderator.id, { q: tag }, { page: 2, perPage: 3 });
    expect([paged.total, paged.items.map((m) => m.username)]).toEqual([4, [`${tag}_a`]]);

    const role = await refusal(() => listMembers(t.db, moderator.id, { role: "owner" as never }, page));
    expect([role.status, role.code, role.message]).toEqual([400, "unknown_role", "Такой роли нет"]);
    expect((await refusal(() => listMembers(t.db, moderator.id, { q: "я".repeat(10_000) }, page))).code).toBe("invalid_query");
    expect((await refusal(() => listMembers(t.db, plain.id, {}, page))).code).toBe("not_moderator");
  });

  it("gathers a member page: roles, sanctions now and before, sign-in addresses, claims, deals, balances, reports, actions", async () => {
    const member = await makeMember(t.db);
    const claimant = await makeMember(t.db);
    await createUserSession(t.db, member.id, { ip: "203.0.113.7" });
    await createUserSession(t.db, member.id, { ip: "203.0.113.7" });
    await createUserSession(t.db, member.id, { ip: "198.51.100.2" });
    await topUp(t.db, admin.id, member.id, 70_000, key());
    await createDeal(
      t.db,
      member.id,
      {
        counterparty: claimant.id,
        role: "seller",
        amount: 20_000,
        description: "Скины CS",
        deadline: new Date(Date.now() + 5 * 86_400_000),
        feePayer: "buyer",
      },
      key(),
    );
    await fileClaim(
      t.db,
      claimant.id,
      { accused: member.username, amount: 20_000, description: "Не передал скины после оплаты", evidence: ["https://example.test/chat.png"] },
      key(),
    );
    await fileReport(t.db, claimant.id, { targetType: "profile", targetId: member.id, reason: "fraud" });
    const old = await muteMember(t.db, moderator.id, member.id, { reason: "Флуд", endsAt: new Date(Date.now() + 3_600_000) });
    await liftSanction(t.db, moderator.id, old.id);
    await suspendMember(t.db, moderator.id, member.id, { reason: "Мошенничество", endsAt: null });

    const view = await getMemberAdminView(t.db, moderator.id, member.id);
    expect(view.member).toMatchObject({ id: member.id, username: member.username, email: member.email, role: "member", ranks: [] });
    expect(view.active.suspension).toMatchObject({ reason: "Мошенничество", endsAt: null, active: true });
    expect(view.active.mute).toBeNull();
    expect(view.sanctions.map((s) => [s.kind, s.active])).toEqual([
      ["suspend", true],
      ["mute", false],
    ]);
    expect(view.signInAddresses.map((a) => [a.ip, a.signIns])).toEqual([
      ["198.51.100.2", 1],
      ["203.0.113.7", 2],
      // makeMember's own sign-in, made without a known address.
      [null, 1],
    ]);
    expect(view.claimsAgainst.items.map((c) => c.claimant.id)).toEqual([claimant.id]);
    expect(view.claimsFiled.total).toBe(0);
    expect(view.deals.items).toHaveLength(1);
    expect(view.balances).toEqual({ available: 70_000, held: 0, deposit: 0 });
    // The mute settled the open profile report (docs/product/moderation.md#reports).
    expect(view.reportsAgainst).toEqual({ open: 0, total: 1 });
    expect(view.recentActions.map((e) => e.action)).toEqual(["sanction.suspend", "sanction.lift", "report.resolve", "sanction.mute", "money.topup"]);

    expect((await refusal(() => getMemberAdminView(t.db, moderator.id, 2_000_000_000))).code).toBe("member_not_found");
    expect((await refusal(() => getMemberAdminView(t.db, claimant.id, member.id))).code).toBe("not_moderator");
  });
});
