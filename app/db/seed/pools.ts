/**
 * Content pools for the seed generator, keyed by category id.
 * Each category lives in its own file under ./pools/.
 */
import { accounts } from "./pools/accounts.ts";
import { crypto } from "./pools/crypto.ts";
import { discussions } from "./pools/discussions.ts";
import { games } from "./pools/games.ts";
import type { CategoryPool } from "./pools/kit.ts";
import { mining } from "./pools/mining.ts";
import { news } from "./pools/news.ts";
import { offtopic } from "./pools/offtopic.ts";
import { services } from "./pools/services.ts";
import { trade } from "./pools/trade.ts";

export { adminPosts, type FixedPost } from "./pools/admin.ts";
export { makeKit, type ArticleTopic, type CategoryPool, type Draft, type Kit } from "./pools/kit.ts";

export const categoryPools: Record<number, CategoryPool> = {
  1: trade,
  2: games,
  3: accounts,
  4: crypto,
  5: services,
  6: news,
  7: discussions,
  8: offtopic,
  9: mining,
};
