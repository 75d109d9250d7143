/**
 * The demo community (issue 2): members with avatars and bios, posts and articles in all
 * nine categories, an admin and a demo member whose sign-in the README gives, and the
 * main-page background. Runs on first start with an empty database; `npm run db:reseed`
 * wipes and runs it again.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAvatar } from "@dicebear/core";
import { notionists } from "@dicebear/collection";
import { count, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { posts, settings, users } from "~/db/schema";
import type { AppConfig } from "~/lib/config.server";
import { markdownExcerpt } from "~/lib/markdown.server";
import { hashPassword } from "~/lib/password.server";
import { generateApiToken } from "~/domain/users/users.server";
import { MAIN_PAGE_BACKGROUND_KEY } from "~/domain/settings/settings.server";
import { evaluateAchievements } from "~/domain/achievements/achievements.server";
import { buildSeedPosts, seedMembers } from "./content";

/** Sign-ins the README gives. Demo data only: production sets SEED_DEMO=0. */
export const DEMO_ACCOUNTS = {
  admin: { email: "admin@shodka.local", password: "admin12345" },
  demo: { email: "demo@shodka.local", password: "demo12345" },
} as const;

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
  };

  const result = await db.transaction(async (tx) => {
    const memberRows = seedMembers.map((member, index) => {
      // ASCII names for files and addresses, whatever the username's alphabet.
      const slug = /^[A-Za-z0-9_]+$/.test(member.username) ? member.username.toLowerCase() : `member${index + 1}`;
      const file = `${slug}.svg`;
      writeFileSync(path.join(avatarDir, file), createAvatar(notionists, { seed: member.username, backgroundColor: [AVATAR_BACKGROUNDS[index % AVATAR_BACKGROUNDS.length]!] }).toString());
      const account = member.username === "admin" || member.username === "demo" ? member.username : null;
      return {
        username: member.username,
        displayName: member.displayName,
        email: account ? DEMO_ACCOUNTS[account].email : `${slug}@shodka.local`,
        emailVerified: true,
        passwordHash: account ? passwords[account] : null,
        bio: member.bio,
        image: `/uploads/avatars/${file}`,
        role: member.role,
        verified: member.verified,
        apiToken: generateApiToken(),
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
      views: 20 + ((index * 7919) % 1500),
      createdAt: new Date(now - post.daysAgo * DAY_MS),
    }));
    for (let i = 0; i < postRows.length; i += 100) {
      await tx.insert(posts).values(postRows.slice(i, i + 100));
    }
    await tx
      .insert(settings)
      .values({ key: MAIN_PAGE_BACKGROUND_KEY, value: "/images/backgrounds/main.svg" })
      .onConflictDoNothing();
    return { members: inserted.length, posts: postRows.length };
  });
  await grantSeededAchievements(db);
  return result;
}

const AVATAR_BACKGROUNDS = ["c0aede", "d1d4f9", "ffd5dc", "ffdfbf", "b6e3f4", "c7f0d8"];

/** Empties every table the demo fills, keeping the schema and the fixed categories. */
export async function wipeCommunity(db: Db): Promise<void> {
  await db.execute(sql`truncate table ${posts}, ${users}, ${settings} restart identity cascade`);
}
