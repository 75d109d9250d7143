/**
 * Suspend and mute (docs/product/moderation.md#suspension-and-mute): a suspended member is
 * signed out everywhere and cannot sign in until it ends (with the reason and the end in the
 * refusal); a muted member signs in and uses money but cannot publish; both end by time or when
 * lifted; who may sanction whom; bad input changes nothing.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sanctions, sessions } from "~/db/schema";
import { createComment, editComment } from "~/domain/comments/write.server";
import { getPublicConversationId } from "~/domain/conversations/conversations.server";
import { editMessage, sendMessage } from "~/domain/conversations/messages.server";
import { applyDealAction, createDeal } from "~/domain/deals/deals.server";
import { topUp, transferToMember } from "~/domain/ledger/wallet.server";
import { createPost, updatePost } from "~/domain/posts/posts.server";
import { PostInputSchema } from "~/domain/posts/schemas";
import type { UserRow } from "~/domain/users/users.server";
import { createWallPost } from "~/domain/wall/wall.server";
import { authenticateWithForm } from "~/lib/auth.server";
import { getConfig } from "~/lib/config.server";
import { formatDateTime } from "~/lib/format";
import { createUserSession } from "~/lib/session.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost } from "../../../tests/setup/factories";
import { auditEntries, makeMember, refusal } from "../../../tests/setup/moderation";
import { AccountSuspended, MemberMuted } from "./errors";
import { assertMayPublish, assertMaySignIn, getOwnSanctions, liftSanction, listSanctionsOf, muteMember, suspendMember } from "./sanctions.server";
import { logger } from "~/lib/logger.server";
import { authenticateApiToken } from "~/lib/realtime/access.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let keyCount = 0;
const key = () => `sanction-test-${++keyCount}`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeMember(t.db, "admin");
  moderator = await makeMember(t.db, "moderator");
});
afterAll(async () => {
  await t.destroy();
});

/** Signs in through the password form as the login page and the Auth.js-style call do. */
function signInForm(login: string, password = PASSWORD) {
  const request = new Request("http://localhost/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: login, password }),
  });
  return authenticateWithForm(
    { db: t.db, config: getConfig(), clientIp: `10.9.${keyCount % 250}.${++keyCount % 250}`, cspNonce: "", requestId: "test", log: logger },
    request,
  );
}

describe(`suspension on ${engine}`, () => {
  it("signs the member out everywhere: sessions deleted, every apiToken ended, audited", async () => {
    const member = await makeMember(t.db);
    await createUserSession(t.db, member.id, { ip: "10.0.0.1" });
    await createUserSession(t.db, member.id, { ip: "10.0.0.2" });
    const until = inDays(3);
    const sanction = await suspendMember(t.db, moderator.id, member.id, { reason: "Мошенничество со скинами", endsAt: until });
    expect(sanction).toMatchObject({ kind: "suspend", reason: "Мошенничество со скинами", endsAt: until.toISOString(), active: true });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    expect(await authenticateApiToken(t.db, member.apiToken)).toBeNull();
    const [entry] = await auditEntries(t.db, "sanction.suspend", member.id);
    expect(entry).toMatchObject({
      actorId: moderator.id,
      targetType: "user",
      targetId: member.id,
      reason: "Мошенничество со скинами",
      details: { sanctionId: sanction.id, endsAt: until.toISOString() },
    });
  });

  it("refuses sign-in with the reason and the end date until it ends, on every way in", async () => {
    const member = await makeMember(t.db);
    const until = inDays(7);
    await suspendMember(t.db, moderator.id, member.id, { reason: "Спам", endsAt: until });

    const byForm = await refusal(() => signInForm(member.email));
    expect(byForm).toBeInstanceOf(AccountSuspended);
    expect([byForm.status, byForm.code]).toEqual([403, "account_suspended"]);
    expect(byForm.message).toBe(`Ваша учётная запись заблокирована до ${formatDateTime(until.toISOString())} (МСК). Причина: Спам`);
    expect(byForm.details).toEqual({ reason: "Спам", until: until.toISOString() });
    // A wrong password still only hears that the pair is wrong.
    expect((await refusal(() => signInForm(member.email, "wrong password!"))).code).toBe("invalid_credentials");
    // Every sign-in method creates its session through createUserSession (Telegram included): it refuses too.
    expect(await refusal(() => createUserSession(t.db, member.id, { method: "telegram" }))).toBeInstanceOf(AccountSuspended);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);

    // It ends by time, with no job: after the end the same checks pass.
    await expect(assertMaySignIn(t.db, member.id, new Date(until.getTime() + 1000))).resolves.toBeUndefined();
    await expect(assertMaySignIn(t.db, member.id)).rejects.toBeInstanceOf(AccountSuspended);
  });

  it("says «бессрочно» for a suspension for good, and a lifted one lets the member back in", async () => {
    const member = await makeMember(t.db);
    const forever = await suspendMember(t.db, admin.id, member.id, { reason: "Продажа краденых аккаунтов", endsAt: null });
    const error = await refusal(() => signInForm(member.username));
    expect(error.message).toBe("Ваша учётная запись заблокирована бессрочно. Причина: Продажа краденых аккаунтов");
    expect(error.details).toEqual({ reason: "Продажа краденых аккаунтов", until: null });

    const lifted = await liftSanction(t.db, moderator.id, forever.id, { reason: "Разобрались: аккаунт взломали" });
    expect(lifted).toMatchObject({ active: false, liftReason: "Разобрались: аккаунт взломали" });
    expect((await signInForm(member.username)).id).toBe(member.id);
    expect(await auditEntries(t.db, "sanction.lift", member.id)).toHaveLength(1);
    const again = await refusal(() => liftSanction(t.db, moderator.id, forever.id));
    expect([again.status, again.code]).toEqual([409, "sanction_not_active"]);
  });

  it("leaves the member's deals for moderators: a dispute is still resolved", async () => {
    const [buyer, seller] = [await makeMember(t.db), await makeMember(t.db)];
    await topUp(t.db, admin.id, buyer.id, 300_000, key());
    const deadline = inDays(10);
    let deal = await createDeal(
      t.db,
      seller.id,
      { counterparty: buyer.id, role: "seller", amount: 100_000, description: "Ключ Windows", deadline, feePayer: "buyer" },
      key(),
    );
    deal = await applyDealAction(t.db, buyer.id, deal.id, "accept", {}, key());
    deal = await applyDealAction(t.db, buyer.id, deal.id, "fund", {}, key());
    deal = await applyDealAction(t.db, buyer.id, deal.id, "dispute", { reason: "Ключ не подошёл" }, key());
    await suspendMember(t.db, moderator.id, seller.id, { reason: "Продаёт нерабочие ключи", endsAt: null });
    deal = await applyDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "refund", note: "Продавец заблокирован, деньги возвращены" }, key());
    expect(deal.state).toBe("refunded");
  });

  it("replaces the suspension in force with a new one", async () => {
    const member = await makeMember(t.db);
    const first = await suspendMember(t.db, moderator.id, member.id, { reason: "Первое нарушение", endsAt: inDays(1) });
    const second = await suspendMember(t.db, moderator.id, member.id, { reason: "Повторное нарушение", endsAt: inDays(30) });
    const list = await listSanctionsOf(t.db, member.id);
    expect(list.map((s) => [s.id, s.active])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    expect(list[1]).toMatchObject({ liftReason: "Заменено новым ограничением", liftedBy: { id: moderator.id } });
    expect((await getOwnSanctions(t.db, member.id)).suspension?.id).toBe(second.id);
  });
});

describe(`mute on ${engine}`, () => {
  it("lets the member sign in and move money, but refuses posts, comments, wall entries, messages and edits in Russian", async () => {
    const member = await makeMember(t.db);
    const friend = await makeMember(t.db);
    await topUp(t.db, admin.id, member.id, 50_000, key());
    const post = await createPost(t.db, member, PostInputSchema.parse({ title: "Продам ключи", body: "Недорого", categoryId: 1 }));
    const friendsPost = await makePost(t.db, friend);
    const comment = await createComment(t.db, member, friendsPost, { body: "Интересно" });
    const publicId = await getPublicConversationId(t.db);
    const message = await sendMessage(t.db, member.id, "group", publicId, { body: "Всем привет" });

    const until = inDays(2);
    await muteMember(t.db, moderator.id, member.id, { reason: "Флуд", endsAt: until });
    expect((await signInForm(member.email)).id).toBe(member.id);
    expect(await transferToMember(t.db, member.id, friend.id, 10_000, {}, key())).toMatchObject({ amount: 10_000 });

    const attempts: [string, () => Promise<unknown>][] = [
      ["post", () => createPost(t.db, member, PostInputSchema.parse({ title: "Ещё пост", body: "Текст", categoryId: 1 }))],
      ["post edit", () => updatePost(t.db, member, post.id, PostInputSchema.parse({ title: "Новый заголовок", body: "Текст", categoryId: 1 }))],
      ["comment", () => createComment(t.db, member, friendsPost, { body: "Ещё комментарий" })],
      ["comment edit", () => editComment(t.db, member, friendsPost, comment.id, "Исправил")],
      ["wall entry", () => createWallPost(t.db, member, friend.id, { body: "Привет!" })],
      ["message", () => sendMessage(t.db, member.id, "group", publicId, { body: "Спам" })],
      ["message edit", () => editMessage(t.db, member.id, message.id, "Исправил")],
    ];
    for (const [what, attempt] of attempts) {
      const error = await refusal(attempt);
      expect(error, what).toBeInstanceOf(MemberMuted);
      expect([error.status, error.code], what).toEqual([403, "member_muted"]);
      expect(error.message, what).toBe(
        `Модератор запретил вам публиковать до ${formatDateTime(until.toISOString())} (МСК): читать сайт и проводить сделки можно. Причина: Флуд`,
      );
    }
    await expect(assertMayPublish(t.db, member.id, new Date(until.getTime() + 1))).resolves.toBeUndefined();
  });

  it("is lifted by a moderator: the member publishes again", async () => {
    const member = await makeMember(t.db);
    const mute = await muteMember(t.db, moderator.id, member.id, { reason: "Оскорбления", endsAt: null });
    expect((await refusal(() => createWallPost(t.db, member, member.id, { body: "Тест" }))).code).toBe("member_muted");
    await liftSanction(t.db, moderator.id, mute.id);
    expect((await createWallPost(t.db, member, member.id, { body: "Снова пишу" })).body).toBe("Снова пишу");
  });
});

describe(`who may sanction whom on ${engine}`, () => {
  it("moderators sanction members; a moderator takes an admin; nobody sanctions an admin or themselves", async () => {
    const member = await makeMember(t.db);
    const otherModerator = await makeMember(t.db, "moderator");
    const otherAdmin = await makeMember(t.db, "admin");
    const input = { reason: "Нарушение правил", endsAt: inDays(1) };

    const byMember = await refusal(() => muteMember(t.db, member.id, otherModerator.id, input));
    expect([byMember.status, byMember.code, byMember.message]).toEqual([403, "not_moderator", "Это действие доступно только модераторам"]);
    const modOnMod = await refusal(() => suspendMember(t.db, moderator.id, otherModerator.id, input));
    expect([modOnMod.code, modOnMod.message]).toEqual(["cannot_sanction_staff", "Ограничить модератора может только администратор"]);
    expect((await refusal(() => suspendMember(t.db, admin.id, otherAdmin.id, input))).code).toBe("cannot_sanction_staff");
    expect((await refusal(() => muteMember(t.db, moderator.id, moderator.id, input))).code).toBe("sanction_self");

    const onModerator = await muteMember(t.db, admin.id, otherModerator.id, input);
    expect((await refusal(() => liftSanction(t.db, moderator.id, onModerator.id))).code).toBe("cannot_sanction_staff");
    expect((await refusal(() => liftSanction(t.db, member.id, onModerator.id))).code).toBe("not_moderator");
    expect((await liftSanction(t.db, admin.id, onModerator.id)).active).toBe(false);
  });

  it("explains bad input in Russian and changes nothing", async () => {
    const member = await makeMember(t.db);
    const before = await t.db.select().from(sanctions).where(eq(sanctions.userId, member.id));
    const cases: [() => Promise<unknown>, number, string, string][] = [
      [() => suspendMember(t.db, moderator.id, 2_000_000_000, { reason: "Спам", endsAt: inDays(1) }), 404, "member_not_found", "Участник не найден"],
      [
        () => suspendMember(t.db, moderator.id, member.id, { reason: "Спам", endsAt: new Date(Date.now() - 60_000) }),
        400,
        "invalid_period",
        "Срок должен заканчиваться в будущем",
      ],
      [
        () => muteMember(t.db, moderator.id, member.id, { reason: "я".repeat(10_000), endsAt: null }),
        400,
        "invalid_reason",
        "Причина — не длиннее 1000 символов",
      ],
      [() => muteMember(t.db, moderator.id, member.id, { reason: "   ", endsAt: null }), 400, "reason_required", "Укажите причину"],
      [() => muteMember(t.db, moderator.id, member.id, { reason: "Спам\u0000", endsAt: null }), 400, "invalid_text", "Текст содержит недопустимые символы"],
      [() => liftSanction(t.db, moderator.id, 2_000_000_000), 404, "sanction_not_found", "Ограничение не найдено"],
    ];
    for (const [run, status, code, message] of cases) {
      const error = await refusal(run);
      expect([error.status, error.code, error.message]).toEqual([status, code, message]);
    }
    const kind = await refusal(() => suspendMember(t.db, moderator.id, member.id, { reason: "Спам", endsAt: new Date("invalid") }));
    expect(kind.code).toBe("invalid_period");
    expect(await t.db.select().from(sanctions).where(eq(sanctions.userId, member.id))).toEqual(before);
    expect(await auditEntries(t.db, "sanction.suspend", member.id)).toEqual([]);
  });
});
