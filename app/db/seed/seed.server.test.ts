import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { sql, type SQL } from "drizzle-orm";
import { executeRows } from "~/db/client.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { seedDemo, seedDemoIfEmpty, DEMO_ACCOUNTS } from "./seed.server";
import { verifyCredentials } from "~/domain/users/users.server";

let t: TestDatabase;
const dataDir = mkdtempSync(path.join(tmpdir(), "seed-test-"));
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { dataDir });
}, 120_000);
afterAll(async () => {
  await t.destroy();
});

/** The single value a query answers (postgres.js returns rows, PGlite `{rows}`). */
async function scalar(query: SQL): Promise<number> {
  const rows = await executeRows(t.db, query);
  return Number(Object.values(rows[0] ?? {})[0]);
}

describe(`demo community on ${engine}`, () => {
  it("has members with avatars and bios, posts in all nine categories, and sign-ins for admin and demo", async () => {
    expect(await scalar(sql`select count(*) from users where image is not null and bio <> ''`)).toBeGreaterThanOrEqual(30);
    expect(await scalar(sql`select count(distinct category_id) from posts`)).toBe(9);
    expect(await scalar(sql`select count(*) from posts`)).toBeGreaterThanOrEqual(200);
    expect(await scalar(sql`select count(*) from posts where kind = 'article'`)).toBeGreaterThan(0);
    expect((await verifyCredentials(t.db, DEMO_ACCOUNTS.demo.email, DEMO_ACCOUNTS.demo.password))?.username).toBe("demo");
    expect((await verifyCredentials(t.db, DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password))?.role).toBe("admin");
  });

  it("stores every avatar as a member's upload is stored: a 256×256 WebP picture (docs/product/interface.md#avatar)", async () => {
    const images = (await executeRows(t.db, sql`select image from users where image is not null`)).map((row) => String(row.image));
    expect(images.length).toBeGreaterThanOrEqual(30);
    for (const image of images) {
      const file = path.join(dataDir, image.replace(/^\//, ""));
      expect(await sharp(file).metadata(), image).toMatchObject({ format: "webp", width: 256, height: 256 });
    }
  });

  it("looks lived in: comments with replies, likes, wall entries, follows and achievements", async () => {
    expect(await scalar(sql`select count(*) from comments`)).toBeGreaterThan(300);
    expect(await scalar(sql`select count(*) from comments where parent_id is not null`)).toBeGreaterThan(50);
    expect(await scalar(sql`select count(*) from post_likes`)).toBeGreaterThan(1000);
    expect(await scalar(sql`select count(*) from wall_posts`)).toBeGreaterThan(20);
    expect(await scalar(sql`select count(*) from follows`)).toBeGreaterThan(100);
    expect(await scalar(sql`select count(*) from user_achievements where achievement_id is not null`)).toBeGreaterThan(30);
  });

  it("keeps every counter equal to the rows it counts", async () => {
    expect(await scalar(sql`select count(*) from posts where like_count <> (select count(*) from post_likes where post_id = posts.id)`)).toBe(0);
    expect(
      await scalar(sql`select count(*) from posts where comment_count <> (select count(*) from comments where post_id = posts.id and deleted_at is null)`),
    ).toBe(0);
    expect(await scalar(sql`select count(*) from comments where like_count <> (select count(*) from comment_likes where comment_id = comments.id)`)).toBe(0);
  });

  it("gives the demo member notifications to look at: grouped likes, comments, a chat mention, a few unread", async () => {
    const demo = sql`(select id from users where username = 'demo')`;
    expect(
      await scalar(sql`select count(*) from notifications where recipient_id = ${demo} and type = 'POST_LIKE' and cardinality(actor_ids) > 1`),
    ).toBeGreaterThan(0);
    expect(await scalar(sql`select count(*) from notifications where recipient_id = ${demo} and type = 'POST_COMMENT_NEW'`)).toBeGreaterThan(0);
    expect(await scalar(sql`select count(*) from notifications where recipient_id = ${demo} and type = 'PUBLIC_CONVERSATION_MESSAGE_MENTION'`)).toBe(1);
    expect(await scalar(sql`select count(*) from notifications where recipient_id = ${demo} and read_at is null`)).toBe(4);
    expect(await scalar(sql`select count(*) from notifications where recipient_id = sender_id`)).toBe(0);
  });

  it("has money to look at: balances, deposits, deals in several states, a member on the blacklist", async () => {
    const member = (username: string) => sql`(select id from users where username = ${username})`;
    expect(await scalar(sql`select count(*) from ledger_accounts where kind = 'member_deposit' and balance > 0`)).toBeGreaterThanOrEqual(4);
    expect(await scalar(sql`select count(distinct state) from deals`)).toBeGreaterThanOrEqual(4);
    expect(await scalar(sql`select count(*) from deals where state = 'disputed'`)).toBeGreaterThan(0);
    // The demo member has a deal to confirm and a proposal to accept.
    expect(await scalar(sql`select count(*) from deals where buyer_id = ${member("demo")} and state in ('delivered', 'created')`)).toBe(2);
    expect(await scalar(sql`select count(*) from users where scammer`)).toBe(1);
    expect(await scalar(sql`select count(*) from claims where status = 'upheld' and accused_id = ${member("Sanya_Trader")}`)).toBe(1);
    // Debits equal credits and nobody is below zero.
    expect(await scalar(sql`select coalesce(sum(balance), 0) from ledger_accounts`)).toBe(0);
    expect(await scalar(sql`select count(*) from ledger_accounts where kind <> 'platform_funding' and balance < 0`)).toBe(0);
  });

  it("has moderation to look at: open reports with a hidden post, a muted and a suspended member, audit entries, pins, rules", async () => {
    const member = (username: string) => sql`(select id from users where username = ${username})`;
    expect(await scalar(sql`select count(distinct (target_type, target_id)) from reports where status = 'open'`)).toBeGreaterThanOrEqual(4);
    expect(await scalar(sql`select count(*) from reports where status = 'dismissed'`)).toBeGreaterThan(0);
    expect(await scalar(sql`select count(*) from posts where hidden_at is not null and author_id = ${member("Sanya_Trader")}`)).toBe(1);
    const inForce = (kind: string, username: string) =>
      scalar(
        sql`select count(*) from sanctions where kind = ${kind} and user_id = ${member(username)} and lifted_at is null and (ends_at is null or ends_at > now())`,
      );
    expect(await inForce("mute", "Хомяк_Инвестор")).toBe(1);
    expect(await inForce("suspend", "Veronika_Smm")).toBe(1);
    expect(await scalar(sql`select count(*) from sessions where user_id = ${member("Veronika_Smm")}`)).toBe(0);
    expect(await scalar(sql`select count(distinct action) from audit_log`)).toBeGreaterThanOrEqual(8);
    expect(await scalar(sql`select count(*) from audit_log where actor_id = ${member("dark_knight77")}`)).toBeGreaterThanOrEqual(5);
    expect(await scalar(sql`select count(*) from posts where pinned_at is not null`)).toBe(2);
    expect(await scalar(sql`select count(*) from posts where comments_closed_at is not null`)).toBe(1);
    expect(await scalar(sql`select count(*) from comments where deleted_by_moderator`)).toBe(1);
    expect(await scalar(sql`select count(*) from settings where key = 'siteRules'`)).toBe(1);
  });

  it("seeds only an empty database", async () => {
    expect(await seedDemoIfEmpty(t.db, { dataDir })).toBeNull();
  });
});
