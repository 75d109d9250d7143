/**
 * The visitor page cache under a crowd (issue 12; app/lib/page-cache.server.ts): visitors who
 * arrive together at a page that is not stored (first visit, or just emptied by a write) wait for
 * one render instead of each rendering it, and each still gets their own CSRF token. On
 * PostgreSQL, where a render waits on the network and the requests really overlap (PGlite answers
 * in-process, so one render ends before the next request is read). Runs only in the PostgreSQL
 * step of the tests (scripts/test.sh), on a built server.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, csrfFromHtml, decodeHtml } from "../api/client";
import { startServer, type RunningServer } from "../setup/server";
import { scratchDatabase } from "./scratch-database";

describe("a crowd of visitors at a page not yet stored", () => {
  const database = scratchDatabase("cluster_pc");
  let server: RunningServer;

  beforeAll(async () => {
    await database.create();
    server = await startServer({ DATABASE_URL: database.url, SEED_DEMO: "0", SESSION_SECRET: randomBytes(32).toString("hex") });
  });

  afterAll(async () => {
    await server?.stop();
    await database.drop();
  });

  it("gets it rendered once, and every visitor their own token", async () => {
    for (const path of ["/", "/faq"]) {
      const visitors = Array.from({ length: 12 }, () => new Client(server.baseUrl));
      const answers = await Promise.all(
        visitors.map(async (visitor) => {
          const response = await visitor.fetch(path);
          return { status: response.status, cache: response.headers.get("X-Page-Cache"), html: decodeHtml(await response.text()) };
        }),
      );
      expect(answers.map((answer) => answer.status)).toEqual(visitors.map(() => 200));
      expect(
        answers.filter((answer) => answer.cache === "MISS"),
        path,
      ).toHaveLength(1);
      expect(new Set(answers.map((answer) => csrfFromHtml(answer.html))).size).toBe(visitors.length);
    }
  });
});
