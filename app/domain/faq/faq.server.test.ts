import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faqEntries } from "~/db/schema";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { promoteToAdmin } from "../../../tests/setup/ledger";
import type { UserRow } from "../users/users.server";
import { DEFAULT_FAQ, ensureDefaultFaq } from "./default-faq.server";
import { createFaqEntry, deleteFaqEntry, moveFaqEntry, setFaqEntryPublished, updateFaqEntry } from "./entries.server";
import { getAdminFaq, getPublishedFaq } from "./faq.server";
import { createFaqSection, moveFaqSection } from "./sections.server";

let t: TestDatabase;
let admin: UserRow;
let member: UserRow;

beforeAll(async () => {
  t = await createTestDatabase();
  admin = { ...(await makeUser(t.db)), role: "admin" };
  await promoteToAdmin(t.db, admin.id);
  member = await makeUser(t.db);
});
afterAll(() => t?.destroy());

describe(`the FAQ (${engine})`, () => {
  it("inserts the site's FAQ once: every section and question published, with anchors", async () => {
    expect(await ensureDefaultFaq(t.db)).toBe(true);
    expect(await ensureDefaultFaq(t.db)).toBe(false);
    const faq = await getPublishedFaq(t.db);
    expect(faq.sections.map((s) => s.title)).toEqual(DEFAULT_FAQ.map((s) => s.title));
    expect(faq.total).toBe(DEFAULT_FAQ.reduce((n, s) => n + s.entries.length, 0));
    const anchors = faq.sections.flatMap((s) => s.entries.map((e) => e.anchor));
    expect(new Set(anchors).size).toBe(anchors.length);
    expect(anchors).toContain("kak-vyvesti-depozit-i-pochemu-eto-zanimaet-14-dnej");
    const fee = faq.sections.find((s) => s.slug === "garant")!.entries.find((e) => e.question === "Сколько стоит гарант?")!;
    expect(fee.answerHtml).toContain("<strong>5 %</strong>");
    expect(fee.answerHtml).toContain("<table>");
  });

  it("filters by every word of the query in the question or the answer, ignoring case and ё", async () => {
    const byDeposit = await getPublishedFaq(t.db, "ДЕПОЗИТ вывести");
    expect(byDeposit.shown).toBeGreaterThan(0);
    for (const entry of byDeposit.sections.flatMap((s) => s.entries)) expect(entry.filterText).toMatch(/депозит/);
    const threeDays = await getPublishedFaq(t.db, "72 часа");
    expect(threeDays.sections.flatMap((s) => s.entries.map((e) => e.question))).toEqual(["Что будет, если покупатель не подтверждает получение?"]);
    expect((await getPublishedFaq(t.db, "абракадабра")).sections).toEqual([]);
  });

  it("an admin adds a draft, publishes it; readers see only published questions, answers sanitised", async () => {
    const section = await createFaqSection(t.db, admin, { title: "Разное" });
    const entry = await createFaqEntry(t.db, admin, {
      sectionId: section.id,
      question: "Можно ли <b>HTML</b>?",
      answer: "Нет: <script>alert(1)</script> **жирный** [ссылка](javascript:alert(1))",
    });
    expect(entry).toMatchObject({ published: false, anchor: "mozhno-li-b-html-b" });
    const visible = () => getPublishedFaq(t.db).then((faq) => faq.sections.flatMap((s) => s.entries).find((e) => e.id === entry.id));
    expect(await visible()).toBeUndefined();
    await setFaqEntryPublished(t.db, admin, entry.id, true);
    const shown = await visible();
    expect(shown!.answerHtml).toContain("<strong>жирный</strong>");
    expect(shown!.answerHtml).not.toContain("<script");
    expect(shown!.answerHtml).not.toContain("javascript:");
  });

  it("a question without text is refused in Russian and nothing is saved", async () => {
    const [section] = await getAdminFaq(t.db, admin);
    const before = (await getAdminFaq(t.db, admin)).flatMap((s) => s.entries).length;
    await expect(createFaqEntry(t.db, admin, { sectionId: section!.id, question: "   ", answer: "Ответ" })).rejects.toMatchObject({
      code: "invalid_input",
      status: 400,
      fieldErrors: { question: ["Укажите вопрос"] },
    });
    await expect(createFaqEntry(t.db, admin, { sectionId: section!.id, question: "Вопрос?", answer: "" })).rejects.toMatchObject({
      fieldErrors: { answer: ["Напишите ответ"] },
    });
    await expect(createFaqEntry(t.db, member, { sectionId: section!.id, question: "Вопрос?", answer: "Ответ" })).rejects.toMatchObject({
      code: "not_admin",
      status: 403,
    });
    await expect(createFaqEntry(t.db, admin, { sectionId: 99_999, question: "Вопрос?", answer: "Ответ" })).rejects.toMatchObject({
      code: "faq_section_not_found",
    });
    expect((await getAdminFaq(t.db, admin)).flatMap((s) => s.entries).length).toBe(before);
  });

  it("anchors: a repeated question gets «-2», a hand-typed taken anchor is refused, an emptied one is kept", async () => {
    const [section] = await getAdminFaq(t.db, admin);
    const first = await createFaqEntry(t.db, admin, { sectionId: section!.id, question: "Повтор?", answer: "Да" });
    const second = await createFaqEntry(t.db, admin, { sectionId: section!.id, question: "Повтор?", answer: "Да" });
    expect([first.anchor, second.anchor]).toEqual(["povtor", "povtor-2"]);
    await expect(updateFaqEntry(t.db, admin, second.id, { sectionId: section!.id, question: "Повтор?", answer: "Да", anchor: "povtor" })).rejects.toMatchObject(
      {
        code: "faq_anchor_taken",
        fieldErrors: { anchor: [expect.any(String)] },
      },
    );
    const kept = await updateFaqEntry(t.db, admin, second.id, { sectionId: section!.id, question: "Другой вопрос?", answer: "Да", anchor: "" });
    expect(kept).toMatchObject({ anchor: "povtor-2", question: "Другой вопрос?" });
    const typed = await updateFaqEntry(t.db, admin, second.id, { sectionId: section!.id, question: "Другой вопрос?", answer: "Да", anchor: "Svoj-Yakor" });
    expect(typed.anchor).toBe("svoj-yakor");
    await deleteFaqEntry(t.db, admin, first.id);
    await deleteFaqEntry(t.db, admin, second.id);
    await expect(deleteFaqEntry(t.db, admin, second.id)).rejects.toMatchObject({ code: "faq_entry_not_found", status: 404 });
  });

  it("orders sections and questions with up and down", async () => {
    const sectionIds = async () => (await getAdminFaq(t.db, admin)).map((s) => s.id);
    const [a, b] = await sectionIds();
    await moveFaqSection(t.db, admin, b!, "up");
    expect((await sectionIds()).slice(0, 2)).toEqual([b, a]);
    await moveFaqSection(t.db, admin, b!, "up");
    expect((await sectionIds()).slice(0, 2)).toEqual([b, a]);
    await moveFaqSection(t.db, admin, b!, "down");
    expect((await sectionIds()).slice(0, 2)).toEqual([a, b]);

    const entryIds = async () => (await getAdminFaq(t.db, admin)).find((s) => s.id === a)!.entries.map((e) => e.id);
    const [x, y] = await entryIds();
    await moveFaqEntry(t.db, admin, y!, "up");
    expect((await entryIds()).slice(0, 2)).toEqual([y, x]);
    const published = await getPublishedFaq(t.db);
    expect(published.sections[0]!.entries.slice(0, 2).map((e) => e.id)).toEqual([y, x]);
    await expect(moveFaqEntry(t.db, member, y!, "down")).rejects.toMatchObject({ code: "not_admin" });
  });

  it("the database refuses a blank question even past the domain", async () => {
    const [row] = await t.db.select().from(faqEntries).limit(1);
    await expect(t.db.update(faqEntries).set({ question: "  " }).where(eq(faqEntries.id, row!.id))).rejects.toThrow();
  });
});
