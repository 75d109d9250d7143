import { describe, expect, it } from "vitest";
import { buildSeedPosts, seedMembers } from "./content.ts";

const posts = buildSeedPosts();
const categoryIds = [1, 2, 3, 4, 5, 6, 7, 8, 9];

describe("seed members", () => {
  it("has at least 34 members with admin first and demo second", () => {
    expect(seedMembers.length).toBeGreaterThanOrEqual(34);
    expect(seedMembers[0]).toMatchObject({ username: "admin", role: "admin", displayName: "Администрация", verified: true });
    expect(seedMembers[1]).toMatchObject({ username: "demo", role: "member", displayName: "Демо Пользователь" });
  });

  it("has valid usernames, unique case-insensitively", () => {
    for (const m of seedMembers) {
      expect(m.username).toMatch(/^[A-Za-z0-9_\u0400-\u04FF]{3,32}$/);
      // Also the stricter users_username_format check of the database schema.
      expect(m.username).toMatch(/^[A-Za-z0-9_А-Яа-яЁё]{3,32}$/);
    }
    const lower = seedMembers.map((m) => m.username.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
  });

  it("has two moderators, a few verified members and sane join dates", () => {
    expect(seedMembers.filter((m) => m.role === "moderator")).toHaveLength(2);
    expect(seedMembers.filter((m) => m.role === "admin")).toHaveLength(1);
    const verified = seedMembers.filter((m) => m.verified).length;
    expect(verified).toBeGreaterThanOrEqual(5);
    expect(verified).toBeLessThanOrEqual(8);
    for (const m of seedMembers) {
      expect(m.joinedDaysAgo).toBeGreaterThanOrEqual(1);
      expect(m.joinedDaysAgo).toBeLessThanOrEqual(900);
      expect(m.displayName.trim()).not.toBe("");
      expect(m.bio.trim()).not.toBe("");
    }
  });
});

describe("seed posts", () => {
  it("has at least 230 posts and at least 15 per category", () => {
    expect(posts.length).toBeGreaterThanOrEqual(230);
    for (const id of categoryIds) expect(posts.filter((p) => p.categoryId === id).length).toBeGreaterThanOrEqual(15);
    for (const p of posts) expect(categoryIds).toContain(p.categoryId);
  });

  it("has articles in at least 5 categories, about 15% of all posts", () => {
    const articles = posts.filter((p) => p.kind === "article");
    expect(new Set(articles.map((p) => p.categoryId)).size).toBeGreaterThanOrEqual(5);
    const share = articles.length / posts.length;
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.2);
  });

  it("has unique titles of 3..200 chars", () => {
    for (const p of posts) {
      expect(p.title.length).toBeGreaterThanOrEqual(3);
      expect(p.title.length).toBeLessThanOrEqual(200);
    }
    const lower = posts.map((p) => p.title.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
  });

  it("keeps bodies within limits", () => {
    for (const p of posts) {
      expect(p.body.length).toBeLessThanOrEqual(50000);
      expect(p.body.length, p.title).toBeGreaterThanOrEqual(300);
      expect(p.body.length, p.title).toBeLessThanOrEqual(4000);
      if (p.kind === "article") expect(p.body.length, p.title).toBeGreaterThanOrEqual(1500);
      expect(p.body).not.toMatch(/undefined|NaN|\[object /);
    }
  });

  it("is authored by existing members, everyone but admin at least twice", () => {
    const usernames = new Set(seedMembers.map((m) => m.username));
    const count = new Map<string, number>();
    for (const p of posts) {
      expect(usernames.has(p.author), p.author).toBe(true);
      count.set(p.author, (count.get(p.author) ?? 0) + 1);
    }
    for (const m of seedMembers) {
      if (m.role !== "admin") expect(count.get(m.username) ?? 0, m.username).toBeGreaterThanOrEqual(2);
    }
  });

  it("publishes within the last year and never before the author joined", () => {
    const joined = new Map(seedMembers.map((m) => [m.username, m.joinedDaysAgo]));
    for (const p of posts) {
      expect(p.daysAgo).toBeGreaterThanOrEqual(0);
      expect(p.daysAgo).toBeLessThanOrEqual(365);
      expect(p.daysAgo).toBeLessThanOrEqual(joined.get(p.author) ?? 0);
    }
  });

  it("only links to example.com", () => {
    for (const p of posts) {
      for (const url of p.body.match(/https?:\/\/[^\s)]+/g) ?? []) expect(url).toMatch(/^https:\/\/example\.com\//);
    }
  });

  it("is deterministic", () => {
    expect(buildSeedPosts()).toEqual(buildSeedPosts());
    expect(buildSeedPosts()).toEqual(posts);
  });
});
