/**
 * npm run bench:data — the large data set every figure of issue 12 is measured on: a fresh
 * PostgreSQL database (migrated with the app's migrations) with 100 000 members, 1 000 000
 * posts, 5 000 000 comments and their likes, views, bookmarks, follows, walls, conversations
 * and messages, generated in SQL in a few minutes (bench/data/generator.ts).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:data
 *   BENCH_DATA_DB=shodka_bench     the database to create (replaced when it exists)
 *   BENCH_MEMBERS, BENCH_POSTS, BENCH_COMMENTS, BENCH_POST_LIKES, BENCH_COMMENT_LIKES,
 *   BENCH_POST_VIEWS, BENCH_WALL_POSTS, BENCH_WALL_LIKES, BENCH_FOLLOWS, BENCH_BOOKMARKS,
 *   BENCH_BLOCKS, BENCH_PERSONAL_CONVERSATIONS, BENCH_GROUPS, BENCH_MESSAGES   sizes
 *   BENCH_DATA_JOBS=2              connections working at once
 *
 * Sign in as demo@shodka.local / demo12345 (or the admin and moderator of the README). The
 * ids benchmarks use are printed and stored in the database's bench_meta table and in
 * bench/.data/<database>.json.
 */
import { generateBenchData } from "./data/generator";
import { sizesFromEnv } from "./data/model";

const serverUrl = process.env.BENCH_DATABASE_URL;
if (!serverUrl) {
  console.error("Set BENCH_DATABASE_URL to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres");
  process.exit(2);
}
const database = process.env.BENCH_DATA_DB ?? "shodka_bench";
if (!/^[a-z_][a-z0-9_]{0,50}$/.test(database)) {
  console.error(`BENCH_DATA_DB must be a plain lower-case name, not «${database}»`);
  process.exit(2);
}

const meta = await generateBenchData({
  serverUrl,
  database,
  sizes: sizesFromEnv(),
  jobs: Number(process.env.BENCH_DATA_JOBS ?? 2),
});
const { accounts, posts, members, conversations, search, rows } = meta;
console.log(
  "\nrows:",
  Object.entries(rows)
    .map(([table, n]) => `${table} ${n.toLocaleString("ru-RU")}`)
    .join(", "),
);
console.log(
  "sign in:",
  Object.values(accounts)
    .map((a) => `${a.username} (#${a.id}) ${a.email} / ${a.password}`)
    .join("; "),
);
console.log(`post with 50 comments: /post/${posts.fiftyComments}; most commented: ${posts.mostCommented.map(([id, n]) => `${id} (${n})`).join(", ")}`);
console.log(`busiest members: ${members.busiest.map(([id, name, n]) => `${name} #${id} (${n} posts)`).join(", ")}; ordinary: #${members.ordinary}`);
console.log(
  `demo's unread conversations: personal ${conversations.demoPersonalUnread.join(", ") || "none"}; groups ${conversations.demoGroupsUnread.join(", ") || "none"}`,
);
console.log(
  `search: rare ${search.rare.map((w) => `«${w.word}» ${w.posts}`).join(", ")}; common ${search.common.map((w) => `«${w.word}» ${w.posts}`).join(", ")}; prefix ${search.prefix.map((p) => `«${p.prefix}» ${p.posts}`).join(", ")}`,
);
