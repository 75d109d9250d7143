/**
 * The post page pages its comments (docs/product/engineering.md#speed; issue 12): 50 threads,
 * then «Показать ещё», a plain link to `?comments=2` that works without JavaScript. A built
 * server on its own PostgreSQL database, so the test can write 60 comments directly (the form
 * allows one comment per 5 s). Runs in the PostgreSQL step of the tests (scripts/test.sh).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { comments } from "~/db/schema";
import { commentUrl } from "~/domain/comments/comments.server";
import { decodeHtml } from "../api/client";
import { makePost, makeUser } from "../setup/factories";
import { startServer, type RunningServer } from "../setup/server";
import { scratchDatabase } from "./scratch-database";

describe("comments on the post page, 50 threads a page (issue 12)", () => {
  const database = scratchDatabase("cluster_cp");
  let server: RunningServer;
  let handle: DatabaseHandle;
  let postId: number;
  const threadIds: number[] = [];

  beforeAll(async () => {
    await database.create();
    server = await startServer({ DATABASE_URL: database.url, SEED_DEMO: "0", SESSION_SECRET: randomBytes(32).toString("hex") });
    handle = await openDatabase({ url: database.url, maxConnections: 2 });
    const [author, writer] = [await makeUser(handle.db), await makeUser(handle.db)];
    postId = await makePost(handle.db, author);
    const rows = await handle.db
      .insert(comments)
      .values(Array.from({ length: 60 }, (_, i) => ({ postId, authorId: writer.id, body: `Тред **номер ${i + 1}**` })))
      .returning({ id: comments.id });
    threadIds.push(...rows.map((row) => row.id));
    await handle.db.insert(comments).values({ postId, authorId: author.id, parentId: threadIds[59]!, body: "Ответ в последнем треде" });
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    await server?.stop();
    await database.drop();
  });

  const page = async (path: string) => {
    const response = await fetch(server.baseUrl + path);
    expect(response.status).toBe(200);
    return decodeHtml(await response.text());
  };
  const threadsIn = (html: string) => [...html.matchAll(/data-testid="comment-thread"/g)].length;

  it("shows the first 50 threads and a «Показать ещё» link; the link shows all 60 and the last reply", async () => {
    const first = await page(`/post/${postId}`);
    expect(threadsIn(first)).toBe(50);
    expect(first).toContain("<strong>номер 50</strong>");
    expect(first).not.toContain("<strong>номер 51</strong>");
    // The heading counts every comment, shown or not.
    expect(first).toMatch(/data-testid="comments-count">61</);
    const link = /<a [^>]*data-testid="comments-more"[^>]*>Показать ещё/.exec(first)?.[0] ?? "";
    const more = /href="([^"]+)"/.exec(link)?.[1];
    expect(more).toBe(`/post/${postId}?comments=2#comment-${threadIds[49]}`);

    const second = await page(more!.replace(/#.*/, ""));
    expect(threadsIn(second)).toBe(60);
    expect(second).toContain("<strong>номер 60</strong>");
    expect(second).toContain("Ответ в последнем треде");
    expect(second).not.toContain('data-testid="comments-more"');
  });

  it("sends a comment form without JavaScript back to ?comments=all, where the new comment is on the page", async () => {
    const location = await commentUrl(handle.db, postId, threadIds[59]!);
    expect(location).toBe(`/post/${postId}?comments=all#comment-${threadIds[59]}`);
    const html = await page(location.replace(/#.*/, ""));
    expect(html).toContain(`id="comment-${threadIds[59]}"`);
    expect(threadsIn(html)).toBe(60);
  });
});
