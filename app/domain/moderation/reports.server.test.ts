/**
 * Reports, the hide threshold and the moderation queue (docs/product/moderation.md#reports,
 * #hide-threshold): one open report per member per item in the database, hiding after 3
 * distinct members registered 7+ days, hidden items really hidden on every read path except for
 * moderators and the author, the queue grouped per item, every outcome, reporters notified.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { posts, reports, users } from "~/db/schema";
import { setBookmark, listBookmarks } from "~/domain/bookmarks/bookmarks.server";
import { listMemberComments, listPostComments } from "~/domain/comments/comments.server";
import { createComment } from "~/domain/comments/write.server";
import { createGroupConversation, getPublicConversationId } from "~/domain/conversations/conversations.server";
import { listMessages, sendMessage } from "~/domain/conversations/messages.server";
import { setLike } from "~/domain/likes/likes.server";
import { registerNotificationRules } from "~/domain/notifications/subscribers.server";
import { getPost, listPosts } from "~/domain/posts/posts.server";
import { searchPosts } from "~/domain/search/search.server";
import { buildSitemap } from "~/domain/search/sitemap.server";
import { getProfile, type UserRow } from "~/domain/users/users.server";
import { createWallPost, loadWall } from "~/domain/wall/wall.server";
import { eventBus } from "~/lib/events.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { eventsDuring, inboxOf } from "../../../tests/setup/domain";
import { auditEntries, makeMember, makeSeasonedMember, refusal } from "../../../tests/setup/moderation";
import { getReportGroup, listReportQueue, resolveReports } from "./report-queue.server";
import { fileReport, HIDE_THRESHOLD } from "./reports.server";
import { assertMaySignIn, getOwnSanctions } from "./sanctions.server";

let t: TestDatabase;
let moderator: UserRow;
let reporters: UserRow[];
let newcomer: UserRow;
const page = { page: 1, perPage: 50 };
let serial = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  registerNotificationRules(t.db);
  moderator = await makeMember(t.db, "moderator");
  reporters = [await makeSeasonedMember(t.db), await makeSeasonedMember(t.db), await makeSeasonedMember(t.db), await makeSeasonedMember(t.db)];
  newcomer = await makeMember(t.db);
});
afterAll(async () => {
  await t.destroy();
});

/** A post by `author` with a word nobody else uses, so search finds exactly it. */
async function postBy(author: UserRow): Promise<{ id: number; word: string }> {
  const word = `zqmarker${++serial}x`;
  const [row] = await t.db
    .insert(posts)
    .values({ authorId: author.id, title: `Продаю ${word} дёшево`, body: `Текст ${word}`, categoryId: 1 })
    .returning({ id: posts.id });
  return { id: row!.id, word };
}

/** Three seasoned members report (`type`, `id`): enough to hide it. */
async function hide(targetType: "post" | "comment" | "wall_post" | "message", targetId: number) {
  for (const reporter of reporters.slice(0, HIDE_THRESHOLD)) await fileReport(t.db, reporter.id, { targetType, targetId, reason: "spam" });
}

describe(`filing reports on ${engine}`, () => {
  it("keeps one open report per member per item, in the database too", async () => {
    const author = await makeMember(t.db);
    const post = await postBy(author);
    const filed = await fileReport(t.db, reporters[0]!.id, { targetType: "post", targetId: post.id, reason: "fraud", details: "Просит предоплату на карту" });
    expect(filed).toMatchObject({ targetType: "post", targetId: post.id, reason: "fraud" });
    const again = await refusal(() => fileReport(t.db, reporters[0]!.id, { targetType: "post", targetId: post.id, reason: "spam" }));
    expect([again.status, again.code, again.message]).toEqual([409, "already_reported", "Вы уже пожаловались на это — модераторы рассмотрят жалобу"]);
    const duplicate = await t.db
      .insert(reports)
      .values({ reporterId: reporters[0]!.id, targetType: "post", targetId: post.id, targetUserId: author.id, reason: "spam" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(duplicate).not.toBeNull();
    expect(
      await t.db
        .select()
        .from(reports)
        .where(and(eq(reports.targetType, "post"), eq(reports.targetId, post.id))),
    ).toHaveLength(1);
  });

  it("explains bad reports in Russian and stores nothing", async () => {
    const author = await makeMember(t.db);
    const reporter = reporters[1]!;
    const post = await postBy(author);
    const group = await createGroupConversation(t.db, author.id, { name: "Закрытая группа" });
    const secret = await sendMessage(t.db, author.id, "group", group.id, { body: "Только для своих" });
    const cases: [Parameters<typeof fileReport>[2], number, string, string][] = [
      [{ targetType: "forum" as never, targetId: post.id, reason: "spam" }, 400, "invalid_target", "На это нельзя пожаловаться"],
      [{ targetType: "post", targetId: post.id, reason: "boring" as never }, 400, "invalid_report_reason", "Выберите причину жалобы"],
      [{ targetType: "post", targetId: post.id, reason: "other" }, 400, "details_required", "Опишите, что не так"],
      [{ targetType: "post", targetId: post.id, reason: "other", details: "я".repeat(10_000) }, 400, "invalid_details", "Пояснение — не длиннее 1000 символов"],
      [{ targetType: "post", targetId: 2_000_000_000, reason: "spam" }, 404, "post_not_found", "Пост не найден"],
      [{ targetType: "profile", targetId: 2_000_000_000, reason: "spam" }, 404, "member_not_found", "Участник не найден"],
      [{ targetType: "profile", targetId: reporter.id, reason: "spam" }, 400, "own_item", "Нельзя пожаловаться на самого себя"],
      [{ targetType: "message", targetId: secret.id, reason: "abuse" }, 404, "message_not_found", "Сообщение не найдено"],
    ];
    for (const [input, status, code, message] of cases) {
      const error = await refusal(() => fileReport(t.db, reporter.id, input));
      expect([error.status, error.code, error.message], code).toEqual([status, code, message]);
    }
    await t.db.update(posts).set({ deletedAt: new Date(), deletedById: moderator.id }).where(eq(posts.id, post.id));
    expect((await refusal(() => fileReport(t.db, reporter.id, { targetType: "post", targetId: post.id, reason: "spam" }))).code).toBe("already_deleted");
    expect(await t.db.select().from(reports).where(eq(reports.targetUserId, author.id))).toEqual([]);
  });
});

describe(`the hide threshold on ${engine}`, () => {
  it("hides an item after 3 distinct members registered 7+ days report it; newcomers do not count; staff are never hidden", async () => {
    const author = await makeMember(t.db);
    const post = await postBy(author);
    await fileReport(t.db, newcomer.id, { targetType: "post", targetId: post.id, reason: "spam" });
    await fileReport(t.db, reporters[0]!.id, { targetType: "post", targetId: post.id, reason: "spam" });
    await fileReport(t.db, reporters[1]!.id, { targetType: "post", targetId: post.id, reason: "fraud", details: "Кидает" });
    expect((await getPost(t.db, post.id)).hidden).toBe(false);
    await fileReport(t.db, reporters[2]!.id, { targetType: "post", targetId: post.id, reason: "spam" });
    expect((await getPost(t.db, post.id, author)).hidden).toBe(true);
    const [hidden] = await auditEntries(t.db, "content.hide", author.id);
    expect(hidden).toMatchObject({ actorId: null, targetType: "post", targetId: post.id });

    const staffPost = await postBy(moderator);
    await hide("post", staffPost.id);
    expect((await getPost(t.db, staffPost.id)).hidden).toBe(false);
  });

  it("hides a post from feeds, its page, search, the sitemap, profile lists, bookmarks and likes — except for its author and moderators", async () => {
    const author = await makeMember(t.db);
    const reader = await makeMember(t.db);
    const post = await postBy(author);
    await setBookmark(t.db, reader, post.id, true);
    const visibleCount = (await getProfile(t.db, author.id)).postCount;
    await hide("post", post.id);

    const ids = (list: { items: { id: number }[] }) => list.items.map((p) => p.id);
    expect(ids(await listPosts(t.db, {}, page))).not.toContain(post.id);
    expect(ids(await listPosts(t.db, { authorId: author.id, reader }, page))).not.toContain(post.id);
    expect(ids(await listPosts(t.db, { authorId: author.id, reader: author }, page))).toContain(post.id);
    expect(ids(await listPosts(t.db, { authorId: author.id, reader: moderator }, page))).toContain(post.id);

    expect((await refusal(() => getPost(t.db, post.id))).code).toBe("post_not_found");
    expect((await refusal(() => getPost(t.db, post.id, reader))).code).toBe("post_not_found");
    expect((await getPost(t.db, post.id, author)).hidden).toBe(true);
    expect((await getPost(t.db, post.id, moderator)).id).toBe(post.id);

    expect((await searchPosts(t.db, { q: post.word }, page)).total).toBe(0);
    const sitemap = await buildSitemap(t.db, "https://example.test");
    expect(sitemap.kind === "urlset" ? sitemap.xml : "").not.toContain(`/post/${post.id}<`);
    expect((await getProfile(t.db, author.id)).postCount).toBe(visibleCount - 1);
    expect(ids({ items: (await listBookmarks(t.db, reader.id, page)).items.map((b) => b.post) })).not.toContain(post.id);
    expect((await refusal(() => setLike(t.db, reader, "post", post.id, true))).code).toBe("post_not_found");
    expect((await refusal(() => createComment(t.db, reader, post.id, { body: "Что это?" }))).code).toBe("post_not_found");
  });

  it("withholds a hidden comment's, wall entry's and message's text from everyone but its author and moderators", async () => {
    const author = await makeMember(t.db);
    const reader = await makeMember(t.db);
    const host = await postBy(reader);
    const comment = await createComment(t.db, author, host.id, { body: "Пишите в телегу @scam" });
    const entry = await createWallPost(t.db, author, reader.id, { body: "Купи у меня!" });
    const publicId = await getPublicConversationId(t.db);
    const message = await sendMessage(t.db, author.id, "group", publicId, { body: "Раздача USDT по ссылке" });
    await hide("comment", comment.id);
    await hide("wall_post", entry.id);
    const frames = await eventsDuring(t.db, "message.updated", () => hide("message", message.id));

    const commentFor = async (viewer: UserRow | null) => (await listPostComments(t.db, viewer, host.id)).find((c) => c.id === comment.id)!;
    expect(await commentFor(reader)).toMatchObject({ hidden: true, body: null, html: null });
    expect(await commentFor(null)).toMatchObject({ hidden: true, body: null });
    expect(await commentFor(author)).toMatchObject({ hidden: true, body: "Пишите в телегу @scam" });
    expect((await commentFor(moderator)).body).toBe("Пишите в телегу @scam");
    expect((await listMemberComments(t.db, author.id, page)).items.map((c) => c.id)).not.toContain(comment.id);

    const wallFor = async (viewer: UserRow | null) => (await loadWall(t.db, viewer, reader.id, page)).entries.items.find((e) => e.id === entry.id)!;
    expect(await wallFor(reader)).toMatchObject({ hidden: true, body: "", html: "" });
    expect((await wallFor(author)).body).toBe("Купи у меня!");
    expect((await wallFor(moderator)).body).toBe("Купи у меня!");

    const messageFor = async (viewer: UserRow) => (await listMessages(t.db, viewer.id, "group", publicId)).messages.find((m) => m.id === message.id)!;
    expect(await messageFor(reader)).toMatchObject({ hidden: true, body: "" });
    expect((await messageFor(author)).body).toBe("Раздача USDT по ссылке");
    expect((await messageFor(moderator)).body).toBe("Раздача USDT по ссылке");
    // Open chats are told at once, with the text withheld.
    expect(frames.at(-1)?.message).toMatchObject({ id: message.id, hidden: true, body: "" });
  });
});

describe(`the moderation queue on ${engine}`, () => {
  it("groups open reports per item with the count of reporters, most reported first, for moderators only", async () => {
    const author = await makeMember(t.db);
    const spammy = await postBy(author);
    const rude = await makeMember(t.db);
    // Once three have reported it the post is hidden, and nobody else can see (or report) it.
    await fileReport(t.db, newcomer.id, { targetType: "post", targetId: spammy.id, reason: "other", details: "Реклама казино" });
    for (const reporter of reporters.slice(0, 3)) await fileReport(t.db, reporter.id, { targetType: "post", targetId: spammy.id, reason: "spam" });
    expect((await refusal(() => fileReport(t.db, reporters[3]!.id, { targetType: "post", targetId: spammy.id, reason: "spam" }))).code).toBe("post_not_found");
    await fileReport(t.db, reporters[0]!.id, { targetType: "profile", targetId: rude.id, reason: "abuse", details: "Оскорбляет в личке" });

    const queue = await listReportQueue(t.db, moderator.id, page);
    const group = queue.items.find((g) => g.targetType === "post" && g.targetId === spammy.id)!;
    expect(group).toMatchObject({
      targetLabel: "Пост",
      url: `/post/${spammy.id}`,
      targetUser: { id: author.id },
      state: "hidden",
      reporterCount: 4,
      reasons: [
        { reason: "spam", label: "Спам", count: 3 },
        { reason: "other", label: "Другое", count: 1 },
      ],
    });
    expect(group.excerpt).toContain(spammy.word);
    expect(group.reports.map((r) => r.reporter.id)).toEqual([newcomer, ...reporters.slice(0, 3)].map((r) => r.id));
    const profile = queue.items.find((g) => g.targetType === "profile" && g.targetId === rude.id)!;
    expect(profile).toMatchObject({ reporterCount: 1, url: `/profile/${rude.id}`, state: "visible" });
    expect(queue.items.indexOf(group)).toBeLessThan(queue.items.indexOf(profile));
    expect(queue.total).toBe(queue.items.length);

    expect((await getReportGroup(t.db, moderator.id, "post", spammy.id)).reporterCount).toBe(4);
    expect((await refusal(() => listReportQueue(t.db, reporters[0]!.id, page))).code).toBe("not_moderator");
    expect((await refusal(() => getReportGroup(t.db, moderator.id, "post", 2_000_000_000))).code).toBe("report_not_found");
  });

  it("dismisses: the item is shown again, the reports close, every reporter hears it", async () => {
    const author = await makeMember(t.db);
    const post = await postBy(author);
    await hide("post", post.id);
    const result = await resolveReports(t.db, moderator.id, { targetType: "post", targetId: post.id, outcome: "dismiss", reason: "Обычное объявление" });
    await eventBus(t.db).drain();
    expect(result).toMatchObject({ outcome: "dismiss", resolvedReports: 3, itemState: "visible", sanctionId: null });
    expect((await getPost(t.db, post.id)).hidden).toBe(false);
    const closed = await t.db
      .select()
      .from(reports)
      .where(and(eq(reports.targetType, "post"), eq(reports.targetId, post.id)));
    expect(closed.map((r) => [r.status, r.outcome, r.resolvedById])).toEqual(closed.map(() => ["dismissed", "dismiss", moderator.id]));
    for (const reporter of reporters.slice(0, 3)) {
      const handled = (await inboxOf(t.db, reporter)).find((n) => n.type === "REPORT_HANDLED" && n.postId === post.id);
      expect(handled).toMatchObject({ title: `${moderator.username} рассмотрел(а) вашу жалобу`, url: `/post/${post.id}`, read: false });
    }
    const [entry] = await auditEntries(t.db, "report.resolve", author.id);
    expect(entry).toMatchObject({ actorId: moderator.id, targetType: "post", targetId: post.id, details: { outcome: "dismiss", reporters: 3 } });
    const again = await refusal(() => resolveReports(t.db, moderator.id, { targetType: "post", targetId: post.id, outcome: "delete" }));
    expect([again.status, again.code]).toEqual([409, "reports_already_resolved"]);
  });

  it("deletes the item («Удалено модератором») or sanctions its author, each audited", async () => {
    const author = await makeMember(t.db);
    const host = await postBy(reporters[0]!);
    const comment = await createComment(t.db, author, host.id, { body: "Развод, не ведитесь" });
    await fileReport(t.db, reporters[1]!.id, { targetType: "comment", targetId: comment.id, reason: "abuse" });
    expect(await resolveReports(t.db, moderator.id, { targetType: "comment", targetId: comment.id, outcome: "delete" })).toMatchObject({
      itemState: "deleted",
    });
    const shown = (await listPostComments(t.db, reporters[1]!, host.id)).find((c) => c.id === comment.id)!;
    expect(shown).toMatchObject({ deleted: true, moderated: true, body: null });
    expect(await auditEntries(t.db, "content.delete", author.id)).toHaveLength(1);

    const spammer = await makeMember(t.db);
    const spam = await postBy(spammer);
    await fileReport(t.db, reporters[2]!.id, { targetType: "post", targetId: spam.id, reason: "spam" });
    const suspended = await resolveReports(t.db, moderator.id, {
      targetType: "post",
      targetId: spam.id,
      outcome: "suspend",
      reason: "Спам-рассылка",
      endsAt: new Date(Date.now() + 7 * 86_400_000),
    });
    expect(suspended).toMatchObject({ itemState: "deleted" });
    await expect(assertMaySignIn(t.db, spammer.id)).rejects.toMatchObject({ code: "account_suspended", reason: "Спам-рассылка" });
    expect((await refusal(() => getPost(t.db, spam.id, reporters[2]!))).message).toBe("Пост удалён модератором");
    await eventBus(t.db).drain();
    expect((await inboxOf(t.db, spammer)).map((n) => n.type)).toContain("SANCTION_APPLIED");

    const loud = await makeMember(t.db);
    const loudPost = await postBy(loud);
    await hide("post", loudPost.id);
    const muted = await resolveReports(t.db, moderator.id, {
      targetType: "post",
      targetId: loudPost.id,
      outcome: "mute",
      reason: "Капс и флуд",
      endsAt: null,
      deleteItem: false,
    });
    expect(muted).toMatchObject({ itemState: "visible" });
    expect((await getPost(t.db, loudPost.id)).hidden).toBe(false);
    expect((await getOwnSanctions(t.db, loud.id)).mute).toMatchObject({ reason: "Капс и флуд", endsAt: null });
  });

  it("explains a bad decision in Russian and changes nothing", async () => {
    const author = await makeMember(t.db);
    const post = await postBy(author);
    await fileReport(t.db, reporters[3]!.id, { targetType: "post", targetId: post.id, reason: "spam" });
    await fileReport(t.db, reporters[3]!.id, { targetType: "profile", targetId: author.id, reason: "spam" });
    const cases: [Parameters<typeof resolveReports>[2], number, string][] = [
      [{ targetType: "post", targetId: post.id, outcome: "burn" as never }, 400, "invalid_outcome"],
      [{ targetType: "profile", targetId: author.id, outcome: "delete" }, 400, "invalid_outcome"],
      [{ targetType: "post", targetId: post.id, outcome: "suspend", reason: "" }, 400, "reason_required"],
      [{ targetType: "post", targetId: post.id, outcome: "mute", reason: "я".repeat(10_000) }, 400, "invalid_reason"],
      [{ targetType: "post", targetId: post.id, outcome: "suspend", reason: "Спам", endsAt: new Date(Date.now() - 1000) }, 400, "invalid_period"],
      [{ targetType: "post", targetId: 2_000_000_000, outcome: "dismiss" }, 404, "report_not_found"],
    ];
    for (const [input, status, code] of cases) {
      const error = await refusal(() => resolveReports(t.db, moderator.id, input));
      expect([error.status, error.code], code).toEqual([status, code]);
    }
    expect((await refusal(() => resolveReports(t.db, author.id, { targetType: "post", targetId: post.id, outcome: "dismiss" }))).code).toBe("not_moderator");
    const open = await t.db
      .select()
      .from(reports)
      .where(and(eq(reports.targetUserId, author.id), eq(reports.status, "open")));
    expect(open).toHaveLength(2);
    const [row] = await t.db.select({ deletedAt: posts.deletedAt }).from(posts).where(eq(posts.id, post.id));
    expect(row!.deletedAt).toBeNull();
    expect((await t.db.select().from(users).where(eq(users.id, author.id)))[0]!.role).toBe("member");
  });
});
