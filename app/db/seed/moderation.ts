/**
 * The demo community's moderation (issue 10), so a newcomer sees the tools working on
 * `npm start`: open reports in the queue (one post already hidden by the hide threshold, a
 * chat message, a comment, a profile), a report the moderator dismissed, a muted and a
 * suspended member, two pinned posts, a post closed to comments, a comment deleted by a
 * moderator, a VERIFIED rank granted, the site rules — every action through the domain
 * functions, so the audit log holds their entries.
 */
import { and, desc, eq, inArray, isNull, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { comments, posts, users } from "~/db/schema";
import { getPublicConversationId } from "~/domain/conversations/conversations.server";
import { sendMessage } from "~/domain/conversations/messages.server";
import { deleteContent, setPostCommentsClosed, setPostPinned } from "~/domain/moderation/content.server";
import { resolveReports } from "~/domain/moderation/report-queue.server";
import { fileReport } from "~/domain/moderation/reports.server";
import { grantRank } from "~/domain/moderation/roles.server";
import { muteMember, suspendMember } from "~/domain/moderation/sanctions.server";
import { setSiteRules } from "~/domain/moderation/settings.server";
import { publicPostSql } from "~/domain/moderation/visibility.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The site rules shown on /faq (editable at /admin/settings). */
export const SEED_SITE_RULES = `## Правила сообщества

1. **Сделки — через гаранта.** Предоплата «на карту» без гаранта — на ваш страх и риск; модераторы не вернут деньги, ушедшие мимо гарант-сервиса.
2. **Без оскорблений и травли.** Спорьте с мнением, а не с человеком.
3. **Без спама.** Реклама — только в разделе «Услуги» и через рекламные места.
4. **Честные объявления.** Не выдавайте чужие аккаунты и товары за свои, указывайте реальное состояние.
5. **Один человек — один аккаунт.** Мультиаккаунты для накрутки или обхода блокировки блокируются.

## Жалобы и решения

Нашли нарушение — нажмите «Пожаловаться». Запись, на которую пожаловались трое участников, зарегистрированных больше недели назад, скрывается до решения модератора. За нарушения модераторы переводят в режим «только чтение» или блокируют — на срок или навсегда, с указанием причины.`;

/** Seeds the moderation of the demo community; `idByUsername` maps the seeded usernames to ids. */
export async function seedModeration(db: Db, idByUsername: Map<string, number>): Promise<void> {
  const id = (username: string) => {
    const found = idByUsername.get(username);
    if (found === undefined) throw new Error(`seed: no member ${username}`);
    return found;
  };
  const admin = id("admin");
  const moderator = id("dark_knight77");
  const now = Date.now();

  await setSiteRules(db, admin, SEED_SITE_RULES);
  await grantRank(db, admin, id("bitok_ded"), "VERIFIED", { reason: "Подтвердил личность и провёл 20+ сделок через гаранта" });

  // The two most liked posts lead the home feed; the most discussed one by a member is closed.
  const popular = await db.select({ id: posts.id }).from(posts).orderBy(desc(posts.likeCount), desc(posts.id)).limit(2);
  for (const [index, post] of popular.entries()) {
    await setPostPinned(db, moderator, post.id, true, {}, new Date(now - (popular.length - index) * 60_000));
  }
  const [heated] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(ne(posts.authorId, admin), isNull(posts.pinnedAt)))
    .orderBy(desc(posts.commentCount), desc(posts.id))
    .limit(1);
  if (heated) await setPostCommentsClosed(db, moderator, heated.id, true, { reason: "Обсуждение ушло в оскорбления — тема закрыта" });

  // A post of the member on the blacklist, reported by three long-standing members: hidden until a moderator decides.
  const [scam] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(eq(posts.authorId, id("Sanya_Trader")))
    .orderBy(desc(posts.createdAt))
    .limit(1);
  if (scam) {
    await fileReport(db, id("cryptoVasya"), { targetType: "post", targetId: scam.id, reason: "fraud", details: "Просит предоплату на карту в обход гаранта" });
    await fileReport(db, id("Olga_P2P"), {
      targetType: "post",
      targetId: scam.id,
      reason: "fraud",
      details: "Этот же аккаунт продавал мне, деньги взял — аккаунт не отдал",
    });
    await fileReport(db, id("bitok_ded"), { targetType: "post", targetId: scam.id, reason: "spam" });
  }

  // Spam in the public chat, reported twice, and its author muted for three days.
  const publicId = await getPublicConversationId(db);
  const spam = await sendMessage(db, id("Хомяк_Инвестор"), "group", publicId, { body: "ВСЕ СЮДА!!! Раздача USDT, x10 за сутки, пишите в личку 🚀🚀🚀" });
  await fileReport(db, id("hardware_guru"), { targetType: "message", targetId: spam.id, reason: "spam" });
  await fileReport(db, id("Kotofey"), { targetType: "message", targetId: spam.id, reason: "fraud", details: "Обещает x10 — классический развод" });
  await muteMember(db, moderator, id("Хомяк_Инвестор"), { reason: "Флуд и обещания «x10» в общем чате", endsAt: new Date(now + 3 * DAY_MS) });

  // A comment deleted by the moderator, and one still awaiting a decision.
  const memberComments = await db
    .select({ id: comments.id, authorId: comments.authorId })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorId))
    .innerJoin(posts, eq(posts.id, comments.postId))
    .where(
      and(
        isNull(comments.deletedAt),
        publicPostSql,
        ne(comments.authorId, id("demo")),
        inArray(users.username, ["Max_Boost", "lucky_fox", "rustam_kzn", "Serega_CS"]),
      ),
    )
    .orderBy(desc(comments.id))
    .limit(2);
  const [toDelete, toReport] = memberComments;
  if (toDelete) await deleteContent(db, moderator, { type: "comment", id: toDelete.id }, { reason: "Ссылка на сторонний магазин" });
  if (toReport) await fileReport(db, id("demo"), { targetType: "comment", targetId: toReport.id, reason: "abuse", details: "Грубит в ответ на вопрос" });

  // A profile reported for impersonation (not a sanctioned member's: a sanction settles their profile's reports),
  // and a report the moderator looked at and dismissed.
  await fileReport(db, id("steam_seller"), {
    targetType: "profile",
    targetId: id("Лёха_Сисадмин"),
    reason: "other",
    details: "Пишет в личку от имени администрации",
  });
  const [checked] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.authorId, id("steam_seller")), isNull(posts.pinnedAt), publicPostSql))
    .orderBy(desc(posts.createdAt))
    .limit(1);
  if (checked) {
    await fileReport(db, id("demo"), { targetType: "post", targetId: checked.id, reason: "spam" });
    await resolveReports(db, moderator, {
      targetType: "post",
      targetId: checked.id,
      outcome: "dismiss",
      reason: "Обычное объявление о продаже, правил не нарушает",
    });
  }

  // A member suspended for a week for mass advertising in private messages.
  await suspendMember(db, moderator, id("Veronika_Smm"), { reason: "Массовая рассылка рекламы в личные сообщения", endsAt: new Date(now + 7 * DAY_MS) });
}
