/**
 * The admin area over HTTP (docs/product/moderation.md#admin-pages): an authorisation table over
 * every page and form of /admin — visitor, member, the member concerned, moderator, admin — and
 * bad input on the member page, the log and the settings refused in Russian with nothing changed.
 * Also: a suspended member's sign-in says why and until when, and /faq shows the site rules.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  adminOnly,
  caller,
  expectOutcome,
  moderatorOnly,
  reportedWallEntry,
  SIGN_IN,
  signInStaff,
  wasStillOpen,
  type Actor,
  type Expected,
  type Who,
} from "./admin-actors";
import { Client, csrfFromHtml, decodeHtml } from "./client";
import { member, type Member } from "./members";

let admin: Actor;
let moderator: Actor;

beforeAll(async () => {
  ({ admin, moderator } = await signInStaff());
});

/** The site rules as /admin/settings shows them in its form. */
async function currentRules(): Promise<string> {
  const html = await (await admin.client.fetch("/admin/settings")).text();
  return decodeHtml(/<textarea[^>]*name="rules"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? "");
}

/** The main-page background (null when none). */
async function currentBackground(): Promise<string | null> {
  return ((await (await admin.client.fetch("/api/settings/mainPageBackground")).json()) as { data: { value: string | null } }).data.value;
}

const moderatorPage: Expected = { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 200, admin: 200 };
const adminPage: Expected = { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 403, admin: 200 };

function as(who: Who, concerned: Member, other: Member): Actor {
  return caller(who, { concerned, other, moderator, admin });
}

describe("who may open the admin pages", () => {
  const pages: [string, Expected][] = [
    ["/admin", moderatorPage],
    ["/admin/members", moderatorPage],
    ["/admin/members/{concerned}", moderatorPage],
    ["/admin/reports", moderatorPage],
    ["/admin/log", moderatorPage],
    ["/admin/settings", adminPage],
    ["/admin/stats", adminPage],
    ["/admin/stats?days=90", adminPage],
    ["/admin/music", adminPage],
    ["/admin/faq", adminPage],
    ["/admin/ads", adminPage],
    ["/admin/ads/slots/new", adminPage],
    ["/admin/ads/slots/1", adminPage],
  ];
  let concerned: Member;
  let other: Member;
  beforeAll(async () => {
    [concerned, other] = await Promise.all([member(), member()]);
  });

  for (const [path, expected] of pages) {
    it(`GET ${path}`, async () => {
      for (const who of Object.keys(expected) as Who[]) {
        const actor = as(who, concerned, other);
        const response = await actor.client.fetch(path.replace("{concerned}", String(concerned.id)));
        expectOutcome(response, expected[who], `${who} GET ${path}`);
        const html = await response.text();
        if (expected[who] === 403) expect(html, `${who} GET ${path}`).toMatch(/только (модераторам|администраторам)/);
      }
    });
  }

  it("the header links «Администрирование» for moderators and admins only", async () => {
    const link = /href="\/admin"[^>]*>(?:(?!<\/a>).)*Администрирование/s;
    expect(await (await new Client().fetch("/")).text()).not.toMatch(link);
    expect(await (await other.client.fetch("/")).text()).not.toMatch(link);
    expect(await (await moderator.client.fetch("/")).text()).toMatch(link);
    expect(await (await admin.client.fetch("/")).text()).toMatch(link);
  });

  it("the navigation shows settings and stats to admins only", async () => {
    const modHtml = await (await moderator.client.fetch("/admin")).text();
    expect(modHtml).toContain('href="/admin/log"');
    // The dashboard: the counts and the latest audit entries.
    expect(modHtml).toContain("Материалы с жалобами");
    expect(modHtml).toContain("Последние действия");
    expect(modHtml.match(/data-testid="audit-entry"/g)).toHaveLength(5);
    expect(modHtml).not.toContain('href="/admin/settings"');
    const adminHtml = await (await admin.client.fetch("/admin")).text();
    expect(adminHtml).toContain('href="/admin/settings"');
    expect(adminHtml).toContain('href="/admin/stats"');
  });
});

describe("who may act on the admin pages", () => {
  // Each form is posted by each role at a fresh member, so one row's change never meets another's.
  // `prepare` sets the scene and adds fields; `changed` says whether the post took effect. The
  // "member" row's caller is anyone else: refused everywhere, one such member serves every row.
  let other: Member;
  beforeAll(async () => {
    other = await member();
  });
  const forms: {
    name: string;
    path: (target: Member) => string;
    fields: Record<string, string>;
    expected: Expected;
    prepare?: (target: Member) => Promise<Record<string, string>>;
    changed?: (target: Member, fields: Record<string, string>) => Promise<boolean>;
  }[] = [
    {
      name: "mute a member",
      path: (target) => `/admin/members/${target.id}`,
      fields: { intent: "sanction", kind: "mute", period: "1d", reason: "Флуд" },
      expected: { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 302, admin: 302 },
    },
    {
      name: "suspend a member",
      path: (target) => `/admin/members/${target.id}`,
      fields: { intent: "sanction", kind: "suspend", period: "forever", reason: "Мошенничество" },
      expected: { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 302, admin: 302 },
    },
    {
      name: "grant VERIFIED",
      path: (target) => `/admin/members/${target.id}`,
      fields: { intent: "grant", rank: "VERIFIED" },
      expected: { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 403, admin: 302 },
    },
    {
      name: "grant MODERATOR",
      path: (target) => `/admin/members/${target.id}`,
      fields: { intent: "grant", rank: "MODERATOR" },
      expected: { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 403, admin: 302 },
    },
    {
      name: "revoke MODERATOR",
      path: (target) => `/admin/members/${target.id}`,
      fields: { intent: "revoke", rank: "MODERATOR" },
      expected: adminOnly,
      // The member concerned is a moderator here: still not theirs to revoke.
      async prepare(target) {
        expect((await admin.client.postForm(`/admin/members/${target.id}`, { csrf: admin.csrf, intent: "grant", rank: "MODERATOR" })).status).toBe(302);
        return {};
      },
      changed: async (target) => !(await (await admin.client.fetch(`/admin/members/${target.id}`)).text()).includes('data-testid="member-role">Модератор<'),
    },
    {
      name: "save the site rules (unchanged text)",
      path: () => "/admin/settings",
      fields: { intent: "rules" },
      expected: adminOnly,
      prepare: async () => ({ rules: await currentRules() }),
    },
    {
      name: "save the main-page background (unchanged)",
      path: () => "/admin/settings",
      fields: { intent: "background" },
      expected: adminOnly,
      prepare: async () => ({ value: (await currentBackground()) ?? "" }),
    },
    ...(["dismiss", "delete", "suspend", "mute"] as const).map((outcome) => ({
      name: `decide a queue card: ${outcome}`,
      path: () => "/admin/reports",
      fields: { outcome, ...(outcome === "suspend" || outcome === "mute" ? { reason: "Оскорбления", period: "1d" } : {}) },
      expected: moderatorOnly,
      // The member concerned is the entry's author.
      prepare: async (target: Member) => (await reportedWallEntry(target)).card,
      changed: async (_target: Member, fields: Record<string, string>) => !(await wasStillOpen(moderator, fields)),
    })),
    {
      name: "open registration",
      path: () => "/admin/settings",
      fields: { intent: "registration", registrationOpen: "open" },
      expected: { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 403, admin: 302 },
    },
    {
      name: "add an ad slot",
      path: () => "/admin/ads/slots/new",
      fields: { intent: "slot-save", name: "Проверка прав", placement: "sidebar", pricePerDay: "100", capacity: "1" },
      expected: { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 403, admin: 302 },
    },
  ];

  for (const form of forms) {
    it(`POST ${form.name}`, async () => {
      for (const who of Object.keys(form.expected) as Who[]) {
        const target = await member();
        const fields = { ...form.fields, ...(await form.prepare?.(target)) };
        const actor = as(who, target, other);
        const response = await actor.client.postForm(form.path(target), { csrf: actor.csrf, ...fields });
        expectOutcome(response, form.expected[who], `${who} ${form.name}`);
        if (form.changed) expect(await form.changed(target, fields), `${who} ${form.name}: changed`).toBe(form.expected[who] === 302);
      }
    });
  }

  it("lifting a sanction: members are refused, moderators and admins may", async () => {
    for (const who of ["visitor", "member", "concerned", "moderator", "admin"] as Who[]) {
      const target = await member();
      expect(
        (
          await moderator.client.postForm(`/admin/members/${target.id}`, {
            csrf: moderator.csrf,
            intent: "sanction",
            kind: "mute",
            period: "7d",
            reason: "Флуд",
          })
        ).status,
      ).toBe(302);
      const sanctionId = /name="sanctionId" value="(\d+)"/.exec(await (await admin.client.fetch(`/admin/members/${target.id}`)).text())![1]!;
      const actor = as(who, target, other);
      const response = await actor.client.postForm(`/admin/members/${target.id}`, { csrf: actor.csrf, intent: "lift", sanctionId });
      const expected: Expected = { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 302, admin: 302 };
      expectOutcome(response, expected[who], `${who} lift`);
    }
  });

  it("a moderator may not restrict another moderator; an admin can never be restricted", async () => {
    const colleague = await member();
    expect((await admin.client.postForm(`/admin/members/${colleague.id}`, { csrf: admin.csrf, intent: "grant", rank: "MODERATOR" })).status).toBe(302);
    const byModerator = await moderator.client.postForm(`/admin/members/${colleague.id}`, {
      csrf: moderator.csrf,
      intent: "sanction",
      kind: "mute",
      period: "1d",
      reason: "Флуд",
    });
    expect(byModerator.status).toBe(403);
    expect(await byModerator.text()).toContain("Ограничить модератора может только администратор");
    const adminId = /href="\/admin\/members\/(\d+)"[^>]*>admin</.exec(await (await moderator.client.fetch("/admin/members?role=admin")).text())![1]!;
    const onAdmin = await moderator.client.postForm(`/admin/members/${adminId}`, {
      csrf: moderator.csrf,
      intent: "sanction",
      kind: "suspend",
      period: "1d",
      reason: "Проверка",
    });
    expect(onAdmin.status).toBe(403);
    expect(await onAdmin.text()).toContain("Администратора нельзя ограничить");
  });
});

describe("a suspended member", () => {
  it("is signed out at once, and the sign-in page says why and until when", async () => {
    const client = new Client();
    const { username, password } = await client.register();
    const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number };
    const response = await admin.client.postForm(`/admin/members/${me.id}`, {
      csrf: admin.csrf,
      intent: "sanction",
      kind: "suspend",
      period: "until",
      until: "2099-05-01T12:00",
      reason: "Продажа краденых аккаунтов",
    });
    expect(response.status).toBe(302);
    // Their session is gone: a private page sends them to sign in.
    expect((await client.fetch("/profile")).status).toBe(302);
    const page = await (await client.fetch("/auth/login")).text();
    const refused = await client.postForm("/auth/login", { csrf: csrfFromHtml(page), email: username, password, redirect: "" });
    expect(refused.status).toBe(403);
    const text = (await refused.text()).replace(/<!-- -->/g, "");
    expect(text).toContain("Ваша учётная запись заблокирована до 1 мая 2099 г. в 12:00 (МСК). Причина: Продажа краденых аккаунтов");
    expect((await client.fetch("/profile")).status).toBe(302);
    // The member page shows it, and the log has it.
    const memberPage = (await (await moderator.client.fetch(`/admin/members/${me.id}`)).text()).replace(/<!-- -->/g, "");
    expect(memberPage).toContain("Блокировка до 1 мая 2099 г. в 12:00");
    const log = await (await moderator.client.fetch(`/admin/log?targetUser=${username}`)).text();
    expect(log).toContain("Продажа краденых аккаунтов");
  });
});

describe("/faq", () => {
  it("shows the site rules written at /admin/settings", async () => {
    const html = await (await new Client().fetch("/faq")).text();
    expect(html).toContain('data-testid="site-rules"');
    expect(html).toContain("Правила сайта");
  });
});
