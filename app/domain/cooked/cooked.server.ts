/**
 * Cooked Markdown (docs/decisions/0027-cooked-markdown.md, docs/product/engineering.md#speed): a
 * post's, comment's or wall entry's body is rendered to sanitised HTML once, when it is written or
 * edited, and stored beside it (`cooked_html`, stamped with `cooked_version`). Reading takes the
 * stored HTML and only resolves its mentions (one query per page, one regular expression per
 * item). A row cooked by another renderer version or settings (or never, e.g. the benchmark's
 * generated rows) is cooked when read, and the re-cook job brings the stored HTML up to date.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { comments, posts, settings, wallPosts } from "~/db/schema";
import { cookMarkdown, cookVersion } from "~/lib/markdown.server";
import { logger } from "~/lib/logger.server";

/** The columns a row with a body stores its cooked HTML in. */
export interface CookedColumns {
  cookedHtml: string | null;
  cookedVersion: string | null;
}

/** What to store beside `body` when it is written or edited: `{ cookedHtml, cookedVersion }`. */
export function cookedColumns(body: string): { cookedHtml: string; cookedVersion: string } {
  return { cookedHtml: cookMarkdown(body), cookedVersion: cookVersion() };
}

/** Rows cooked on read this process, so a stale row is cooked once per request, not per use. */
const cookedOnRead = new WeakMap<object, string>();

/**
 * The cooked HTML of `row` (mention placeholders unresolved: pass it to linkMentions): the stored
 * HTML when its version is current, otherwise the body cooked now.
 */
export function cookedOf(row: CookedColumns & { body: string }): string {
  if (row.cookedHtml !== null && row.cookedVersion === cookVersion()) return row.cookedHtml;
  let cooked = cookedOnRead.get(row);
  if (cooked === undefined) {
    cooked = cookMarkdown(row.body);
    cookedOnRead.set(row, cooked);
  }
  return cooked;
}

/** The settings key recording the cook version every stored row has been brought to. */
const RECOOKED_KEY = "cookedVersionComplete";

/** Rows the re-cook job reads and writes at a time. */
export const RECOOK_BATCH = 200;

/** The tables whose rows carry a cooked body. */
const TABLES = [posts, comments, wallPosts] as const;

/**
 * Brings every stored post, comment and wall entry to the current cook version, walking each table
 * by id in batches of RECOOK_BATCH (so a pass reads each row once, with the primary key's index),
 * then records the version in `settings` so later starts skip the walk. Returns the number of
 * rows re-cooked (0 when the recorded version is current). Safe to run in several processes at
 * once: a row is written only while its stamp is still stale, and cooking is deterministic.
 * `pauseMs` between batches leaves the database to the site's requests; an aborted `signal` stops
 * the walk after the batch in hand (a closing process), recording nothing.
 */
export async function recookStaleRows(db: Db, options: { pauseMs?: number; signal?: AbortSignal } = {}): Promise<number> {
  const version = cookVersion();
  const [done] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, RECOOKED_KEY)).limit(1);
  if (done?.value === version) return 0;
  let recooked = 0;
  for (const table of TABLES) {
    let after = 0;
    for (;;) {
      const rows = await db
        .select({ id: table.id, body: table.body })
        .from(table)
        .where(and(gt(table.id, after), sql`${table.cookedVersion} is distinct from ${version}`))
        .orderBy(asc(table.id))
        .limit(RECOOK_BATCH);
      if (rows.length === 0) break;
      // One statement per batch; a row edited meanwhile (already stamped current) is left alone.
      const cooked = JSON.stringify(rows.map((row) => ({ id: row.id, html: cookMarkdown(row.body) })));
      await db.execute(sql`
        update ${table} set cooked_html = c.html, cooked_version = ${version}
        from jsonb_to_recordset(${cooked}::jsonb) as c(id int, html text)
        where ${table.id} = c.id and ${table.cookedVersion} is distinct from ${version}`);
      recooked += rows.length;
      after = rows.at(-1)!.id;
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
      if (options.signal?.aborted) return recooked;
    }
  }
  await db
    .insert(settings)
    .values({ key: RECOOKED_KEY, value: version })
    .onConflictDoUpdate({ target: settings.key, set: { value: version, updatedAt: new Date() } });
  if (recooked > 0) logger.info({ area: "cooked-markdown", recooked, version }, "re-cooked stored Markdown");
  return recooked;
}
