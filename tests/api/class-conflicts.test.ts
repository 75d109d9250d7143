/**
 * No page carries two Tailwind utilities that set the same thing on one element (decision 0045):
 * the site joins class names without merging them, so such a pair would look as the stylesheet's
 * order decides. Checked on the pages a visitor, a member, a moderator and an admin open, as the
 * server renders them; the journeys check the page each one ends on in the browser.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { classConflicts } from "../setup/class-conflicts";
import { signInStaff, type Actor } from "./admin-actors";
import { Client, decodeHtml } from "./client";
import { member } from "./members";

/** The class attributes of a server-rendered page. */
function classesOf(html: string): string[] {
  return [...html.matchAll(/\sclass="([^"]*)"/g)].map((match) => decodeHtml(match[1]!));
}

describe("the check itself", () => {
  it("finds repeated and overriding utilities, and lets a caller's utilities override a component's class", () => {
    expect(classConflicts(["menu-content p-1 p-0", "gap-1.5 text-muted-foreground text-primary", "size-5 size-4", "flex flex"])).toEqual([
      '"menu-content p-1 p-0" (drops p-1)',
      '"gap-1.5 text-muted-foreground text-primary" (drops text-muted-foreground)',
      '"size-5 size-4" (drops size-5)',
      '"flex flex" (drops flex)',
    ]);
    expect(classConflicts(["input h-11 pl-9", "btn btn-ghost btn-sm gap-1.5 text-primary", "px-3 md:px-4 hover:bg-accent bg-card"])).toEqual([]);
  });
});

describe("pages as the server renders them", () => {
  const everyone = ["/", "/articles", "/faq", "/music", "/search?q=продам", "/leaderboard", "/blacklist", "/post/1", "/profile/1", "/ads", "/no/such/page"];
  const members = [
    "/profile",
    "/profile/posts",
    "/profile/wallet",
    "/profile/deposit",
    "/profile/notifications",
    "/profile/bookmarks",
    "/profile/history",
    "/profile/achievements",
    "/profile/settings",
    "/profile/conversations",
    "/services/guarantor",
    "/posts/new",
    "/claims",
    "/claims/new",
    "/chatgpt",
    "/report?type=post&id=1",
  ];
  const staffPages = ["/admin", "/admin/members", "/admin/members/1", "/admin/reports", "/admin/log"];
  const adminPages = ["/admin/settings", "/admin/stats", "/admin/music", "/admin/faq", "/admin/ads", "/admin/ads/slots/new"];
  let moderator: Actor;
  let admin: Actor;
  beforeAll(async () => {
    ({ moderator, admin } = await signInStaff());
  });

  async function conflictsOn(client: Client, paths: string[]): Promise<Record<string, string[]>> {
    const found: Record<string, string[]> = {};
    for (const path of paths) {
      const response = await client.fetch(path);
      expect([200, 404], path).toContain(response.status);
      const conflicts = classConflicts(classesOf(await response.text()));
      if (conflicts.length > 0) found[path] = conflicts;
    }
    return found;
  }

  it("a visitor's", async () => {
    expect(await conflictsOn(new Client(), [...everyone, "/auth/login", "/auth/register", "/auth/password/forgot"])).toEqual({});
  });

  it("a member's", async () => {
    expect(await conflictsOn((await member()).client, [...everyone, ...members])).toEqual({});
  });

  it("a moderator's and an admin's", async () => {
    expect(await conflictsOn(moderator.client, [...staffPages, "/post/1"])).toEqual({});
    expect(await conflictsOn(admin.client, [...staffPages, ...adminPages, "/"])).toEqual({});
  });
});
