/**
 * Sanctions and the report queue (docs/product/moderation.md#reports): a suspension or a mute,
 * from the member page or from the queue, settles the member's open profile reports — they leave
 * the queue, their reporters hear the outcome, the log has it — and each queue card shows the
 * reported member's sanctions in force with their ends.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { posts, reports } from "~/db/schema";
import { registerNotificationRules } from "~/domain/notifications/subscribers.server";
import type { UserRow } from "~/domain/users/users.server";
import { eventBus } from "~/lib/events.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { inboxOf } from "../../../tests/setup/domain";
import { auditEntries, makeMember } from "../../../tests/setup/moderation";
import { listReportQueue, resolveReports } from "./report-queue.server";
import { fileReport } from "./reports.server";
import { muteMember, suspendMember } from "./sanctions.server";

let t: TestDatabase;
let moderator: UserRow;
let reporters: UserRow[];
const page = { page: 1, perPage: 100 };

beforeAll(async () => {
  t = await createTestDatabase();
  registerNotificationRules(t.db);
  moderator = await makeMember(t.db, "moderator");
  reporters = [await makeMember(t.db), await makeMember(t.db)];
});
afterAll(async () => {
  await t.destroy();
});

async function reportProfile(memberId: number) {
  for (const reporter of reporters) await fileReport(t.db, reporter.id, { targetType: "profile", targetId: memberId, reason: "fraud" });
}

async function reportsAbout(memberId: number) {
  return t.db
    .select()
    .from(reports)
    .where(and(eq(reports.targetType, "profile"), eq(reports.targetId, memberId)));
}

const inQueue = async (key: string) => (await listReportQueue(t.db, moderator.id, page)).items.some((g) => `${g.targetType}:${g.targetId}` === key);

describe(`a sanction settles the member's profile reports on ${engine}`, () => {
  it("a suspension from the member page closes their open profile reports; reporters hear it; the log has it", async () => {
    const scammer = await makeMember(t.db);
    await reportProfile(scammer.id);
    expect(await inQueue(`profile:${scammer.id}`)).toBe(true);

    await suspendMember(t.db, moderator.id, scammer.id, { reason: "Обман при обмене", endsAt: new Date(Date.now() + 7 * 86_400_000) });
    await eventBus(t.db).drain();

    expect(await inQueue(`profile:${scammer.id}`)).toBe(false);
    const closed = await reportsAbout(scammer.id);
    expect(closed.map((r) => [r.status, r.outcome, r.resolvedById, r.resolutionNote])).toEqual(
      closed.map(() => ["actioned", "suspend", moderator.id, "Обман при обмене"]),
    );
    for (const reporter of reporters) {
      const handled = (await inboxOf(t.db, reporter)).find((n) => n.type === "REPORT_HANDLED" && n.url === `/profile/${scammer.id}`);
      expect(handled).toMatchObject({ title: `${moderator.username} рассмотрел(а) вашу жалобу`, read: false });
    }
    const [entry] = await auditEntries(t.db, "report.resolve", scammer.id);
    expect(entry).toMatchObject({ actorId: moderator.id, targetType: "user", targetId: scammer.id, details: { outcome: "suspend", reporters: 2 } });
  });

  it("a mute settles them too; reports on the member's posts stay for a moderator to decide", async () => {
    const loud = await makeMember(t.db);
    const [post] = await t.db.insert(posts).values({ authorId: loud.id, title: "КАПСОМ", body: "ФЛУД", categoryId: 1 }).returning({ id: posts.id });
    await reportProfile(loud.id);
    await fileReport(t.db, reporters[0]!.id, { targetType: "post", targetId: post!.id, reason: "spam" });

    await muteMember(t.db, moderator.id, loud.id, { reason: "Флуд", endsAt: null });

    expect((await reportsAbout(loud.id)).map((r) => [r.status, r.outcome])).toEqual([
      ["actioned", "mute"],
      ["actioned", "mute"],
    ]);
    expect(await inQueue(`post:${post!.id}`)).toBe(true);
  });

  it("a sanction decided from an item's card settles the author's profile reports as well", async () => {
    const spammer = await makeMember(t.db);
    const [post] = await t.db.insert(posts).values({ authorId: spammer.id, title: "Спам", body: "Спам", categoryId: 1 }).returning({ id: posts.id });
    await fileReport(t.db, reporters[0]!.id, { targetType: "post", targetId: post!.id, reason: "spam" });
    await reportProfile(spammer.id);

    const result = await resolveReports(t.db, moderator.id, { targetType: "post", targetId: post!.id, outcome: "suspend", reason: "Спам", endsAt: null });
    await eventBus(t.db).drain();

    expect(result).toMatchObject({ resolvedReports: 1, itemState: "deleted" });
    expect(await inQueue(`post:${post!.id}`)).toBe(false);
    expect(await inQueue(`profile:${spammer.id}`)).toBe(false);
    const handled = (await inboxOf(t.db, reporters[1]!)).filter((n) => n.type === "REPORT_HANDLED" && n.url === `/profile/${spammer.id}`);
    expect(handled).toHaveLength(1);
  });

  it("deciding a profile's card with a sanction closes its reports once, under the card's decision", async () => {
    const member = await makeMember(t.db);
    await reportProfile(member.id);
    const result = await resolveReports(t.db, moderator.id, {
      targetType: "profile",
      targetId: member.id,
      outcome: "mute",
      reason: "Оскорбления",
      endsAt: null,
    });
    expect(result.resolvedReports).toBe(2);
    expect(await auditEntries(t.db, "report.resolve", member.id)).toHaveLength(1);
  });
});

describe(`the queue shows the reported member's sanctions on ${engine}`, () => {
  it("each card names the suspension and the mute in force with their ends; none when the member has none", async () => {
    const muted = await makeMember(t.db);
    const clean = await makeMember(t.db);
    const until = new Date(Date.now() + 3 * 86_400_000);
    await muteMember(t.db, moderator.id, muted.id, { reason: "Флуд", endsAt: until });
    const [mutedPost, cleanPost] = await t.db
      .insert(posts)
      .values([
        { authorId: muted.id, title: "Пост", body: "Текст", categoryId: 1 },
        { authorId: clean.id, title: "Пост", body: "Текст", categoryId: 1 },
      ])
      .returning({ id: posts.id });
    await fileReport(t.db, reporters[0]!.id, { targetType: "post", targetId: mutedPost!.id, reason: "spam" });
    await fileReport(t.db, reporters[0]!.id, { targetType: "post", targetId: cleanPost!.id, reason: "spam" });

    const queue = (await listReportQueue(t.db, moderator.id, page)).items;
    const card = (id: number) => queue.find((g) => g.targetType === "post" && g.targetId === id)!;
    expect(card(mutedPost!.id).targetUserSanctions).toMatchObject({ suspension: null, mute: { kind: "mute", reason: "Флуд", endsAt: until.toISOString() } });
    expect(card(cleanPost!.id).targetUserSanctions).toEqual({ suspension: null, mute: null });
  });
});
