import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { auditEntries, makeMember, refusal, reload } from "../../../tests/setup/moderation";
import { grantRank, revokeRank } from "./roles.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

describe(`roles on ${engine}`, () => {
  it("lets an admin grant and revoke MODERATOR, VERIFIED and ADMIN, each written to the audit log", async () => {
    const admin = await makeMember(t.db, "admin");
    const member = await makeMember(t.db);

    expect(await grantRank(t.db, admin.id, member.id, "MODERATOR", { reason: "Помогает в общем чате" })).toMatchObject({
      role: "moderator",
      ranks: ["MODERATOR"],
    });
    expect(await grantRank(t.db, admin.id, member.id, "VERIFIED")).toMatchObject({ verified: true, ranks: ["MODERATOR", "VERIFIED"] });
    expect(await revokeRank(t.db, admin.id, member.id, "MODERATOR")).toMatchObject({ role: "member", ranks: ["VERIFIED"] });
    expect(await grantRank(t.db, admin.id, member.id, "ADMIN")).toMatchObject({ role: "admin" });
    expect(await revokeRank(t.db, admin.id, member.id, "ADMIN")).toMatchObject({ role: "member" });
    expect(await revokeRank(t.db, admin.id, member.id, "VERIFIED")).toMatchObject({ verified: false, ranks: [] });

    const grants = await auditEntries(t.db, "role.grant", member.id);
    const revokes = await auditEntries(t.db, "role.revoke", member.id);
    expect(grants.map((e) => e.details.rank)).toEqual(["ADMIN", "VERIFIED", "MODERATOR"]);
    expect(revokes.map((e) => e.details.rank)).toEqual(["VERIFIED", "ADMIN", "MODERATOR"]);
    expect(grants.at(-1)).toMatchObject({ actorId: admin.id, reason: "Помогает в общем чате", details: { fromRole: "member", toRole: "moderator" } });
  });

  it("refuses moderators and members: only admins change roles", async () => {
    const moderator = await makeMember(t.db, "moderator");
    const member = await makeMember(t.db);
    const target = await makeMember(t.db);
    for (const actor of [moderator, member]) {
      const error = await refusal(() => grantRank(t.db, actor.id, target.id, "VERIFIED"));
      expect([error.status, error.code, error.message]).toEqual([403, "not_admin", "Это действие доступно только администраторам"]);
    }
    expect((await refusal(() => revokeRank(t.db, moderator.id, moderator.id, "MODERATOR"))).code).toBe("not_admin");
    expect((await reload(t.db, target.id)).verified).toBe(false);
    expect((await reload(t.db, moderator.id)).role).toBe("moderator");
  });

  it("keeps the last admin: they cannot remove their own role, but can once there is another", async () => {
    const only = await makeMember(t.db, "admin");
    // Other suites' admins exist in this database: demote them so `only` is the last one.
    const others = (await t.db.query.users.findMany({ where: (u, { eq, and, ne }) => and(eq(u.role, "admin"), ne(u.id, only.id)) })).map((u) => u.id);
    for (const id of others) await revokeRank(t.db, only.id, id, "ADMIN");

    const last = await refusal(() => revokeRank(t.db, only.id, only.id, "ADMIN"));
    expect([last.status, last.code]).toEqual([409, "last_admin"]);
    expect(last.message).toContain("последний администратор");
    expect((await reload(t.db, only.id)).role).toBe("admin");

    const second = await makeMember(t.db);
    await grantRank(t.db, only.id, second.id, "ADMIN");
    expect(await revokeRank(t.db, only.id, only.id, "ADMIN")).toMatchObject({ role: "member" });
    expect((await refusal(() => revokeRank(t.db, second.id, second.id, "ADMIN"))).code).toBe("last_admin");
  });

  it("explains bad input in Russian and changes nothing", async () => {
    const admin = await makeMember(t.db, "admin");
    const member = await makeMember(t.db);
    const unknownRole = await refusal(() => grantRank(t.db, admin.id, member.id, "SUPERUSER"));
    expect([unknownRole.status, unknownRole.code, unknownRole.message]).toEqual([400, "unknown_role", "Такой роли нет: выдаются ADMIN, MODERATOR и VERIFIED"]);
    expect((await refusal(() => grantRank(t.db, admin.id, member.id, "SCAMMER"))).code).toBe("unknown_role");
    const unknownMember = await refusal(() => grantRank(t.db, admin.id, 2_000_000, "VERIFIED"));
    expect([unknownMember.status, unknownMember.code, unknownMember.message]).toEqual([404, "member_not_found", "Участник не найден"]);
    const longReason = await refusal(() => grantRank(t.db, admin.id, member.id, "VERIFIED", { reason: "я".repeat(10_000) }));
    expect([longReason.status, longReason.code, longReason.message]).toEqual([400, "invalid_reason", "Причина — не длиннее 1000 символов"]);
    expect((await refusal(() => revokeRank(t.db, admin.id, member.id, "MODERATOR"))).code).toBe("role_not_held");
    await grantRank(t.db, admin.id, member.id, "VERIFIED");
    expect((await refusal(() => grantRank(t.db, admin.id, member.id, "VERIFIED"))).code).toBe("role_unchanged");
    expect((await refusal(() => grantRank(t.db, admin.id, admin.id, "MODERATOR"))).code).toBe("already_admin");
    expect(await reload(t.db, member.id)).toMatchObject({ role: "member", verified: true });
    expect(await auditEntries(t.db, "role.grant", member.id)).toHaveLength(1);
  });
});
