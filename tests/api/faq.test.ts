/** /faq and /admin/faq over HTTP (issue 11): the seeded FAQ, the server-side filter, anchors, admin guards, a question without text refused. */
import { beforeAll, describe, expect, it } from "vitest";
import { Client, csrfFromHtml } from "./client";

let admin: Client;
let adminCsrf: string;

const questionsOn = (html: string) => [...html.matchAll(/<details[^>]*\sid="([a-z0-9-]+)"/g)].map((m) => m[1]!);

beforeAll(async () => {
  admin = new Client();
  expect((await admin.signIn("admin@shodka.local", "admin12345")).status).toBeLessThan(400);
  adminCsrf = csrfFromHtml(await (await admin.fetch("/admin/faq")).text());
});

describe("/faq", () => {
  it("shows the site's FAQ as details with an anchor per question", async () => {
    const html = await (await new Client().fetch("/faq")).text();
    expect(html).toContain("Как вывести депозит и почему это занимает 14 дней?");
    expect(html).toContain("<summary");
    expect(questionsOn(html)).toContain("skolko-stoit-garant");
    expect(html).toContain('id="garant"');
    expect(html).not.toContain("Раздел скоро появится");
  });

  it("?q= filters on the server, without JavaScript", async () => {
    const html = await (await new Client().fetch(`/faq?q=${encodeURIComponent("72 часа")}`)).text();
    expect(questionsOn(html)).toEqual(["chto-budet-esli-pokupatel-ne-podtverzhdaet-poluchenie"]);
    expect(html.replace(/<!-- -->/g, "")).toMatch(/Найдено 1 вопрос из \d+/);
    const none = await (await new Client().fetch("/faq?q=абракадабра")).text();
    expect(questionsOn(none)).toEqual([]);
    expect(none).toContain("Ничего не нашлось");
  });
});

describe("/admin/faq", () => {
  it("sends a visitor to sign in and refuses a member who is not an admin", async () => {
    expect((await new Client().fetch("/admin/faq")).status).toBe(302);
    const member = new Client();
    await member.register();
    expect((await member.fetch("/admin/faq")).status).toBe(403);
    expect((await member.fetch("/admin/faq/entries/new")).status).toBe(403);
  });

  it("a question without text is refused in Russian and nothing is saved", async () => {
    const before = (await (await admin.fetch("/admin/faq")).text()).match(/data-testid="admin-faq-entry"/g)!.length;
    const response = await admin.postForm("/admin/faq/entries/new", { csrf: adminCsrf, intent: "entry-save", sectionId: "1", question: "  ", answer: "Ответ" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Укажите вопрос");
    const after = (await (await admin.fetch("/admin/faq")).text()).match(/data-testid="admin-faq-entry"/g)!.length;
    expect(after).toBe(before);
  });

  it("a published question appears on /faq under its anchor; a draft does not", async () => {
    const draft = await admin.postForm("/admin/faq/entries/new", {
      csrf: adminCsrf,
      intent: "entry-save",
      sectionId: "1",
      question: "Черновой вопрос?",
      answer: "Пока скрыт",
    });
    expect(draft.status).toBe(302);
    const published = await admin.postForm("/admin/faq/entries/new", {
      csrf: adminCsrf,
      intent: "entry-save",
      sectionId: "1",
      question: "Можно ли торговать ночью?",
      answer: "Да, **круглосуточно**.",
      published: "on",
    });
    expect(published.status).toBe(302);
    const html = await (await new Client().fetch("/faq")).text();
    expect(questionsOn(html)).toContain("mozhno-li-torgovat-nochyu");
    expect(html).toContain("<strong>круглосуточно</strong>");
    expect(html).not.toContain("Черновой вопрос?");
  });
});
