/**
 * The README's security table lists every rate limit (issue 13: «one table of limits in the
 * README»): each name of app/lib/rate-limit-table.ts LIMITS appears there as `name`, so a limit
 * added in code without a line saying what it protects fails here.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIMITS } from "~/lib/rate-limit-table";

describe("README security table", () => {
  it("names every rate limit", async () => {
    const readme = await readFile(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
    const security = readme.slice(readme.indexOf("## Security"), readme.indexOf("\n## ", readme.indexOf("## Security") + 1));
    const missing = Object.keys(LIMITS).filter((name) => !security.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
