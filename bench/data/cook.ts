/**
 * Cooks the Markdown of the rows the benchmarks read (decision 0027). The data set is written in
 * SQL, past the app's write path, so its rows start without stored HTML; on a real site every
 * post, comment and wall entry is cooked when written. Cooking all 6 million rows would add tens
 * of minutes, so this cooks, with the app's own cookMarkdown, what bench/http, bench/lighthouse
 * and the README's page-weight figure read: the newest posts (the home feed, whose busiest post
 * bench/http measures) and their comments, the post with 50 comments and the most commented ones
 * with theirs, and the walls of the first members (bench/http's profile) and of the busiest.
 * Every other row is cooked when read, as an old row on a real site would be until the re-cook job
 * reaches it; the walk is recorded as done so that job does not run during a benchmark.
 */
import type { Sql } from "postgres";
import { cookMarkdown, cookVersion } from "../../app/lib/markdown.server";

/** The newest posts cooked, with their comments. */
const NEWEST_POSTS = 2_000;
/** Members whose walls are cooked, from the first. */
const FIRST_WALLS = 1_000;
/** Rows fetched, cooked and written back at a time. */
const BATCH = 2_000;

/** Cooks the rows above; returns how many of each table were cooked. */
export async function cookReadRows(sql: Sql, posts: number[], owners: number[]): Promise<Record<string, number>> {
  const version = cookVersion();
  const newest = await sql.unsafe<{ id: number }[]>(`select id from posts order by created_at desc, id desc limit ${NEWEST_POSTS}`);
  const ids = `'{${[...new Set([...newest.map((row) => row.id), ...posts])].join(",")}}'::int[]`;
  const cooked = {
    posts: await cookTable(sql, "posts", `id = any(${ids})`, version),
    comments: await cookTable(sql, "comments", `post_id = any(${ids})`, version),
    wall_posts: await cookTable(sql, "wall_posts", `owner_id <= ${FIRST_WALLS} or owner_id = any('{${owners.join(",")}}'::int[])`, version),
  };
  // Marks the re-cook walk done, so a benchmark's server does not spend its run cooking the
  // remaining millions in the background (they are cooked when read).
  await sql.unsafe(
    `insert into settings (key, value) values ('cookedVersionComplete', to_jsonb($1::text)) on conflict (key) do update set value = excluded.value`,
    [version],
  );
  return cooked;
}

async function cookTable(sql: Sql, table: string, where: string, version: string): Promise<number> {
  let after = 0;
  let count = 0;
  for (;;) {
    const rows = await sql.unsafe<{ id: number; body: string }[]>(`select id, body from ${table} where (${where}) and id > $1 order by id limit ${BATCH}`, [after]);
    if (rows.length === 0) return count;
    await sql.unsafe(
      `update ${table} set cooked_html = c.html, cooked_version = $3
       from (select unnest($1::int[]) as id, unnest($2::text[]) as html) c where ${table}.id = c.id`,
      [rows.map((row) => row.id), rows.map((row) => cookMarkdown(row.body)), version],
    );
    count += rows.length;
    after = rows.at(-1)!.id;
  }
}
