/**
 * Members for HTTP tests of conversations and realtime: registered through the site's own
 * forms, with their id, apiToken and the CSRF token their page forms (and the X-CSRF-Token
 * header) use; groups created and messages sent the way a member's browser does.
 */
import { expect } from "vitest";
import type { MessageDto } from "~/domain/conversations/types";
import { Client } from "./client";

export interface Member {
  client: Client;
  id: number;
  username: string;
  apiToken: string;
  /** The CSRF token of the member's page forms, also accepted in the X-CSRF-Token header. */
  csrf: string;
}

/**
 * Registers a new member on the test server (or on `baseUrl`). The CSRF token is the
 * registration form's (the cookie behind it outlives the sign-in), so no page is rendered only
 * for it; the first form the member posts proves it.
 */
export async function member(baseUrl?: string): Promise<Member> {
  const client = new Client(baseUrl);
  const { username, csrf } = await client.register();
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number; apiToken: string };
  return { client, id: me.id, username, apiToken: me.apiToken, csrf };
}

/** Creates a group owned by `owner` with `invited` as members, through the conversations page's forms; returns its id. */
export async function createGroup(owner: Member, name: string, invited: Member[]): Promise<number> {
  const created = await owner.client.postForm("/profile/conversations", { csrf: owner.csrf, intent: "create-group", name });
  expect(created.status).toBe(302);
  const id = Number(new URL(created.headers.get("Location")!, "http://x").searchParams.get("group"));
  expect(id).toBeGreaterThan(0);
  for (const guest of invited) {
    const invite = await owner.client.postForm(`/profile/conversations?group=${id}`, { csrf: owner.csrf, intent: "invite", username: guest.username });
    expect(invite.status).toBe(302);
  }
  return id;
}

/** The personal conversation of `who` with member `otherId` (GET …/personal/user/{id}). */
export async function personalWith(who: Member, otherId: number): Promise<number> {
  const response = await who.client.fetch(`/api/profile/conversation/personal/user/${otherId}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { id: number } }).data.id;
}

/** Sends a message through POST …/messages (CSRF in the header) and expects it accepted. */
export async function postMessage(author: Member, kind: "group" | "personal", conversationId: number, body: string, replyToId?: number): Promise<MessageDto> {
  const response = await author.client.fetch(`/api/profile/conversation/${kind}/${conversationId}/messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": author.csrf },
    body: JSON.stringify({ body, replyToId }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { data: MessageDto }).data;
}
