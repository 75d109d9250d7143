/**
 * The demo community (issue 2): members with avatars and bios, posts and articles in all
 * nine categories, an admin and a demo member whose sign-in the README gives, and the
 * main-page background; money (issue 5) and moderation (issue 10) through the domain functions. Runs on first start with an empty database; `npm run db:reseed`
 * wipes and runs it again.
 */
import { usernameSkeleton } from "~/domain/users/username-skeleton.server";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAvatar } from "@dicebear/core";
import { notionists } from "@dicebear/collection";
import sharp from "sharp";
import { count, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  bookmarks,
  commentLikes,
  comments,
  faqSections,
  follows,
  ledgerAccounts,
  musicTracks,
  postLikes,
  posts,
  settings,
  statsDaily,
  users,
  wallPosts,
} from "~/db/schema";
import type { AppConfig } from "~/lib/config.server";
import { markdownExcerpt } from "~/lib/markdown.server";
import { hashPassword } from "~/lib/password.server";
import { AVATAR_SIZE } from "~/lib/images/avatar.server";
import { MAIN_PAGE_BACKGROUND_KEY } from "~/domain/settings/settings.server";
import { evaluateAchievements } from "~/domain/achievements/achievements.server";
import { cookedColumns } from "~/domain/cooked/cooked.server";
import { buildSeedActivity, type SeedActivity } from "./activity";
import { buildSeedPosts, seedMembers } from "./content";
import { seedNotifications } from "./notifications";
import { insertSeedConversations } from "./conversations";
import { seedMoney } from "./money";
import { seedMusic } from "./music";
import { seedModeration } from "./moderation";
import { eventBus } from "~/lib/events.server";

/** Sign-ins the README gives. Demo data only: production sets SEED_DEMO=0. */
export const DEMO_ACCOUNTS = {
  admin: { email: "admin@shodka.local", password: "admin12345" },
  demo: { email: "demo@shodka.local", password: "demo12345" },
  /** dark_knight77, a moderator: resolves disputes and decides claims (issue 5). */
  moderator: { email: "moderator@shodka.local", password: "moder12345" },
} as const;

/** Which seeded username signs in with which demo account. */
const DEMO_ACCOUNT_OF: Record<string, keyof typeof DEMO_ACCOUNTS> = { admin: "admin", demo: "demo", dark_knight77: "moderator" };

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SeedResult {
  members: number;
  posts: number;
}

/** Seeds the demo community when the users table is empty; returns what it created, or null. */
export async function seedDemoIfEmpty(db: Db, config: Pick<AppConfig, "dataDir">): Promise<SeedResult | null> {
  const [existing] = await db.select({ value: count() }).from(users);
  if ((existing?.value ?? 0) > 0) return null;
  return seedDemo(db, config);
}

/** Grants the demo members the achievements their seeded history has earned. */
async function grantSeededAchievements(db: Db): Promise<void> {
  for (const { id } of await db.select({ id: users.id }).from(users)) await evaluateAchievements(db, id);
}

/** Inserts the demo community into an empty database in one transaction. */
export async function seedDemo(db: Db, config: Pick<AppConfig, "dataDir">): Promise<SeedResult> {
  const now = Date.now();
  const avatarDir = path.join(config.dataDir, "uploads", "avatars");
  mkdirSync(avatarDir, { recursive: true });
  const passwords = {
    admin: await hashPassword(DEMO_ACCOUNTS.admin.password),
    demo: await hashPassword(DEMO_ACCOUNTS.demo.password),
    moderator: await hashPassword(DEMO_ACCOUNTS.moderator.password),
  };

  // ASCII names for files and addresses, whatever the username's alphabet.
  const slugs = seedMembers.map((member, index) => (/^[A-Za-z0-9_]+$/.test(member.username) ? member.username.toLowerCase() : `member${index + 1}`));
  await Promise.all(seedMembers.map((member, index) => writeDemoAvatar(path.join(avatarDir, `${slugs[index]}.webp`), member.username, index)));

  const result = await db.transaction(async (tx) => {
    const memberRows = seedMembers.map((member, index) => {
      const slug = slugs[index]!;
      const file = `${slug}.webp`;
      const account = DEMO_ACCOUNT_OF[member.username] ?? null;
      return {
        username: member.username,
        usernameSkeleton: usernameSkeleton(member.username),
        displayName: member.displayName,
        email: account ? DEMO_ACCOUNTS[account].email : `${slug}@shodka.local`,
        emailVerified: true,
        passwordHash: account ? passwords[account] : null,
        bio: member.bio,
        image: `/uploads/avatars/${file}`,
        role: member.role,
        verified: member.verified,
        createdAt: new Date(now - member.joinedDaysAgo * DAY_MS),
        lastSeenAt: new Date(now - ((index * 37) % 600) * 60 * 1000),
      };
    });
    const inserted = await tx.insert(users).values(memberRows).returning({ id: users.id, username: users.username });
    const idByUsername = new Map(inserted.map((u) => [u.username, u.id]));

    const seedPosts = buildSeedPosts();
    const postRows = seedPosts.map((post, index) => ({
      authorId: idByUsername.get(post.author)!,
      categoryId: post.categoryId,
      kind: post.kind,
      title: post.title,
      body: post.body,
      excerpt: markdownExcerpt(post.body),
      ...cookedColumns(post.body),
      views: 20 + ((index * 7919) % 1500),
      createdAt: new Date(now - post.daysAgo * DAY_MS),
    }));
    const insertedPosts: { id: number; authorId: number; createdAt: Date }[] = [];
    for (let i = 0; i < postRows.length; i += 100) {
      insertedPosts.push(
        ...(await tx
          .insert(posts)
          .values(postRows.slice(i, i + 100))
          .returning({ id: posts.id, authorId: posts.authorId, createdAt: posts.createdAt })),
      );
    }
    await insertActivity(tx, buildSeedActivity({ memberIds: inserted.map((u) => u.id), posts: insertedPosts, demoId: idByUsername.get("demo")!, now }));
    await insertSeedConversations(tx, idByUsername, now);
    await tx.insert(settings).values({ key: MAIN_PAGE_BACKGROUND_KEY, value: "/images/backgrounds/main.svg" }).onConflictDoNothing();
    return { members: inserted.length, posts: postRows.length, idByUsername };
  });
  await seedMoney(db, result.idByUsername);
  await seedMusic(db, config, result.idByUsername.get("admin")!);
  await seedModeration(db, result.idByUsername);
  await grantSeededAchievements(db);
  // Money and moderation events notify through subscribers when they are registered (a real
  // start): let them finish before the seeded notifications are marked read.
  await eventBus(db).drain();
  await seedNotifications(db);
  return { members: result.members, posts: result.posts };
}

/** Inserts the activity rows in batches and brings every counter in line with them. */
async function insertActivity(tx: Db, activity: SeedActivity): Promise<void> {
  const inBatches = async <T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
  };
  // Comment ids are the activity's keys (the table is empty), so replies can name parents
  // inserted in the same batch; the sequence is moved past them afterwards.
  const commentAuthor = new Map(activity.comments.map((c) => [c.key, c.authorId]));
  await inBatches(activity.comments, (batch) =>
    tx.insert(comments).values(
      batch.map((c) => ({
        id: c.key,
        postId: c.postId,
        authorId: c.authorId,
        parentId: c.parentKey,
        body: c.body,
        ...cookedColumns(c.body),
        createdAt: c.createdAt,
      })),
    ),
  );
  await tx.execute(sql`select setval(pg_get_serial_sequence('comments', 'id'), (select coalesce(max(id), 0) + 1 from comments), false)`);
  await inBatches(activity.postLikes, (batch) => tx.insert(postLikes).values(batch));
  await inBatches(activity.commentLikes, (batch) =>
    tx
      .insert(commentLikes)
      .values(batch.map((l) => ({ commentId: l.commentKey, userId: l.userId, receiverId: commentAuthor.get(l.commentKey)!, createdAt: l.createdAt }))),
  );
  await inBatches(activity.wallPosts, (batch) =>
    tx.insert(wallPosts).values(batch.map(({ pinned, ...w }) => ({ ...w, ...cookedColumns(w.body), pinnedAt: pinned ? w.createdAt : null }))),
  );
  await inBatches(activity.follows, (batch) => tx.insert(follows).values(batch));
  await inBatches(activity.bookmarks, (batch) => tx.insert(bookmarks).values(batch));
  await tx.execute(sql`update posts set
    like_count = (select count(*) from post_likes where post_likes.post_id = posts.id),
    comment_count = (select count(*) from comments where comments.post_id = posts.id and comments.deleted_at is null)`);
  await tx.execute(sql`update comments set like_count = (select count(*) from comment_likes where comment_likes.comment_id = comments.id)`);
}

const AVATAR_BACKGROUNDS = ["c0aede", "d1d4f9", "ffd5dc", "ffdfbf", "b6e3f4", "c7f0d8"];

/**
 * Writes the demo member's avatar to `file`: a DiceBear picture drawn from `username`, stored as a
 * member's upload is (AVATAR_SIZE square WebP, app/lib/images/avatar.server.ts), so the demo pages
 * load what real ones do. Kept as SVG, each avatar on a page cost the browser a document of its own
 * and ~10 ms of its main thread (40 ms on Lighthouse's simulated phone), issue 12.
 */
async function writeDemoAvatar(file: string, username: string, index: number): Promise<void> {
  const svg = createAvatar(notionists, { seed: username, backgroundColor: [AVATAR_BACKGROUNDS[index % AVATAR_BACKGROUNDS.length]!] }).toString();
  writeFileSync(file, await sharp(Buffer.from(svg)).resize(AVATAR_SIZE, AVATAR_SIZE).webp({ quality: 85 }).toBuffer());
}

/**
 * Empties every table the demo fills (users cascade to everything they wrote, the ledger
 * included), keeping the schema and the categories, and restores the platform's two ledger
 * accounts that migration 0006 created.
 */
export async function wipeCommunity(db: Db): Promise<void> {
  // Reports, sanctions and the audit log go with the members (cascade); the stats rollup is counted again.
  await db.execute(
    sql`truncate table ${posts}, ${users}, ${settings}, ${comments}, ${wallPosts}, ${ledgerAccounts}, ${musicTracks}, ${faqSections}, ${statsDaily} restart identity cascade`,
  );
  await db
    .insert(ledgerAccounts)
    .values([{ kind: "platform_fee" }, { kind: "platform_funding" }])
    .onConflictDoNothing();
}
