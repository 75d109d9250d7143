import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "~/db/schema";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { auditEntries, makeMember, refusal } from "../../../tests/setup/moderation";
import type { UserRow } from "../users/users.server";
import { listAuditLog, writeAudit } from "./audit.server";
import { grantRank } from "./roles.server";
import { muteMember, suspendMember } from "./sanctions.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let member: UserRow;
let other: UserRow;

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeMember(t.db, "admin");
  moderator = await makeMember(t.db, "moderator");
  member = await makeMember(t.db);
  other = await makeMember(t.db);
});
afterAll(async () => {
  await t.destroy();
});

describe(`audit log on ${engine}`, () => {
  it("refuses UPDATE and DELETE of its rows in the database itself, whoever asks", async () => {
    await suspendMember(t.db, moderator.id, other.id, { reason: "Спам в личных сообщениях", endsAt: new Date(Date.now() + 86_400_000) });
    const [entry] = await auditEntries(t.db, "sanction.suspend", other.id);
    expect(entry).toBeDefined();
    const update = await t.db.execute(sql`update ${auditLog} set reason = 'переписано' where id = ${entry!.id}`).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(String(update?.message ?? "") + String((update as { cause?: Error } | null)?.cause?.message ?? "")).toMatch(/append-only: UPDATE refused/);
    const remove = await t.db.execute(sql`delete from ${auditLog} where id = ${entry!.id}`).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(String(remove?.message ?? "") + String((remove as { cause?: Error } | null)?.cause?.message ?? "")).toMatch(/append-only: DELETE refused/);
    const [still] = await auditEntries(t.db, "sanction.suspend", other.id);
    expect(still).toEqual(entry);
  });

  it("keeps no entry of a transaction that rolled back: entries commit with their action", async () => {
    const before = (await auditEntries(t.db, "content.delete")).length;
    await t.db
      .transaction(async (tx) => {
        await writeAudit(tx, { actorId: moderator.id, action: "content.delete", targetType: "post", targetId: 1 });
        throw new Error("the action failed after its entry");
      })
      .catch(() => undefined);
    expect(await auditEntries(t.db, "content.delete")).toHaveLength(before);
  });

  it("lists entries newest first for moderators, filtered by actor, action, member concerned and time, in pages", async () => {
    const start = new Date();
    await muteMember(t.db, moderator.id, member.id, { reason: "Флуд в общем чате", endsAt: null });
    await grantRank(t.db, admin.id, member.id, "VERIFIED", { reason: "Проверенный продавец" });

    const all = await listAuditLog(t.db, moderator.id, { targetUser: member.id }, { page: 1, perPage: 10 });
    expect(all.items.map((e) => e.action)).toEqual(["role.grant", "sanction.mute"]);
    const [grant, mute] = all.items;
    expect(grant).toMatchObject({
      actor: { id: admin.id, username: admin.username },
      actionLabel: "Выдал роль",
      target: { type: "user", id: member.id, url: `/admin/members/${member.id}` },
      targetUser: { id: member.id },
      reason: "Проверенный продавец",
      details: { rank: "VERIFIED" },
    });
    expect(mute).toMatchObject({ actor: { id: moderator.id }, reason: "Флуд в общем чате", details: { endsAt: null } });

    const byActor = await listAuditLog(t.db, admin.id, { actor: admin.username, targetUser: member.id }, { page: 1, perPage: 10 });
    expect(byActor.items.map((e) => e.action)).toEqual(["role.grant"]);
    const byAction = await listAuditLog(t.db, admin.id, { action: "sanction.mute" }, { page: 1, perPage: 10 });
    expect(byAction.items.every((e) => e.action === "sanction.mute")).toBe(true);
    const aboutOther = await listAuditLog(t.db, admin.id, { targetUser: other.id }, { page: 1, perPage: 10 });
    expect(aboutOther.items.map((e) => e.action)).toEqual(["sanction.suspend"]);
    const earlier = await listAuditLog(t.db, admin.id, { to: new Date(start.getTime() - 60_000), targetUser: member.id }, { page: 1, perPage: 10 });
    expect(earlier.total).toBe(0);
    const later = await listAuditLog(t.db, admin.id, { from: new Date(start.getTime() - 60_000), targetUser: member.id }, { page: 1, perPage: 10 });
    expect(later.total).toBe(2);

    const firstPage = await listAuditLog(t.db, admin.id, {}, { page: 1, perPage: 1 });
    const secondPage = await listAuditLog(t.db, admin.id, {}, { page: 2, perPage: 1 });
    expect(firstPage.total).toBeGreaterThanOrEqual(3);
    expect(firstPage.items[0]!.id).toBeGreaterThan(secondPage.items[0]!.id);
  });

  it("is for moderators only, and explains a bad filter in Russian", async () => {
    expect((await refusal(() => listAuditLog(t.db, member.id, {}, { page: 1, perPage: 10 }))).code).toBe("not_moderator");
    const unknown = await refusal(() => listAuditLog(t.db, moderator.id, { actor: "nobody_here_at_all" }, { page: 1, perPage: 10 }));
    expect([unknown.status, unknown.code, unknown.message]).toEqual([404, "member_not_found", "Участник не найден"]);
    const action = await refusal(() => listAuditLog(t.db, moderator.id, { action: "post.burn" as never }, { page: 1, perPage: 10 }));
    expect([action.status, action.code]).toEqual([400, "invalid_action"]);
    const period = await refusal(() => listAuditLog(t.db, moderator.id, { from: new Date(), to: new Date(Date.now() - 1000) }, { page: 1, perPage: 10 }));
    expect([period.code, period.message]).toEqual(["invalid_period", "Начало периода должно быть раньше конца"]);
  });
});
