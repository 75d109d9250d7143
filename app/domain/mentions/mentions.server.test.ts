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

  it.each([
    ["inline code", "смотри `@admin` в коде"],
    ["a code block", "```\nping @admin\n```"],
    ["an indented code block", "    @admin here"],
    ["a URL", "статья https://medium.com/@admin/post"],
    ["an e-mail address", "пишите ivan@admin.ru"],
    ["a name glued to a word", "text@admin"],
    ["a longer name with a hyphen", "привет @ivan-petrov"],
    ["a longer name with a dot", "это @admin.panel"],
    ["a link's text", "[@admin](https://example.com)"],
  ])("takes no mention from %s (issue 13 item 9)", (_case, text) => {
    expect(extractMentions(text)).toEqual([]);
  });

  it("takes mentions at the end of a sentence, in emphasis, lists and quotes", () => {
    expect(extractMentions("Спасибо, @ivan. *@Maria* и\n\n- @petr_1\n\n> @olga!")).toEqual(["ivan", "maria", "petr_1", "olga"]);
  });

  it("notifies exactly the members the rendered text links (issue 13 item 9)", () => {
    const texts = [
      "`@admin` и @ivan",
      "https://medium.com/@admin/post @maria",
      "text@admin @petr",
      "@ivan-petrov и @olga.",
      "ivan@admin.ru, ```\n@admin\n```",
      "[@admin](https://x.example) **@oleg**",
    ];
    for (const text of texts) {
      const names = ["admin", "ivan", "maria", "petr", "olga", "oleg"];
      const map = new Map(names.map((name, id) => [name, { id: id + 1, username: name }]));
      const linked = [...renderMarkdown(text, map).matchAll(/class="mention">@([^<]+)</g)].map((match) => match[1]!);
      expect(linked, text).toEqual(extractMentions(text));
    }
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
