import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { extractMentions, mentionTargets, resolveMentions } from "./mentions.server";
import { blocks } from "~/db/schema";
import { renderMarkdown } from "~/lib/markdown.server";

describe("extractMentions", () => {
  it("finds each username once, ignoring e-mail addresses and too-short names", () => {
    expect(extractMentions("Привет, @Вася_Трейдер и @cryptoKing! Ещё раз @cryptoking. Почта: me@example.com, @ab")).toEqual(["вася_трейдер", "cryptoking"]);
  });
});

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

describe(`mentions on ${engine}`, () => {
  it("links resolved mentions to profiles and leaves unknown ones and code alone", async () => {
    const ivan = await makeUser(t.db, { username: "Ivan_Mention" });
    const text = "Спасибо @ivan_mention и @nobody_here. `@ivan_mention` в коде";
    const html = renderMarkdown(text, await resolveMentions(t.db, [text]));
    expect(html).toContain(`<a href="/profile/${ivan.id}" class="mention">@Ivan_Mention</a>`);
    expect(html).toContain("@nobody_here");
    expect(html).not.toContain('href="/profile/undefined"');
    expect(html).toContain("<code>@ivan_mention</code>");
    expect(html).not.toMatch(/class="mention"[^>]*target=/);
  });

  it("notifies at most 10 members: not the author, not those who blocked the author", async () => {
    const author = await makeUser(t.db, { username: "Mention_Author" });
    const blocker = await makeUser(t.db, { username: "Mention_Blocker" });
    await t.db.insert(blocks).values({ blockerId: blocker.id, blockedId: author.id });
    const others = await Promise.all(Array.from({ length: 11 }, (_, i) => makeUser(t.db, { username: `mention_many_${i}` })));
    const text = `@Mention_Author @Mention_Blocker ${others.map((u) => `@${u.username}`).join(" ")}`;
    const targets = await mentionTargets(t.db, author.id, text);
    expect(targets).not.toContain(author.id);
    expect(targets).not.toContain(blocker.id);
    expect(targets.length).toBe(8);
    expect(targets.every((id) => others.some((u) => u.id === id))).toBe(true);
  });
});
