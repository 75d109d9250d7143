/**
 * The wall, follows and blocks over HTTP: the JSON calls of docs/product/routes.md#json-calls (/api/profile/{id}/wall
 * and /wall/pinned) and the form actions /profile/{id}/wall, /follow and /block, each with
 * a signed-out caller, another member and the owner.
 */
import { describe, expect, it } from "vitest";
import { Client } from "./client";
import { member, type Member } from "./members";

const write = (who: Member, ownerId: number, body: string, extra: Record<string, string> = {}) =>
  who.client.postForm(`/profile/${ownerId}/wall`, { csrf: who.csrf, intent: "create", body, ...extra });

const act = (who: Member, ownerId: number, intent: "delete" | "pin" | "unpin", entryId: number, extra: Record<string, string> = {}) =>
  who.client.postForm(`/profile/${ownerId}/wall`, { csrf: who.csrf, intent, entryId: String(entryId), ...extra });

async function wall(ownerId: number, query = "") {
  return (await (await new Client().fetch(`/api/profile/${ownerId}/wall${query}`)).json()) as {
    data: { items: { id: number; body: string; author: { id: number }; pinned: boolean }[]; total: number; page: number; perPage: number };
  };
}

async function pinned(ownerId: number) {
  return ((await (await new Client().fetch(`/api/profile/${ownerId}/wall/pinned`)).json()) as { data: { id: number; body: string } | null }).data;
}

const visitor = () => new Client();

describe("GET /api/profile/{id}/wall and /wall/pinned", () => {
  it("answer the same entries to a visitor, another member and the owner; newest first, pinned apart", async () => {
    const owner = await member();
    const [a, b] = await Promise.all([member(), member()]);
    expect((await write(a, owner.id, "Первая запись **жирным**")).status).toBe(302);
    expect((await write(b, owner.id, "Вторая запись")).status).toBe(302);
    const first = (await wall(owner.id)).data.items.find((e) => e.body.startsWith("Первая"))!;
    expect((await act(owner, owner.id, "pin", first.id)).status).toBe(302);

    for (const caller of [visitor(), a.client, owner.client]) {
      const list = await caller.fetch(`/api/profile/${owner.id}/wall?page=1&perPage=5`);
      expect(list.status).toBe(200);
      const body = await list.json();
      expect(body).toMatchObject({ success: true, data: { page: 1, perPage: 5, total: 1 } });
      expect(body.data.items.map((e: { body: string }) => e.body)).toEqual(["Вторая запись"]);
      expect(body.data.items[0]).toMatchObject({ author: { id: b.id, username: b.username }, liked: false, pinned: false });
      expect(JSON.stringify(body)).not.toContain("email");

      const top = await caller.fetch(`/api/profile/${owner.id}/wall/pinned`);
      expect(top.status).toBe(200);
      expect(await top.json()).toMatchObject({ success: true, data: { id: first.id, pinned: true, html: expect.stringContaining("<strong>жирным</strong>") } });
    }
  });

  it("answer null for no pinned entry, 404 profile_not_found for unknown members, and clamp pages", async () => {
    const owner = await member();
    expect(await (await visitor().fetch(`/api/profile/${owner.id}/wall/pinned`)).json()).toEqual({ success: true, data: null });
    for (const bad of ["999999", "abc", "-1", "99999999999"]) {
      for (const path of [`/api/profile/${bad}/wall`, `/api/profile/${bad}/wall/pinned`]) {
        const response = await visitor().fetch(path);
        expect(response.status, path).toBe(404);
        expect((await response.json()).errors).toMatchObject({ code: "profile_not_found", message: "Пользователь не найден" });
      }
    }
    expect((await wall(owner.id, "?page=abc&perPage=1000")).data).toMatchObject({ page: 1, perPage: 50, total: 0 });
  });
});

describe("POST /profile/{id}/wall", () => {
  it("sends a visitor to sign in and writes nothing", async () => {
    const owner = await member();
    const response = await visitor().postForm(`/profile/${owner.id}/wall`, { intent: "create", body: "Аноним" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(`/profile/${owner.id}/wall`)}`);
    expect((await wall(owner.id)).data.total).toBe(0);
  });

  it("lets another member and the owner write; the page shows the entry", async () => {
    const owner = await member();
    const other = await member();
    const byOther = await write(other, owner.id, `Привет, @${owner.username}! Спасибо за сделку`);
    expect(byOther.status).toBe(302);
    expect(byOther.headers.get("Location")).toBe(`/profile/${owner.id}#wall`);
    expect((await write(owner, owner.id, "Пишу у себя")).status).toBe(302);
    const html = await (await visitor().fetch(`/profile/${owner.id}`)).text();
    expect(html).toContain("Пишу у себя");
    expect(html).toContain(`<a href="/profile/${owner.id}" class="mention">@${owner.username}</a>`);
    expect((await wall(owner.id)).data.items.map((e) => e.author.id)).toEqual([owner.id, other.id]);
  });

  it("refuses a member the owner blocked with 403 and a Russian message, and bad input with 400", async () => {
    const owner = await member();
    const other = await member();
    expect((await owner.client.postForm(`/profile/${other.id}/block`, { csrf: owner.csrf, intent: "block" })).status).toBe(302);
    const refused = await write(other, owner.id, "Я всё равно напишу");
    expect(refused.status).toBe(403);
    const page = await refused.text();
    expect(page).toContain("Владелец стены ограничил вам возможность писать на ней");
    expect(page).toContain("Я всё равно напишу"); // the text written is kept in the form

    const third = await member();
    const empty = await write(third, owner.id, "   ");
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Напишите текст записи");
    const long = await write(third, owner.id, "я".repeat(10_001));
    expect(long.status).toBe(400);
    expect(await long.text()).toMatch(/Запись — не длиннее 10.000 символов/);
    expect((await write(third, 99_999_999, "Кому?")).status).toBe(404);
    expect((await wall(owner.id)).data.total).toBe(0);
  });

  it("refuses a form without its CSRF token and a second entry within 5 seconds (429)", async () => {
    const owner = await member();
    const other = await member();
    expect((await other.client.postForm(`/profile/${owner.id}/wall`, { intent: "create", body: "Без токена" })).status).toBe(403);
    expect((await write(other, owner.id, "Первая")).status).toBe(302);
    const second = await write(other, owner.id, "Вторая");
    expect(second.status).toBe(429);
    expect(await second.text()).toContain("Писать на стене можно не чаще одного раза в 5 секунд");
    expect((await wall(owner.id)).data.items.map((e) => e.body)).toEqual(["Первая"]);
  });

  it("deletes: a stranger gets 403, the author and the owner may", async () => {
    const owner = await member();
    const [author, another, stranger] = await Promise.all([member(), member(), member()]);
    await write(author, owner.id, "Удалит автор");
    await write(another, owner.id, "Удалит владелец");
    const [byOwner, byAuthor] = (await wall(owner.id)).data.items;

    expect((await visitor().postForm(`/profile/${owner.id}/wall`, { intent: "delete", entryId: String(byAuthor!.id) })).status).toBe(302);
    const refused = await act(stranger, owner.id, "delete", byAuthor!.id);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Удалить запись может только её автор или владелец стены");
    expect((await wall(owner.id)).data.total).toBe(2);

    const deleted = await act(author, owner.id, "delete", byAuthor!.id, { back: `/profile/${owner.id}?wallPage=1` });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe(`/profile/${owner.id}?wallPage=1#wall`);
    expect((await act(owner, owner.id, "delete", byOwner!.id)).status).toBe(302);
    expect((await wall(owner.id)).data.total).toBe(0);
    expect((await act(owner, owner.id, "delete", byOwner!.id)).status).toBe(404);
  });

  it("acts only on entries of the wall in the address: another wall's entry is not found there", async () => {
    const [owner, otherOwner] = await Promise.all([member(), member()]);
    await write(owner, owner.id, "Моя запись");
    const [entry] = (await wall(owner.id)).data.items;
    expect((await act(owner, otherOwner.id, "delete", entry!.id)).status).toBe(404);
    expect((await act(owner, otherOwner.id, "pin", entry!.id)).status).toBe(404);
    expect((await wall(owner.id)).data.items.map((e) => e.id)).toEqual([entry!.id]);
  });

  it("pins: only the owner; pinning another replaces the pinned entry; unpin", async () => {
    const owner = await member();
    const [a, b] = await Promise.all([member(), member()]);
    await write(a, owner.id, "Запись А");
    await write(b, owner.id, "Запись Б");
    const [entryB, entryA] = (await wall(owner.id)).data.items;

    expect((await act(a, owner.id, "pin", entryA!.id)).status).toBe(403);
    expect(await pinned(owner.id)).toBeNull();

    expect((await act(owner, owner.id, "pin", entryA!.id)).status).toBe(302);
    expect((await pinned(owner.id))?.body).toBe("Запись А");
    expect((await act(owner, owner.id, "pin", entryB!.id)).status).toBe(302);
    expect((await pinned(owner.id))?.body).toBe("Запись Б");
    expect((await wall(owner.id)).data.items.map((e) => e.body)).toEqual(["Запись А"]);

    const html = await (await visitor().fetch(`/profile/${owner.id}`)).text();
    expect(html.indexOf("Запись Б")).toBeLessThan(html.indexOf("Запись А"));
    expect(html).toContain("Закреплено");

    expect((await act(owner, owner.id, "unpin", entryB!.id)).status).toBe(302);
    expect(await pinned(owner.id)).toBeNull();
    expect((await act(owner, owner.id, "pin", 0)).status).toBe(400);
  });

  it("answers a fetcher (single-fetch .data, via=fetcher) with data instead of a redirect, refusals too", async () => {
    const owner = await member();
    const other = await member();
    const fetcherPost = (fields: Record<string, string>) =>
      other.client.postForm(`/profile/${owner.id}/wall.data`, { csrf: other.csrf, via: "fetcher", ...fields });
    const written = await fetcherPost({ intent: "create", body: "С JavaScript" });
    expect(written.status).toBe(200);
    expect(written.headers.get("Location")).toBeNull();
    expect((await wall(owner.id)).data.items.map((e) => e.body)).toEqual(["С JavaScript"]);
    const [entry] = (await wall(owner.id)).data.items;
    const refused = await fetcherPost({ intent: "pin", entryId: String(entry!.id) });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Закреплять записи может только владелец стены");
  });
});

describe("POST /profile/{id}/follow and /block", () => {
  const followerCount = async (profileId: number) => {
    const html = await (await visitor().fetch(`/profile/${profileId}`)).text();
    return Number(/data-testid="followers-count">([\d\s]+)</.exec(html)?.[1]);
  };

  it("follow: a visitor signs in first, the owner cannot follow themself, another member follows and unfollows", async () => {
    const owner = await member();
    const other = await member();
    const anonymous = await visitor().postForm(`/profile/${owner.id}/follow`, { intent: "follow" });
    expect(anonymous.headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(`/profile/${owner.id}/follow`)}`);

    const self = await owner.client.postForm(`/profile/${owner.id}/follow`, { csrf: owner.csrf, intent: "follow" });
    expect(self.status).toBe(400);
    expect(await self.text()).toContain("Нельзя подписаться на самого себя");

    const followed = await other.client.postForm(`/profile/${owner.id}/follow`, { csrf: other.csrf, intent: "follow", back: `/profile/${owner.id}` });
    expect(followed.status).toBe(302);
    expect(followed.headers.get("Location")).toBe(`/profile/${owner.id}`);
    expect(await followerCount(owner.id)).toBe(1);
    // Following twice changes nothing.
    expect((await other.client.postForm(`/profile/${owner.id}/follow`, { csrf: other.csrf, intent: "follow" })).status).toBe(302);
    expect(await followerCount(owner.id)).toBe(1);
    const ownPage = await (await other.client.fetch(`/profile/${owner.id}`)).text();
    expect(ownPage).toContain("Отписаться");

    // Without an intent the form toggles.
    expect((await other.client.postForm(`/profile/${owner.id}/follow`, { csrf: other.csrf })).status).toBe(302);
    expect(await followerCount(owner.id)).toBe(0);
    expect((await other.client.postForm(`/profile/${owner.id}/follow`, { csrf: other.csrf, intent: "nonsense" })).status).toBe(400);
    expect((await other.client.postForm(`/profile/999999999/follow`, { csrf: other.csrf, intent: "follow" })).status).toBe(404);
    expect((await other.client.postForm(`/profile/${owner.id}/follow`, { intent: "follow" })).status).toBe(403);
  });

  it("block: a visitor signs in first, the owner cannot block themself; blocking ends follows and the wall", async () => {
    const owner = await member();
    const other = await member();
    expect((await visitor().postForm(`/profile/${other.id}/block`, { intent: "block" })).headers.get("Location")).toMatch(/^\/auth\/login\?redirect=/);
    const self = await owner.client.postForm(`/profile/${owner.id}/block`, { csrf: owner.csrf, intent: "block" });
    expect(self.status).toBe(400);
    expect(await self.text()).toContain("Нельзя заблокировать самого себя");

    await other.client.postForm(`/profile/${owner.id}/follow`, { csrf: other.csrf, intent: "follow" });
    expect(await followerCount(owner.id)).toBe(1);
    const blocked = await owner.client.postForm(`/profile/${other.id}/block`, { csrf: owner.csrf, intent: "block" });
    expect(blocked.status).toBe(302);
    expect(await followerCount(owner.id)).toBe(0);
    const seenByBlocked = await (await other.client.fetch(`/profile/${owner.id}`)).text();
    expect(seenByBlocked).toContain("Владелец стены ограничил вам возможность писать на ней");
    expect(seenByBlocked).not.toContain("Написать на стене");

    const refollow = await other.client.postForm(`/profile/${owner.id}/follow`, { csrf: other.csrf, intent: "follow" });
    expect(refollow.status).toBe(403);
    expect(await refollow.text()).toContain("Участник ограничил вам доступ");

    expect((await owner.client.postForm(`/profile/${other.id}/block`, { csrf: owner.csrf, intent: "unblock" })).status).toBe(302);
    expect((await write(other, owner.id, "Снова можно")).status).toBe(302);
  });

  it("the profile page shows visitors a sign-in link and the owner no buttons", async () => {
    const owner = await member();
    const asVisitor = await (await visitor().fetch(`/profile/${owner.id}`)).text();
    expect(asVisitor).toContain("Войдите, чтобы подписаться");
    expect(asVisitor).not.toContain("Написать на стене");
    const asOwner = await (await owner.client.fetch(`/profile/${owner.id}`)).text();
    expect(asOwner).not.toContain("Подписаться");
    expect(asOwner).not.toContain("Заблокировать");
    expect(asOwner).toContain("Написать на стене");
  });
});
