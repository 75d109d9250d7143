/**
 * Bad input in the admin area over HTTP (docs/product/moderation.md#suspension-and-mute, #reports,
 * #settings): an unknown member, a period in the past, a 10 000-character reason, an unknown role,
 * an already decided or deleted item, on the member page, the report queue, the log, the
 * settings and the ad slots — each refused with a Russian message on the page and, for a fetcher
 * (`.data`), `ok: false` with a stable code, and nothing changed.
 */
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { pageText, reportedWallEntry, signInStaff, wasStillOpen, type Actor } from "./admin-actors";
import { decodeHtml } from "./client";
import { member } from "./members";

let admin: Actor;
let moderator: Actor;

beforeAll(async () => {
  ({ admin, moderator } = await signInStaff());
});

/** Posts a form as a fetcher does (`.data`); returns the status and the decoded action data. */
async function fetcherPost(who: Actor, path: string, fields: Record<string, string>) {
  const response = await who.client.postForm(`${path}.data`, { csrf: who.csrf, ...fields });
  const decoded = await decodeViaTurboStream(response.body!, globalThis);
  await decoded.done;
  return { status: response.status, data: (decoded.value as { data: unknown }).data as Record<string, unknown> };
}

const noSanction = "Нет: участник может входить и публиковать.";

describe("the member page: bad input is refused in Russian and changes nothing", () => {
  it("an unknown member: the page is 404, a form posted at them is 404", async () => {
    const page = await admin.client.fetch("/admin/members/999999");
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Участник не найден");
    expect((await admin.client.fetch("/admin/members/abc")).status).toBe(404);
    const post = await admin.client.postForm("/admin/members/999999", { csrf: admin.csrf, intent: "sanction", kind: "suspend", period: "1d", reason: "Спам" });
    expect(post.status).toBe(404);
    expect(await post.text()).toContain("Участник не найден");
  });

  it("a period in the past, a 10 000-character reason, no reason, an unknown period", async () => {
    const target = await member();
    const path = `/admin/members/${target.id}`;
    const cases: [Record<string, string>, string][] = [
      [{ kind: "suspend", period: "until", until: "2020-01-01T10:00", reason: "Спам" }, "Срок должен заканчиваться в будущем"],
      [{ kind: "suspend", period: "1d", reason: "x".repeat(10_000) }, "Причина — не длиннее 1000 символов"],
      [{ kind: "mute", period: "1d", reason: "" }, "Укажите причину"],
      [{ kind: "mute", period: "2d", reason: "Спам" }, "Выберите срок"],
      [{ kind: "ban", period: "1d", reason: "Спам" }, "Выберите блокировку или режим «только чтение»"],
    ];
    for (const [fields, message] of cases) {
      const response = await admin.client.postForm(path, { csrf: admin.csrf, intent: "sanction", ...fields });
      expect(response.status, message).toBe(400);
      expect(await response.text(), message).toContain(message);
    }
    const page = await (await admin.client.fetch(path)).text();
    expect(page).toContain(noSanction);
    expect(page).toContain("Ограничений не было.");
    // The member can still open their pages: no sanction was written.
    expect((await target.client.fetch("/profile")).status).toBe(200);
  });

  it("an unknown role, a role already held, a role not held", async () => {
    const target = await member();
    const path = `/admin/members/${target.id}`;
    const unknown = await admin.client.postForm(path, { csrf: admin.csrf, intent: "grant", rank: "SUPERUSER" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Такой роли нет");
    const notHeld = await admin.client.postForm(path, { csrf: admin.csrf, intent: "revoke", rank: "MODERATOR" });
    expect(notHeld.status).toBe(409);
    expect(await notHeld.text()).toContain("У участника нет роли «Модератор»");
    expect(await (await admin.client.fetch(path)).text()).toContain('data-testid="member-role">Участник<');
  });

  it("lifting a sanction already lifted is 409 and writes nothing", async () => {
    const target = await member();
    const path = `/admin/members/${target.id}`;
    expect((await admin.client.postForm(path, { csrf: admin.csrf, intent: "sanction", kind: "mute", period: "1d", reason: "Флуд" })).status).toBe(302);
    const sanctionId = /name="sanctionId" value="(\d+)"/.exec(await (await admin.client.fetch(path)).text())![1]!;
    expect((await admin.client.postForm(path, { csrf: admin.csrf, intent: "lift", sanctionId })).status).toBe(302);
    const again = await admin.client.postForm(path, { csrf: admin.csrf, intent: "lift", sanctionId });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Это ограничение уже снято или закончилось");
    const gone = await admin.client.postForm(path, { csrf: admin.csrf, intent: "lift", sanctionId: "999999" });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain("Ограничение не найдено");
    const log = await (await admin.client.fetch(`/admin/log?targetUser=${target.username}&action=sanction.lift`)).text();
    expect(log.match(/data-testid="audit-entry"/g)).toHaveLength(1);
  });

  it("the log: an unknown member or a bad date is a message, not an error page", async () => {
    const unknown = await moderator.client.fetch("/admin/log?actor=nobody_here_at_all");
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toContain("Участник не найден");
    const badDate = await moderator.client.fetch("/admin/log?from=31.12.2026");
    expect(badDate.status).toBe(200);
    expect(await badDate.text()).toContain("Дата — в виде ГГГГ-ММ-ДД");
    const reversed = await moderator.client.fetch("/admin/log?from=2026-11-20&to=2026-11-01");
    expect(await reversed.text()).toContain("Начало периода должно быть раньше конца");
    const filtered = (await (await moderator.client.fetch("/admin/log?action=role.grant")).text()).replace(/<!-- -->/g, "");
    const entries = [...filtered.matchAll(/data-testid="audit-entry"(.*?)<\/li>/gs)].map((m) => m[1]!);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry).toContain("выдал роль");
  });

  it("the members' filter: a query too long is a message; the role filter narrows the list", async () => {
    const long = await moderator.client.fetch(`/admin/members?q=${"a".repeat(150)}`);
    expect(long.status).toBe(200);
    expect(await long.text()).toContain("Запрос — не длиннее 100 символов");
    const moderators = await (await moderator.client.fetch("/admin/members?role=moderator")).text();
    expect(moderators).toContain(">dark_knight77<");
    expect(moderators).not.toContain(">demo<");
    const muted = await (await moderator.client.fetch("/admin/members?muted=1")).text();
    expect(muted).toContain("Только чтение");
  });

  it("settings: a background that is not a link and rules over 20 000 characters are refused", async () => {
    const before = await (await admin.client.fetch("/api/settings/mainPageBackground")).json();
    const background = await admin.client.postForm("/admin/settings", { csrf: admin.csrf, intent: "background", value: "javascript:alert(1)" });
    expect(background.status).toBe(400);
    expect(await background.text()).toContain("Укажите ссылку https://… или путь /images/…");
    expect(await (await admin.client.fetch("/api/settings/mainPageBackground")).json()).toEqual(before);
    const rules = await admin.client.postForm("/admin/settings", { csrf: admin.csrf, intent: "rules", rules: "п".repeat(20_001) });
    expect(rules.status).toBe(400);
    expect(await rules.text()).toContain("Правила — не длиннее 20 000 символов");
    const unknown = await admin.client.postForm("/admin/settings", { csrf: admin.csrf, intent: "registration", registrationOpen: "maybe" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Выберите значение");
  });
});

describe("the report queue: bad input is refused in Russian, with a stable code, and changes nothing", () => {
  it("an unknown item, a period in the past, a 10 000-character reason, no reason, an unknown outcome", async () => {
    const author = await member();
    const { card } = await reportedWallEntry(author);
    const cases: [Record<string, string>, number, string, string][] = [
      [{ ...card, targetId: "999999999", intent: "wall_post:999999999", outcome: "dismiss" }, 404, "Жалоб на это нет", "report_not_found"],
      [
        { ...card, outcome: "suspend", period: "until", until: "2020-01-01T10:00", reason: "Спам" },
        400,
        "Срок должен заканчиваться в будущем",
        "invalid_period",
      ],
      [{ ...card, outcome: "mute", period: "1d", reason: "x".repeat(10_000) }, 400, "Причина — не длиннее 1000 символов", "validation_failed"],
      [{ ...card, outcome: "suspend", period: "1d" }, 400, "Укажите причину: её увидит участник", "validation_failed"],
      [{ ...card, outcome: "burn" }, 400, "Выберите решение", "validation_failed"],
    ];
    for (const [fields, status, message, code] of cases) {
      const page = await moderator.client.postForm("/admin/reports", { csrf: moderator.csrf, ...fields });
      expect(page.status, code).toBe(status);
      expect(await pageText(page), code).toContain(message);
      const fetched = await fetcherPost(moderator, "/admin/reports", fields);
      expect(fetched.status, code).toBe(status);
      expect(fetched.data, code).toMatchObject({ ok: false, code, intent: fields.intent });
      expect(JSON.stringify(fetched.data), code).toContain(message);
    }
    // Nothing changed: the author may still publish, and the reports were still open.
    expect(await pageText(await moderator.client.fetch(`/admin/members/${author.id}`))).toContain(noSanction);
    expect(await wasStillOpen(moderator, card)).toBe(true);
  });

  it("an item already deleted by a moderator: the queue says it was decided, /moderation that it is deleted", async () => {
    const author = await member();
    const { id, card } = await reportedWallEntry(author);
    const del = { intent: "delete", type: "wall_post", id: String(id) };
    expect((await moderator.client.postForm("/moderation", { csrf: moderator.csrf, ...del })).status).toBe(302);
    const decided = await fetcherPost(admin, "/admin/reports", { ...card, outcome: "mute", period: "1d", reason: "Флуд" });
    expect(decided.status).toBe(409);
    expect(decided.data).toMatchObject({ ok: false, code: "reports_already_resolved" });
    expect(JSON.stringify(decided.data)).toContain("Эти жалобы уже рассмотрены");
    const again = await admin.client.postForm("/moderation", { csrf: admin.csrf, ...del });
    expect(again.status).toBe(409);
    expect(await pageText(again)).toContain("Это уже удалено модератором");
    // The refused mute was not applied.
    expect(await pageText(await moderator.client.fetch(`/admin/members/${author.id}`))).toContain(noSanction);
  });

  it("the member page answers a fetcher with the same stable codes", async () => {
    const target = await member();
    const path = `/admin/members/${target.id}`;
    const cases: [string, Record<string, string>, number, string][] = [
      ["/admin/members/999999", { intent: "sanction", kind: "suspend", period: "1d", reason: "Спам" }, 404, "member_not_found"],
      [path, { intent: "sanction", kind: "suspend", period: "until", until: "2020-01-01T10:00", reason: "Спам" }, 400, "invalid_period"],
      [path, { intent: "sanction", kind: "mute", period: "1d", reason: "x".repeat(10_000) }, 400, "validation_failed"],
      [path, { intent: "grant", rank: "SUPERUSER" }, 400, "validation_failed"],
      [path, { intent: "revoke", rank: "MODERATOR" }, 409, "role_not_held"],
    ];
    for (const [where, fields, status, code] of cases) {
      const fetched = await fetcherPost(admin, where, fields);
      expect([fetched.status, fetched.data.ok, fetched.data.code], code).toEqual([status, false, code]);
    }
    const page = await pageText(await admin.client.fetch(path));
    expect(page).toContain(noSanction);
    expect(page).toContain('data-testid="member-role">Участник<');
  });
});

describe("ad slots: bad input is refused in Russian and nothing changes", () => {
  it("a long name, no price, a feed slot without its position, an unknown slot", async () => {
    const page = await (await admin.client.fetch("/admin/ads")).text();
    const slotsBefore = page.match(/data-testid="ad-slot"/g)?.length ?? 0;
    const refusals: [Record<string, string>, string][] = [
      [{ name: "д".repeat(10_000), placement: "sidebar", pricePerDay: "100", capacity: "1" }, "Название — от 2 до 80 символов"],
      [{ name: "Без цены", placement: "sidebar", pricePerDay: "", capacity: "1" }, "Цена за день — от 1 до 1 000 000 ₽"],
      [
        { name: "Лента", placement: "feed", feedPosition: "", pricePerDay: "100", capacity: "1" },
        "Для места в ленте укажите, после скольких постов его показывать",
      ],
      [{ name: "Много", placement: "header", pricePerDay: "100", capacity: "500" }, "Одновременно — от 1 до 20 объявлений"],
      [{ name: "Всплывающее", placement: "popup", pricePerDay: "100", capacity: "1" }, "Выберите, где показывать рекламу"],
    ];
    for (const [fields, message] of refusals) {
      const response = await admin.client.postForm("/admin/ads/slots/new", { csrf: admin.csrf, intent: "slot-save", ...fields });
      expect(response.status, message).toBe(400);
      expect(decodeHtml(await response.text()), message).toContain(message);
    }
    const after = await (await admin.client.fetch("/admin/ads")).text();
    expect(after.match(/data-testid="ad-slot"/g)?.length ?? 0).toBe(slotsBefore);

    const unknown = await admin.client.postForm("/admin/ads/slots/999999", {
      csrf: admin.csrf,
      intent: "slot-save",
      name: "Нет",
      placement: "sidebar",
      pricePerDay: "1",
      capacity: "1",
    });
    expect(unknown.status).toBe(404);
    expect((await admin.client.fetch("/admin/ads/slots/abc")).status).toBe(404);
  });
});
