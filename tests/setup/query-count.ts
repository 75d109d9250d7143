/**
 * Counts the SQL statements a piece of code sends (tests only): wraps the driver call that
 * drizzle's PGlite (`query`) and postgres.js (`unsafe`) sessions go through.
 */
import type { Db } from "~/db/client.server";

export async function countQueries<T>(db: Db, run: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const client = (db as unknown as { $client: Record<string, unknown> }).$client;
  const method = typeof client.unsafe === "function" ? "unsafe" : "query";
  const original = client[method] as (...args: unknown[]) => unknown;
  let queries = 0;
  client[method] = (...args: unknown[]) => {
    queries += 1;
    return original.apply(client, args);
  };
  try {
    return { result: await run(), queries };
  } finally {
    client[method] = original;
  }
}

/** Just the number of SQL statements `run` sent. */
export async function queriesOf(db: Db, run: () => Promise<unknown>): Promise<number> {
  return (await countQueries(db, run)).queries;
}
