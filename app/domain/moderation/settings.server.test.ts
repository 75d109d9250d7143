import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser, type UserRow } from "~/domain/users/users.server";
import { signInTelegramMember } from "~/lib/telegram/members.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { auditEntries, makeMember, refusal } from "../../../tests/setup/moderation";
import { getSiteRules, getSiteSettings, isRegistrationOpen, setMainPageBackground, setRegistrationOpen, setSiteRules } from "./settings.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeMember(t.db, "admin");
  moderator = await makeMember(t.db, "moderator");
});
afterAll(async () => {
  await t.destroy();
});

describe(`site settings on ${engine}`, () => {
  it("closes registration: new accounts are refused in Russian, Telegram creates none, linked members still sign in", async () => {
    const linked = await signInTelegramMember(t.db, { id: 77_000_001, username: null, firstName: "Ира", lastName: null, authDate: new Date() });
    expect(await setRegistrationOpen(t.db, admin.id, false, { reason: "Волна спам-регистраций" })).toEqual({ registrationOpen: false, changed: true });
    expect(await isRegistrationOpen(t.db)).toBe(false);

    const refused = await refusal(() => registerUser(t.db, { username: "latecomer", email: "late@example.test", password: "correct horse battery" }));
    expect([refused.status, refused.code, refused.message]).toEqual([
      403,
      "registration_closed",
      "Регистрация новых участников сейчас закрыта. Загляните позже.",
    ]);
    const viaTelegram = await refusal(() =>
      signInTelegramMember(t.db, { id: 77_000_002, username: null, firstName: "Олег", lastName: null, authDate: new Date() }),
    );
    expect(viaTelegram.code).toBe("registration_closed");
    expect((await signInTelegramMember(t.db, { id: 77_000_001, username: null, firstName: "Ира", lastName: null, authDate: new Date() })).user.id).toBe(
      linked.user.id,
    );

    expect(await setRegistrationOpen(t.db, admin.id, false)).toEqual({ registrationOpen: false, changed: false });
    await setRegistrationOpen(t.db, admin.id, true);
    expect((await registerUser(t.db, { username: "latecomer", email: "late@example.test", password: "correct horse battery" })).username).toBe("latecomer");
    const entries = await auditEntries(t.db, "settings.registration");
    expect(entries.map((e) => [e.details.from, e.details.to])).toEqual([
      [false, true],
      [true, false],
    ]);
    expect(entries[1]).toMatchObject({ actorId: admin.id, targetType: "setting", reason: "Волна спам-регистраций" });
  });

  it("keeps the site rules as Markdown and sanitised HTML for /faq", async () => {
    const rules = await setSiteRules(t.db, admin.id, "## Правила\n\n1. Сделки — только через гаранта.\n2. Без оскорблений.<script>alert(1)</script>");
    expect(rules.markdown).toContain("Сделки — только через гаранта.");
    expect(rules.html).toContain("<h2");
    expect(rules.html).not.toContain("<script");
    expect((await getSiteRules(t.db)).markdown).toBe(rules.markdown);
    expect((await auditEntries(t.db, "settings.rules"))[0]).toMatchObject({ actorId: admin.id, details: { fromLength: 0 } });
    const long = await refusal(() => setSiteRules(t.db, admin.id, "п".repeat(20_001)));
    expect([long.status, long.code]).toEqual([400, "invalid_rules"]);
    expect((await getSiteRules(t.db)).markdown).toBe(rules.markdown);
  });

  it("audits the main-page background and gathers every setting for /admin/settings", async () => {
    await setMainPageBackground(t.db, admin, "/images/backgrounds/new.svg");
    expect((await auditEntries(t.db, "settings.background"))[0]).toMatchObject({ actorId: admin.id, details: { from: "", to: "/images/backgrounds/new.svg" } });
    await setMainPageBackground(t.db, admin, "/images/backgrounds/new.svg");
    expect(await auditEntries(t.db, "settings.background")).toHaveLength(1);
    const all = await getSiteSettings(t.db, admin.id);
    expect(all).toMatchObject({ registrationOpen: true, mainPageBackground: "/images/backgrounds/new.svg" });
    expect(all.rules.markdown).toContain("## Правила");
  });

  it("is for admins only", async () => {
    for (const run of [
      () => setRegistrationOpen(t.db, moderator.id, false),
      () => setSiteRules(t.db, moderator.id, "Новые правила"),
      () => getSiteSettings(t.db, moderator.id),
    ]) {
      const error = await refusal(run);
      expect([error.status, error.code]).toEqual([403, "not_admin"]);
    }
    expect((await refusal(() => setMainPageBackground(t.db, moderator, "/x.svg"))).code).toBe("admin_only");
    expect(await isRegistrationOpen(t.db)).toBe(true);
  });
});
