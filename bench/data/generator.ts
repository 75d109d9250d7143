/**
 * The bench data set generator (issue 12): a fresh PostgreSQL database, migrated with the
 * app's committed migrations (openDatabase), filled with members, posts, comments, likes,
 * views, bookmarks, follows, blocks, walls, conversations, messages and the known accounts'
 * notifications — each table by one or a few INSERT … SELECT over generate_series (model.ts
 * explains the shape) — then its indexes and foreign keys put back and checked (schema.ts),
 * VACUUM ANALYZE, and what benchmarks need recorded in bench_meta (meta.ts).
 *
 * It builds into `<database>__building` and only then replaces `<database>`, so a rerun
 * replaces the data set and a failed run (whose copy is dropped) leaves the previous one in place.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import postgres, { type Sql } from "postgres";
import { openDatabase } from "../../app/db/client.server";
import { MAIN_PAGE_BACKGROUND_KEY } from "../../app/domain/settings/settings.server";
import { usernameSkeleton } from "../../app/domain/users/username-skeleton.server";
import { hashPassword } from "../../app/lib/password.server";
import { DEMO_ACCOUNTS } from "../../app/db/seed/seed.server";
import { conversationMembersSql, conversationPlanSql, conversationsSql, messagesSql, PUBLIC_CONVERSATION_ID } from "./chat";
import {
  bookmarksSql,
  commentLikesSql,
  commentsSql,
  fiftyCandidate,
  kindOf,
  paretoScale,
  planSql,
  postLikesSql,
  postsSql,
  postViewsSql,
  sentencesArray,
} from "./content";
import { cookReadRows } from "./cook";
import { databaseUrl, writeBenchMeta, type BenchAccount, type BenchMeta, type SearchWord } from "./meta";
import { displayName, makeModel, memberJoined, username, type BenchSizes, type Model } from "./model";
import { notificationsSql } from "./notifications";
import { runSteps, rowsNote, type Step } from "./runner";
import { addForeignKeyStatement, dropKeys, readKeys, restoreTableStatements, validateForeignKeyStatement, type SchemaKeys } from "./schema";
import { blocksCleanupSql, blocksSql, followsSql, wallLikesSql, wallPinsSql, wallPostsSql } from "./social";
import { pick, rnd } from "./sql";
import { buildTemplates, type TemplateGroup } from "./templates";
import { BIOS, MEASURED_WORDS, SEARCH_SENTENCES } from "./texts";

/** The tables the generator fills (their keys come off during the load). */
export const FILLED_TABLES = [
  "users",
  "posts",
  "comments",
  "post_likes",
  "comment_likes",
  "post_views",
  "bookmarks",
  "follows",
  "blocks",
  "wall_posts",
  "wall_post_likes",
  "conversations",
  "conversation_members",
  "messages",
  "notifications",
] as const;

/** Tables with a serial id whose sequence must continue after the generated ids. */
const SERIAL_TABLES = ["users", "posts", "comments", "wall_posts", "conversations", "messages", "notifications"];

/** Posts written per statement (progress lines, and two run side by side). */
const POSTS_PER_STEP = 100_000;

export interface GenerateOptions {
  /** A PostgreSQL server URL (any database on it): where to create the data set. */
  serverUrl: string;
  /** The database to create (replaced if it exists). */
  database: string;
  sizes: BenchSizes;
  /** Connections working at once (default 2: one per core of the reference machine). */
  jobs?: number;
  log?: (line: string) => void;
  /** The generation's "now" (tests); the data ends a minute before it. */
  now?: Date;
  /** Where the meta JSON goes (default bench/.data). */
  metaDir?: string;
}

/** Generates the data set; returns its meta (also stored in bench_meta). Throws when a step fails. */
export async function generateBenchData(options: GenerateOptions): Promise<BenchMeta> {
  const log = options.log ?? ((line: string) => console.log(line));
  const jobs = Math.max(1, options.jobs ?? 2);
  const m = makeModel(options.sizes, options.now);
  const building = `${options.database}__building`;
  const buildingUrl = databaseUrl(options.serverUrl, building);
  const started = performance.now();
  const timings: Record<string, number> = {};
  const phases: string[] = [];
  const phase = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const begun = performance.now();
    const result = await run();
    timings[name] = (performance.now() - begun) / 1000;
    phases.push(name);
    return result;
  };

  log(`bench:data → ${options.database} on ${new URL(options.serverUrl).host}, ${jobs} connections`);
  log(`  ${Object.entries(m.sizes).map(([k, v]) => `${k} ${v.toLocaleString("ru-RU")}`).join(", ")}`);

  const admin = postgres(options.serverUrl, { max: 1, onnotice: () => {} });
  let pool: Sql | undefined;
  try {
    await phase("create and migrate", async () => {
      await admin.unsafe(`drop database if exists "${building}" with (force)`);
      await admin.unsafe(`create database "${building}"`);
      const handle = await openDatabase({ url: buildingUrl, maxConnections: 1, migrationsFolder: path.resolve(import.meta.dirname, "../../drizzle") });
      await handle.close();
    });
    pool = postgres(buildingUrl, {
      max: jobs,
      onnotice: () => {},
      connection: {
        work_mem: "256MB",
        maintenance_work_mem: "512MB",
        synchronous_commit: "off",
        max_parallel_workers_per_gather: "0",
        max_parallel_maintenance_workers: "0",
        jit: "off",
      },
    });
    const sql = pool;
    const keys = await phase("keys off", async () => {
      const read = await readKeys(sql, FILLED_TABLES);
      await dropKeys(sql, read);
      return read;
    });
    const groups = await phase("templates", () => loadTemplates(sql, m, log));
    const [fiftyRow] = await sql.unsafe<{ g: number }[]>(
      `select g from generate_series(${Math.max(1, fiftyCandidate(m) - 500)}, ${fiftyCandidate(m)}) g where ${kindOf("g")} = 'post' order by g desc limit 1`,
    );
    const fifty = fiftyRow?.g ?? fiftyCandidate(m);
    const passwords = {
      admin: await hashPassword(DEMO_ACCOUNTS.admin.password),
      moderator: await hashPassword(DEMO_ACCOUNTS.moderator.password),
      demo: await hashPassword(DEMO_ACCOUNTS.demo.password),
    };

    log("load:");
    const load = loadSteps(m, groups, fifty, passwords);
    Object.assign(timings, await runSteps(sql, load, jobs, log));
    const search = await phase("search words", () => measureWords(sql));
    log("keys, indexes and foreign keys back:");
    const restore = restoreSteps(keys, m);
    Object.assign(timings, await runSteps(sql, restore, jobs, log));
    await phase("sequences", async () => {
      for (const table of SERIAL_TABLES) {
        await sql.unsafe(`select setval(pg_get_serial_sequence('${table}', 'id'), coalesce(max(id), 1), max(id) is not null) from ${table}`);
      }
    });
    const facts = await phase("meta", () => collectFacts(sql, m, fifty));
    const cooked = await phase("cook what benchmarks read", () =>
      cookReadRows(
        sql,
        [facts.posts.fiftyComments, ...facts.posts.mostCommented.map(([id]) => id)],
        facts.members.busiest.map(([id]) => id),
      ),
    );
    log(`cooked: ${Object.entries(cooked).map(([table, n]) => `${table} ${n.toLocaleString("ru-RU")}`).join(", ")}`);
    await sql.unsafe(`drop table bench_plan, bench_templates, bench_template_vectors, bench_conv`);
    log("vacuum analyze…");
    await phase("vacuum analyze", () => sql.unsafe(`vacuum (analyze)`));
    const [size] = await sql.unsafe<{ bytes: string }[]>(`select pg_database_size(current_database()) as bytes`);
    const seconds = (performance.now() - started) / 1000;
    const meta: BenchMeta = {
      database: options.database,
      generatedAt: new Date().toISOString(),
      end: m.end,
      sizes: m.sizes,
      ...facts,
      search,
      timings: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v * 10) / 10])),
      seconds: Math.round(seconds * 10) / 10,
      sizeBytes: Number(size!.bytes),
    };
    const file = await writeBenchMeta(sql, meta, options.metaDir);
    await pool.end();
    pool = undefined;
    await admin.unsafe(`drop database if exists "${options.database}" with (force)`);
    await admin.unsafe(`alter database "${building}" rename to "${options.database}"`);
    logTables([...load, ...restore], timings, meta.rows, log);
    log(`and: ${phases.map((name) => `${name} ${timings[name]!.toFixed(1)} s`).join(", ")}`);
    log(`done in ${seconds.toFixed(1)} s: ${options.database} is ${(meta.sizeBytes / 2 ** 30).toFixed(2)} GiB; meta in bench_meta and ${file}`);
    return meta;
  } catch (error) {
    // The half-built copy only takes disk space; the previous data set stays as it was.
    await pool?.end();
    pool = undefined;
    await admin.unsafe(`drop database if exists "${building}" with (force)`).catch(() => {});
    throw error;
  } finally {
    await pool?.end();
    await admin.end();
  }
}

/** Prints, per table, its rows and the seconds spent writing it, putting its keys and indexes back and checking its foreign keys. */
function logTables(steps: Step[], timings: Record<string, number>, rows: Record<string, number>, log: (line: string) => void): void {
  const totals = new Map<string, { write: number; index: number; check: number }>();
  for (const step of steps) {
    const table = step.table ?? ((FILLED_TABLES as readonly string[]).includes(step.name) ? step.name : undefined);
    if (!table) continue;
    const entry = totals.get(table) ?? { write: 0, index: 0, check: 0 };
    entry[step.phase ?? "write"] += timings[step.name] ?? 0;
    totals.set(table, entry);
  }
  log(`${"table".padEnd(22)}${"rows".padStart(12)}${"write s".padStart(10)}${"index s".padStart(10)}${"check s".padStart(10)}`);
  for (const table of FILLED_TABLES) {
    const t = totals.get(table) ?? { write: 0, index: 0, check: 0 };
    log(`${table.padEnd(22)}${(rows[table] ?? 0).toLocaleString("ru-RU").padStart(12)}${t.write.toFixed(1).padStart(10)}${t.index.toFixed(1).padStart(10)}${t.check.toFixed(1).padStart(10)}`);
  }
}

/** Builds the post templates in JS and loads them into bench_templates; checks the search words are not in them. */
async function loadTemplates(sql: Sql, m: Model, log: (line: string) => void): Promise<TemplateGroup[]> {
  // About 37 posts per template at a million posts: titles and bodies repeat like a real marketplace's.
  const perGroup = Math.min(1500, Math.max(8, Math.ceil(m.sizes.posts / 18 / 37)));
  const articlesPerGroup = Math.min(100, Math.max(3, Math.ceil((m.sizes.posts * 0.05) / 18 / 25)));
  const { templates, groups } = buildTemplates({ posts: perGroup, articles: articlesPerGroup });
  const empty = groups.find((g) => g.count === 0);
  if (empty) throw new Error(`no templates for category ${empty.categoryId} (${empty.kind}, female ${empty.female})`);
  await sql`create unlogged table bench_templates (id int primary key, title text not null, body text not null, excerpt text not null)`;
  for (let i = 0; i < templates.length; i += 2000) {
    const batch = templates.slice(i, i + 2000);
    await sql`insert into bench_templates
      select * from unnest(${batch.map((_, j) => i + j)}::int[], ${batch.map((t) => t.title)}::text[], ${batch.map((t) => t.body)}::text[], ${batch.map((t) => t.excerpt)}::text[])`;
  }
  // Each template's search vector, computed once as the posts' generated column computes it:
  // the search words must not be in any, and measureWords counts word frequencies with them.
  await sql`create unlogged table bench_template_vectors as
    select id, setweight(to_tsvector('russian', title), 'A') || setweight(to_tsvector('russian', body), 'B') as vector from bench_templates`;
  for (const { word } of SEARCH_SENTENCES) {
    const [found] = await sql`select count(*)::int as n from bench_template_vectors where vector @@ plainto_tsquery('russian', ${word})`;
    if (found!.n > 0) throw new Error(`the search word «${word}» occurs in ${found!.n} templates: pick another`);
  }
  log(`  templates: ${templates.length.toLocaleString("ru-RU")} (${perGroup} posts and ${articlesPerGroup} articles per category and gender)`);
  return groups;
}

/** The steps that write the rows, in the order to start them when several are ready (longest first). */
function loadSteps(m: Model, groups: TemplateGroup[], fifty: number, passwords: { admin: string; moderator: string; demo: string }): Step[] {
  const { posts, comments, commentLikes } = m.sizes;
  const exec = (statement: string, params: postgres.ParameterOrJSON<never>[] = []) => async (sql: postgres.ReservedSql) => rowsNote((await sql.unsafe(statement, params)).count);
  const postSteps: Step[] = [];
  for (let from = 1; from <= posts; from += POSTS_PER_STEP) {
    const to = Math.min(posts, from + POSTS_PER_STEP - 1);
    postSteps.push({ name: `posts ${from}–${to}`, table: "posts", after: ["plan"], run: exec(postsSql(from, to)) });
  }
  const commentLikeScale = paretoScale(commentLikes / Math.max(1, comments), 1.3);
  return [
    { name: "plan", run: exec(planSql(m, groups, fifty)) },
    { name: "comments", after: ["plan"], run: exec(commentsSql(m, commentLikeScale)) },
    ...postSteps,
    { name: "comment_likes", after: ["comments"], run: exec(commentLikesSql(m)) },
    { name: "post_likes", after: ["plan"], run: exec(postLikesSql(m)) },
    { name: "post_views", after: ["plan"], run: exec(postViewsSql(m)) },
    { name: "conversation plan", run: exec(conversationPlanSql(m)) },
    { name: "messages", after: ["conversation plan"], run: exec(messagesSql(m)) },
    {
      name: "conversations",
      after: ["messages"],
      run: async (sql) => {
        let count = 0;
        for (const statement of conversationsSql(m)) count += (await sql.unsafe(statement)).count;
        return rowsNote(count);
      },
    },
    { name: "conversation_members", after: ["messages"], run: exec(conversationMembersSql(m)) },
    { name: "users", run: exec(usersSql(m), [passwords.admin, passwords.moderator, passwords.demo]) },
    { name: "username skeletons", after: ["users"], run: async (sql) => rowsNote(await fillUsernameSkeletons(sql)) },
    { name: "follows", run: exec(followsSql(m)) },
    {
      name: "blocks",
      after: ["follows"],
      run: async (sql) => {
        const written = (await sql.unsafe(blocksSql(m))).count;
        let removed = 0;
        for (const statement of blocksCleanupSql) removed += (await sql.unsafe(statement)).count;
        return `${rowsNote(written)}, ${removed} follows between them removed`;
      },
    },
    { name: "bookmarks", run: exec(bookmarksSql(m)) },
    {
      name: "wall_posts",
      run: async (sql) => {
        const written = (await sql.unsafe(wallPostsSql(m))).count;
        const pinned = (await sql.unsafe(wallPinsSql(m))).count;
        return `${rowsNote(written)}, ${pinned} pinned`;
      },
    },
    { name: "wall_post_likes", after: ["wall_posts"], run: exec(wallLikesSql(m)) },
    {
      name: "notifications",
      after: ["users", "plan", "comments", "comment_likes", "post_likes", "wall_post_likes", "blocks", "messages"],
      run: exec(notificationsSql(m)),
    },
    {
      name: "settings",
      run: async (sql) => {
        await sql`insert into settings (key, value) values (${MAIN_PAGE_BACKGROUND_KEY}, ${sql.json("/images/backgrounds/main.svg")}) on conflict do nothing`;
      },
    },
  ];
}

/** INSERT the members; $1, $2, $3 are the argon2 hashes of the admin's, the moderator's and demo's passwords. */
function usersSql(m: Model): string {
  const end = `timestamptz '${m.end}'`;
  const joined = memberJoined(m, "i");
  const { admin, moderator, demo, staff } = m.ids;
  return `
    insert into users (id, username, display_name, email, email_verified, password_hash, bio, role, verified,
                       telegram_id, telegram_username, last_seen_at, created_at)
    select i, ${username(m, "i")}, ${displayName(m, "i")},
           case i when ${admin} then '${DEMO_ACCOUNTS.admin.email}' when ${moderator} then '${DEMO_ACCOUNTS.moderator.email}'
                  when ${demo} then '${DEMO_ACCOUNTS.demo.email}' else 'member' || i || '@bench.shodka.local' end,
           i in (${admin}, ${moderator}, ${demo}) or ${rnd(1, "i")} < 0.95,
           case i when ${admin} then $1 when ${moderator} then $2 when ${demo} then $3 end,
           case when ${rnd(2, "i")} < 0.4 then ${pick(BIOS, rnd(3, "i"))} else '' end,
           case when i = ${admin} then 'admin' when i in (${staff.join(", ")}) then 'moderator' else 'member' end,
           i in (${staff.join(", ")}) or ${rnd(4, "i")} < 0.03,
           case when ${rnd(5, "i")} < 0.05 and i not in (${admin}, ${moderator}, ${demo}) then 7000000000 + i end,
           case when ${rnd(5, "i")} < 0.05 and i not in (${admin}, ${moderator}, ${demo}) then 'tg_' || i end,
           case when i = ${demo} then ${end} + interval '30 seconds'
                when ${rnd(6, "i")} < 0.003 then ${end} + make_interval(secs => 59 * ${rnd(7, "i")})
                when ${rnd(6, "i")} < 0.05 then null
                else ${joined} + (${end} - ${joined}) * (1 - power(${rnd(8, "i")}, 3)) end,
           ${joined}
    from generate_series(1, ${m.sizes.members}) i
    order by i`;
}

/**
 * Fills `users.username_skeleton` with the app's own function (it is not SQL), 10 000 members a
 * statement. Without it the first server start on the set filled them one UPDATE per member
 * (backfillUsernameSkeletons: 52 s for 100 000). Usernames end with the member's id, so no two
 * share a skeleton; a pair that did would keep it for the lower id only, as the backfill does.
 * Returns how many were filled.
 */
async function fillUsernameSkeletons(sql: Sql): Promise<number> {
  const rows = await sql<{ id: number; username: string }[]>`select id, username from users order by id`;
  const taken = new Set<string>();
  const filled = rows.flatMap(({ id, username }) => {
    const skeleton = usernameSkeleton(username);
    if (taken.has(skeleton)) return [];
    taken.add(skeleton);
    return [{ id, skeleton }];
  });
  for (let start = 0; start < filled.length; start += 10_000) {
    const batch = filled.slice(start, start + 10_000);
    await sql`
      update users set username_skeleton = v.skeleton
      from unnest(${batch.map((row) => row.id)}::int[], ${batch.map((row) => row.skeleton)}::text[]) as v(id, skeleton)
      where users.id = v.id`;
  }
  return filled.length;
}

/** The steps that put keys, indexes and foreign keys back (the largest tables first). */
function restoreSteps(keys: SchemaKeys, m: Model): Step[] {
  const rows: Record<string, number> = {
    comments: m.sizes.comments * 3,
    posts: m.sizes.posts * 12,
    post_views: m.sizes.postViews,
    post_likes: m.sizes.postLikes,
    comment_likes: m.sizes.commentLikes,
    follows: m.sizes.follows,
    messages: m.sizes.messages,
  };
  const tables = [...keys.tables].sort((a, b) => (rows[b.table] ?? 0) - (rows[a.table] ?? 0));
  const steps: Step[] = [];
  for (const table of tables) {
    const constraints = table.constraints.length;
    const statements = restoreTableStatements(table);
    steps.push({
      name: `keys ${table.table}`,
      table: table.table,
      phase: "index",
      run: async (sql) => {
        for (const statement of statements.slice(0, constraints)) await sql.unsafe(statement);
        return `${constraints} key${constraints === 1 ? "" : "s"}`;
      },
    });
    for (const [n, statement] of statements.slice(constraints).entries()) {
      steps.push({
        name: `index ${table.indexes[n]!.name}`,
        table: table.table,
        phase: "index",
        after: [`keys ${table.table}`],
        run: async (sql) => {
          // A GIN index builds in memory far faster with more of it.
          if (/ using gin /i.test(statement)) await sql.unsafe(`set maintenance_work_mem = '1GB'`);
          await sql.unsafe(statement);
          await sql.unsafe(`reset maintenance_work_mem`);
        },
      });
    }
  }
  const built = steps.map((s) => s.name);
  steps.push({
    name: "foreign keys (not valid)",
    after: built,
    run: async (sql) => {
      for (const fk of keys.foreignKeys) await sql.unsafe(addForeignKeyStatement(fk));
      return `${keys.foreignKeys.length} foreign keys`;
    },
  });
  const foreignKeys = [...keys.foreignKeys].sort((a, b) => (rows[b.table] ?? 0) - (rows[a.table] ?? 0));
  for (const fk of foreignKeys) {
    steps.push({
      name: `validate ${fk.name}`,
      table: fk.table,
      phase: "check",
      after: ["foreign keys (not valid)"],
      run: async (sql) => void (await sql.unsafe(validateForeignKeyStatement(fk))),
    });
  }
  return steps;
}

/**
 * Exact post counts of the injected and common words and of the prefix: a post matches when
 * its template's vector (bench_template_vectors) or its appended sentence does, so the counts
 * come from the plan and a few thousand template vectors, not from a million posts.
 */
async function measureWords(sql: Sql): Promise<BenchMeta["search"]> {
  const count = async (query: string, value: string): Promise<number> => {
    const [row] = await sql.unsafe<{ n: number }[]>(
      `select count(*)::int as n from bench_plan p
       where p.template_id in (select id from bench_template_vectors where vector @@ ${query})
          or p.sentence in (select x.j from unnest(${sentencesArray()}) with ordinality x(s, j) where to_tsvector('russian', x.s) @@ ${query})`,
      [value],
    );
    return row!.n;
  };
  const words = async (list: readonly string[]): Promise<SearchWord[]> => {
    const out: SearchWord[] = [];
    for (const word of list) out.push({ word, posts: await count(`plainto_tsquery('russian', $1)`, word) });
    return out;
  };
  const rare = await words(SEARCH_SENTENCES.map((s) => s.word));
  const common = (await words(MEASURED_WORDS)).sort((a, b) => b.posts - a.posts);
  const prefix = [{ prefix: "велосип", word: "велосипед", posts: await count(`to_tsquery('russian', $1 || ':*')`, "велосип") }];
  return { rare, common, prefix };
}

/** Accounts, notable posts, members and conversations, and the rows per table. */
async function collectFacts(sql: Sql, m: Model, fifty: number): Promise<Pick<BenchMeta, "rows" | "accounts" | "posts" | "members" | "conversations">> {
  const account = async (id: number, password: string): Promise<BenchAccount> => {
    const [row] = await sql<{ id: number; username: string; email: string; role: BenchAccount["role"] }[]>`select id, username, email, role from users where id = ${id}`;
    return { ...row!, password };
  };
  const rows: Record<string, number> = {};
  for (const table of FILLED_TABLES) {
    const [row] = await sql.unsafe<{ n: string }[]>(`select count(*) as n from ${table}`);
    rows[table] = Number(row!.n);
  }
  const [fiftyPost] = await sql<{ n: number }[]>`select comment_count as n from posts where id = ${fifty}`;
  if (fiftyPost?.n !== Math.min(50, m.sizes.comments)) throw new Error(`post ${fifty} has ${fiftyPost?.n} comments, not 50`);
  const pairs = (list: { id: number; n: number }[]) => list.map((r): [number, number] => [r.id, Number(r.n)]);
  const mostCommented = await sql<{ id: number; n: number }[]>`select id, comment_count as n from posts order by comment_count desc, id limit 5`;
  const mostLiked = await sql<{ id: number; n: number }[]>`select id, like_count as n from posts order by like_count desc, id limit 5`;
  const busiest = await sql<{ id: number; username: string; n: string }[]>`
    select u.id, u.username, b.n from (select author_id, count(*) as n from bench_plan group by author_id order by n desc, author_id limit 3) b
    join users u on u.id = b.author_id order by b.n desc, u.id`;
  const unread = await sql<{ id: number; kind: string }[]>`
    select c.id, c.kind from conversation_members cm join conversations c on c.id = cm.conversation_id
    where cm.user_id = ${m.ids.demo} and exists (
      select 1 from messages x where x.conversation_id = c.id and x.author_id <> ${m.ids.demo} and x.id > cm.last_read_message_id and x.deleted_at is null)
    order by c.id`;
  return {
    rows,
    accounts: {
      admin: await account(m.ids.admin, DEMO_ACCOUNTS.admin.password),
      moderator: await account(m.ids.moderator, DEMO_ACCOUNTS.moderator.password),
      demo: await account(m.ids.demo, DEMO_ACCOUNTS.demo.password),
    },
    posts: { fiftyComments: fifty, mostCommented: pairs(mostCommented), mostLiked: pairs(mostLiked), newest: m.sizes.posts },
    members: { busiest: busiest.map((b): [number, string, number] => [b.id, b.username, Number(b.n)]), ordinary: m.ids.demo },
    conversations: {
      publicId: PUBLIC_CONVERSATION_ID,
      demoPersonalUnread: unread.filter((c) => c.kind === "personal").map((c) => c.id),
      demoGroupsUnread: unread.filter((c) => c.kind === "group").map((c) => c.id),
    },
  };
}
