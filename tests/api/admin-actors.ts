/**
 * Who calls the admin area in its HTTP tests (docs/product/moderation.md#admin-pages): the demo
 * moderator and admin signed in with the CSRF token of their pages, the five callers of an
 * authorisation table (visitor, member, the member concerned, moderator, admin), and how each
 * expected answer is checked.
 */
import { expect } from "vitest";
import { Client, csrfFromHtml, decodeHtml } from "./client";
import { member as newMember, type Member } from "./members";

export interface Actor {
  client: Client;
  csrf: string;
}

export type Who = "visitor" | "member" | "concerned" | "moderator" | "admin";
export const SIGN_IN = "sign-in";
/** What each caller gets: a status, or SIGN_IN for the redirect to /auth/login. */
export type Expected = Record<Who, number | typeof SIGN_IN>;

export const moderatorOnly: Expected = { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 302, admin: 302 };
export const adminOnly: Expected = { visitor: SIGN_IN, member: 403, concerned: 403, moderator: 403, admin: 302 };

/** A demo staff account (app/db/seed) signed in, with the CSRF token of /admin. */
export async function staff(email: string, password: string): Promise<Actor> {
  const client = new Client();
  expect((await client.signIn(email, password)).status).toBeLessThan(400);
  const csrf = csrfFromHtml(await (await client.fetch("/admin")).text());
  expect(csrf).not.toBe("");
  return { client, csrf };
}

/** The demo moderator and admin. */
export async function signInStaff(): Promise<{ moderator: Actor; admin: Actor }> {
  const [moderator, admin] = await Promise.all([staff("moderator@shodka.local", "moder12345"), staff("admin@shodka.local", "admin12345")]);
  return { moderator, admin };
}

/** The caller `who` of a table row: `concerned` is the member the action is about, `other` anyone else. */
export function caller(who: Who, people: { concerned: Member; other: Member; moderator: Actor; admin: Actor }): Actor {
  switch (who) {
    case "visitor":
      return { client: new Client(), csrf: "" };
    case "member":
      return people.other;
    case "concerned":
      return people.concerned;
    case "moderator":
      return people.moderator;
    case "admin":
      return people.admin;
  }
}

export function expectOutcome(response: Response, expected: number | typeof SIGN_IN, label: string) {
  if (expected === SIGN_IN) {
    expect(response.status, label).toBe(302);
    expect(response.headers.get("Location"), label).toMatch(/^\/auth\/login\?redirect=/);
  } else {
    expect(response.status, label).toBe(expected);
  }
}

/** The text of a page without React's text separators and entities, for `toContain`. */
export async function pageText(response: Response): Promise<string> {
  return decodeHtml((await response.text()).replace(/<!-- -->/g, ""));
}

/**
 * `owner` writes a wall entry and a fresh member reports it (abuse); returns its id and the
 * fields of its card's form in /admin/reports (intent, targetType, targetId).
 */
export async function reportedWallEntry(owner: Member): Promise<{ id: number; card: Record<string, string> }> {
  const body = `Запись для очереди ${Math.random().toString(36).slice(2, 8)}`;
  expect((await owner.client.postForm(`/profile/${owner.id}/wall`, { csrf: owner.csrf, intent: "create", body })).status).toBe(302);
  const wall = (await (await new Client().fetch(`/api/profile/${owner.id}/wall`)).json()) as { data: { items: { id: number; body: string }[] } };
  const id = wall.data.items.find((entry) => entry.body === body)!.id;
  const reporter = await newMember();
  const fields = { targetType: "wall_post", targetId: String(id) };
  expect((await reporter.client.postForm(`/report?type=wall_post&id=${id}`, { csrf: reporter.csrf, ...fields, reason: "abuse" })).status).toBe(302);
  return { id, card: { intent: `wall_post:${id}`, ...fields } };
}

/**
 * Whether the card's reports were still open: `moderator` dismisses them, which succeeds (302)
 * only then and answers 409 «Эти жалобы уже рассмотрены» once they were decided. Decides them.
 */
export async function wasStillOpen(moderator: Actor, card: Record<string, string>): Promise<boolean> {
  const response = await moderator.client.postForm("/admin/reports", { csrf: moderator.csrf, ...card, outcome: "dismiss" });
  expect([302, 409]).toContain(response.status);
  return response.status === 302;
}
