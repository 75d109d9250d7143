/**
 * Every achievement of docs/product/content.md#achievements, in the order /profile/achievements shows them.
 *
 * To add one (e.g. the money issue's «Первая сделка»): append a definition to ACHIEVEMENTS
 * — with a counter for its fact if none below fits, and triggers naming the event that can
 * make it hold (e.g. `on("deal.completed", (e) => [e.buyerId, e.sellerId])`). The engine
 * picks up the counter, the rule and the subscription by itself; nothing else changes.
 * Ids are stored in user_achievements, so a granted id is never renamed.
 *
 * When rules are checked: a member is evaluated after each event that concerns them (the
 * triggers), and every one of their rules is checked then — including the two that no event
 * of ours signals, «Год с нами» (a year since sign-up) and «Проверенный» (the VERIFIED
 * flag set by an admin). Those two are therefore granted on the member's next action after
 * they start to hold (any of MEMBER_ACTS), or when the member opens /profile/achievements,
 * whose loader evaluates them too.
 */
import { sql } from "drizzle-orm";
import { commentLikes, deals, ledgerAccounts, postLikes, posts, users, wallPostLikes } from "~/db/schema";
import { atLeast, countOf, flagOf, isTrue, on, type AchievementDefinition, type Trigger } from "./rules.server";

/** Posts and articles the member has published. */
const postCount = countOf("posts", sql`(select count(*)::int from ${posts} where ${posts.authorId} = ${users.id})`);

/** Likes received on the member's posts, comments and wall posts (docs/product/content.md#reputation). */
const likesReceived = countOf(
  "likes_received",
  sql`((select count(*)::int from ${postLikes} where ${postLikes.receiverId} = ${users.id})
    + (select count(*)::int from ${commentLikes} where ${commentLikes.receiverId} = ${users.id})
    + (select count(*)::int from ${wallPostLikes} where ${wallPostLikes.receiverId} = ${users.id}))`,
);

/** Signed up at least a year ago. */
const yearOnSite = flagOf("year_on_site", sql`(${users.createdAt} <= now() - interval '1 year')`);

/** Carries the VERIFIED rank. */
const verified = flagOf("verified", sql`${users.verified}`);

/** Guarantor deals completed with the member as buyer or seller (docs/product/deals.md). */
const dealsCompleted = countOf(
  "deals_completed",
  sql`(select count(*)::int from ${deals} where ${deals.state} = 'completed' and ${users.id} in (${deals.buyerId}, ${deals.sellerId}))`,
);

/** The member's deposit now in whole roubles (progress reads «3 500 / 10 000»), at most 2^31 − 1. */
const depositRoubles = countOf(
  "deposit_roubles",
  sql`(select least(coalesce(max(${ledgerAccounts.balance}), 0) / 100, 2147483647)::int from ${ledgerAccounts}
    where ${ledgerAccounts.kind} = 'member_deposit' and ${ledgerAccounts.userId} = ${users.id})`,
);

const DEAL_COMPLETED: readonly Trigger[] = [on("deal.completed", (e) => [e.buyerId, e.sellerId])];
const DEPOSIT_CHANGED: readonly Trigger[] = [on("deposit.changed", (e) => [e.userId])];

/** The events in which a member acts: the moments to check rules that no event signals. */
const MEMBER_ACTS: readonly Trigger[] = [
  on("post.created", (e) => [e.authorId]),
  on("comment.created", (e) => [e.authorId]),
  on("wall_post.created", (e) => [e.authorId]),
  on("like.created", (e) => [e.likerId]),
  on("follow.created", (e) => [e.followerId]),
];

const POST_PUBLISHED: readonly Trigger[] = [on("post.created", (e) => [e.authorId])];
const LIKE_RECEIVED: readonly Trigger[] = [on("like.created", (e) => [e.receiverId])];

export const ACHIEVEMENTS: readonly AchievementDefinition[] = [
  {
    id: "first_post",
    title: "Первый пост",
    description: "Опубликовать первый пост",
    icon: "pen-line",
    rule: atLeast(postCount, 1),
    triggers: POST_PUBLISHED,
  },
  {
    id: "posts_10",
    title: "Автор",
    description: "Опубликовать 10 постов",
    icon: "files",
    rule: atLeast(postCount, 10),
    triggers: POST_PUBLISHED,
  },
  {
    id: "posts_100",
    title: "Летописец",
    description: "Опубликовать 100 постов",
    icon: "library-big",
    rule: atLeast(postCount, 100),
    triggers: POST_PUBLISHED,
  },
  {
    id: "likes_100",
    title: "Признание",
    description: "Получить 100 лайков на постах, комментариях и записях на стене",
    icon: "heart",
    rule: atLeast(likesReceived, 100),
    triggers: LIKE_RECEIVED,
  },
  {
    id: "likes_1000",
    title: "Любимец публики",
    description: "Получить 1000 лайков на постах, комментариях и записях на стене",
    icon: "flame",
    rule: atLeast(likesReceived, 1000),
    triggers: LIKE_RECEIVED,
  },
  {
    id: "year_on_site",
    title: "Год с нами",
    description: "Провести на сайте год",
    icon: "cake",
    rule: isTrue(yearOnSite),
    triggers: MEMBER_ACTS,
  },
  {
    id: "verified",
    title: "Проверенный",
    description: "Получить отметку «Проверен» от администрации",
    icon: "badge-check",
    rule: isTrue(verified),
    triggers: MEMBER_ACTS,
  },
  {
    id: "first_deal",
    title: "Первая сделка",
    description: "Завершить первую сделку через гаранта",
    icon: "handshake",
    rule: atLeast(dealsCompleted, 1),
    triggers: DEAL_COMPLETED,
  },
  {
    id: "deals_10",
    title: "Надёжный партнёр",
    description: "Завершить 10 сделок через гаранта",
    icon: "briefcase-business",
    rule: atLeast(dealsCompleted, 10),
    triggers: DEAL_COMPLETED,
  },
  {
    id: "deposit_10000",
    title: "Солидный депозит",
    description: "Держать на депозите 10 000 ₽ или больше",
    icon: "vault",
    rule: atLeast(depositRoubles, 10_000),
    triggers: DEPOSIT_CHANGED,
  },
];
