/**
 * What the leaderboard can rank members by (docs/product/content.md#leaderboard: reputation, posts,
 * completed deals and deposit). Each metric is one definition: its tab label, the heading
 * of its figure column, how a figure reads, and the SQL that scores members.
 *
 * To add one (the money issue's deals and deposit): append a LeaderboardMetric to
 * LEADERBOARD_METRICS. Its `scores(since)` selects `user_id`, `score` (a non-negative
 * integer; members scoring 0 are not ranked) and `reached_at` (when the member reached that
 * score, the tie-break: who got there first ranks higher). A metric that is a current state
 * rather than a sum of events (a deposit) sets `usesPeriod: false` and ignores `since`.
 */
import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { commentLikes, deals, ledgerAccounts, ledgerTransfers, postLikes, posts, wallPostLikes } from "~/db/schema";
import { formatKopecks } from "~/domain/ledger/money";
import { formatCount, plural } from "~/lib/format";

export interface LeaderboardMetric {
  /** The `by` query value: `[a-z]+`. */
  id: string;
  /** Russian tab label. */
  label: string;
  /** Russian heading of the figure column. */
  heading: string;
  /** One Russian sentence under the page title saying what is counted. */
  description: string;
  /** Whether `since` narrows it (week, month); false for a state such as a deposit. */
  usesPeriod: boolean;
  /** A select of (user_id, score, reached_at) over events at or after `since` (null: all time). */
  scores(since: Date | null): SQL;
  /** The figure as a reader sees it, e.g. «12 лайков». */
  format(score: number): string;
}

const sinceClause = (column: AnyColumn, since: Date | null) => (since ? sql`where ${column} >= ${since.toISOString()}::timestamptz` : sql``);

/** Likes received on posts, comments and wall posts: each like table is one indexed range. */
const reputation: LeaderboardMetric = {
  id: "reputation",
  label: "Репутация",
  heading: "Лайки",
  description: "Репутация — это лайки, полученные за посты, комментарии и записи на стене.",
  usesPeriod: true,
  scores: (since) => sql`
    select likes.receiver_id as user_id, count(*) as score, max(likes.created_at) as reached_at
    from (
      select ${postLikes.receiverId} as receiver_id, ${postLikes.createdAt} as created_at from ${postLikes} ${sinceClause(postLikes.createdAt, since)}
      union all
      select ${commentLikes.receiverId}, ${commentLikes.createdAt} from ${commentLikes} ${sinceClause(commentLikes.createdAt, since)}
      union all
      select ${wallPostLikes.receiverId}, ${wallPostLikes.createdAt} from ${wallPostLikes} ${sinceClause(wallPostLikes.createdAt, since)}
    ) as likes
    group by likes.receiver_id`,
  format: (score) => `${formatCount(score)} ${plural(score, ["лайк", "лайка", "лайков"])}`,
};

/** Posts and articles published. */
const postsPublished: LeaderboardMetric = {
  id: "posts",
  label: "Публикации",
  heading: "Публикации",
  description: "Посты и статьи, опубликованные участником.",
  usesPeriod: true,
  scores: (since) => sql`
    select ${posts.authorId} as user_id, count(*) as score, max(${posts.createdAt}) as reached_at
    from ${posts} ${sinceClause(posts.createdAt, since)}
    group by ${posts.authorId}`,
  format: (score) => `${formatCount(score)} ${plural(score, ["публикация", "публикации", "публикаций"])}`,
};

/** Guarantor deals completed (the seller paid), counted for both parties, by the time they closed. */
const dealsCompleted: LeaderboardMetric = {
  id: "deals",
  label: "Сделки",
  heading: "Сделки",
  description: "Сделки через гаранта, завершённые оплатой продавцу; каждая считается обеим сторонам.",
  usesPeriod: true,
  scores: (since) => sql`
    select parties.user_id, count(*) as score, max(parties.closed_at) as reached_at
    from (
      select ${deals.buyerId} as user_id, ${deals.closedAt} as closed_at from ${deals}
      where ${deals.state} = 'completed' ${since ? sql`and ${deals.closedAt} >= ${since.toISOString()}::timestamptz` : sql``}
      union all
      select ${deals.sellerId}, ${deals.closedAt} from ${deals}
      where ${deals.state} = 'completed' ${since ? sql`and ${deals.closedAt} >= ${since.toISOString()}::timestamptz` : sql``}
    ) as parties
    group by parties.user_id`,
  format: (score) => `${formatCount(score)} ${plural(score, ["сделка", "сделки", "сделок"])}`,
};

/** The public deposit as it stands now (kopecks); ties go to whoever's deposit last changed earlier. */
const deposit: LeaderboardMetric = {
  id: "deposit",
  label: "Депозит",
  heading: "Депозит",
  description: "Публичный страховой депозит участника сейчас: из него возмещают обоснованные претензии.",
  usesPeriod: false,
  scores: () => sql`
    select ${ledgerAccounts.userId} as user_id, ${ledgerAccounts.balance} as score,
      greatest(
        (select max(${ledgerTransfers.createdAt}) from ${ledgerTransfers} where ${ledgerTransfers.creditAccountId} = ${ledgerAccounts.id}),
        (select max(${ledgerTransfers.createdAt}) from ${ledgerTransfers} where ${ledgerTransfers.debitAccountId} = ${ledgerAccounts.id})
      ) as reached_at
    from ${ledgerAccounts}
    where ${ledgerAccounts.kind} = 'member_deposit' and ${ledgerAccounts.balance} > 0`,
  format: (score) => formatKopecks(score),
};

/** In tab order; the first is the default. */
export const LEADERBOARD_METRICS: readonly LeaderboardMetric[] = [reputation, postsPublished, dealsCompleted, deposit];
