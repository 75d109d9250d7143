/**
 * Conversations in the browser (issue 4 items 1 and 5): two members in two browser contexts.
 * With JavaScript the second member sees the toast, the title counter and the unread badge
 * change without reloading, and replies arrive live — one member over the websocket, the other
 * over server-sent events after his websocket was refused; without it every form posts,
 * redirects and shows the result, and the badges are rendered by the server.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, newMember, registerMember, test, type Member, openContext } from "./fixtures";

/** With JavaScript, waits until the form is hydrated (it then carries via=fetcher). */
async function hydrated(form: Locator, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await expect(form.locator('input[name="via"]')).toBeAttached();
}

/** Waits until the page's live connection listens on `channel` (JavaScript only). */
async function listening(page: Page, channel: string) {
  await expect(page.getByTestId("realtime-status")).toHaveAttribute("data-channels", new RegExp(`(^| )${channel}( |$)`));
}

/** Loader requests (`….data` GETs: revalidations, client navigations) `page` makes from now on. */
function loaderRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname.endsWith(".data")) urls.push(request.url());
  });
  return urls;
}

/** Waits until the page's router has no fetcher nor revalidation under way. */
async function routerIdle(page: Page) {
  await page.waitForFunction(() => {
    type RouterState = { revalidation: string; fetchers: Map<string, { state: string }> };
    const router = (window as unknown as { __reactRouterDataRouter?: { state: RouterState } }).__reactRouterDataRouter;
    return router !== undefined && router.state.revalidation === "idle" && [...router.state.fetchers.values()].every((f) => f.state === "idle");
  });
}

async function send(page: Page, text: string, javaScriptEnabled: boolean) {
  const composer = page.getByTestId("composer");
  await hydrated(composer, javaScriptEnabled);
  await composer.getByLabel("Сообщение").fill(text);
  await composer.getByRole("button", { name: "Отправить" }).click();
}

const messages = (page: Page) => page.getByTestId("message");

/**
 * Chooses `name` in a message's «⋯» menu (docs/product/conversations.md#message-actions): the
 * pointer over the message shows the «⋯», a click opens the menu (a `<details>`, so also without
 * JavaScript).
 */
async function messageAction(item: Locator, name: "Ответить" | "Изменить" | "Удалить") {
  await item.hover();
  await item.getByLabel("Действия с сообщением").click();
  await item.getByRole(name === "Удалить" ? "button" : "link", { name }).click();
}
/** The message whose own text (not a quote of it) is `text`. */
const message = (page: Page, text: string) => messages(page).filter({ has: page.getByTestId("message-body").getByText(text, { exact: true }) });

test("two members chat: «Написать», the live toast, title counter and badge, a reply, an edit and a deletion", async ({ page, browser, javaScriptEnabled }) => {
  const alice = await registerMember(page);
  const second = await openContext(browser);
  const pageB = second.page;
  // Bob's websocket is refused (as behind a proxy that drops upgrades): after 6 reconnects his
  // page falls back to server-sent events, while Alice's stays on the websocket.
  await pageB.context().routeWebSocket(/\/api\/ws$/, (ws) => ws.close({ code: 1011, reason: "недоступен" }));
  const bob = await registerMember(pageB);
  // Remember what Bob's page tries to play (docs/product/notifications.md#toasts-and-sound: the private-chat sound at volume 0.5).
  await pageB.addInitScript(() => {
    const played: { src: string; volume: number }[] = [];
    (window as unknown as { played: typeof played }).played = played;
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      played.push({ src: new URL(this.src).pathname, volume: this.volume });
      return play.call(this);
    };
  });

  await pageB.goto("/");
  const badgeB = pageB.getByTestId("conversations-badge");
  await expect(badgeB).toHaveAttribute("data-count", "0");
  if (javaScriptEnabled) {
    await expect(pageB.getByTestId("realtime-status")).toHaveAttribute("data-transport", "sse", { timeout: 20_000 });
    await listening(pageB, "notifications");
    await pageB.evaluate(() => ((window as unknown as { stillThere: boolean }).stillThere = true));
  }

  // Alice starts the conversation from Bob's profile.
  await page.goto(`/profile/${bob.id}`);
  await page.getByRole("button", { name: "Написать", exact: true }).click();
  await expect(page).toHaveURL(/\/profile\/conversations\?personal=\d+$/);
  await expect(page.getByTestId("conversation-title")).toHaveText(bob.username);
  await expect(page.getByText("Сообщений пока нет")).toBeVisible();
  const conversationUrl = page.url();
  if (javaScriptEnabled) {
    await listening(page, `conversation:personal:${new URL(conversationUrl).searchParams.get("personal")}`);
    // REALTIME_TRANSPORT=sse (the server's configuration) skips the websocket altogether.
    await expect(page.getByTestId("realtime-status")).toHaveAttribute("data-transport", process.env.REALTIME_TRANSPORT === "sse" ? "sse" : "ws");
  }
  await send(page, "Привет! Аккаунт ещё продаёшь?", javaScriptEnabled);
  await expect(message(page, "Привет! Аккаунт ещё продаёшь?")).toHaveCount(1);
  await expect(page.getByTestId("composer").getByLabel("Сообщение")).toHaveValue("");

  if (javaScriptEnabled) {
    // Bob, on the home page, learns of it without reloading.
    const toast = pageB.locator('[data-slot="toast"]');
    await expect(toast).toContainText(`${alice.username} написал(а) вам сообщение`);
    await expect(toast).toContainText("Нажмите, чтобы посмотреть");
    await expect(pageB).toHaveTitle(/^\(1\) /);
    await expect(badgeB).toHaveAttribute("data-count", "1");
    await expect(badgeB).toHaveText("1");
    expect(await pageB.evaluate(() => (window as unknown as { stillThere?: boolean }).stillThere)).toBe(true);
    expect(await pageB.evaluate(() => (window as unknown as { played: unknown[] }).played)).toEqual([{ src: "/sounds/private-message.wav", volume: 0.5 }]);
    const sound = await pageB.request.get("/sounds/private-message.wav");
    expect(sound.headers()["content-type"]).toMatch(/^audio\//);
    // Only one copy of Alice's message, although its frame followed the send.
    await expect(messages(page)).toHaveCount(1);
    await toast.getByText(`${alice.username} написал(а) вам сообщение`).click();
  } else {
    // The server renders the badge; Bob opens the list from the header.
    await pageB.goto("/");
    await expect(badgeB).toHaveAttribute("data-count", "1");
    await pageB.getByRole("link", { name: /^Беседы: 1 непрочитанных$/ }).click();
    const item = pageB.getByTestId("conversation-link").filter({ hasText: alice.username });
    await expect(item.getByTestId("conversation-unread")).toHaveText("1");
    await item.click();
  }
  await expect(pageB).toHaveURL(conversationUrl);
  await expect(message(pageB, "Привет! Аккаунт ещё продаёшь?")).toBeVisible();
  await expect(badgeB).toHaveAttribute("data-count", "0");
  if (javaScriptEnabled) await expect(pageB).toHaveTitle(/^[^(]/);

  // Bob answers, quoting Alice's message.
  await messageAction(message(pageB, "Привет! Аккаунт ещё продаёшь?"), "Ответить");
  await expect(pageB.getByTestId("composer-context")).toContainText("Привет! Аккаунт ещё продаёшь?");
  await send(pageB, "Да, пиши условия", javaScriptEnabled);
  const reply = message(pageB, "Да, пиши условия");
  await expect(reply).toHaveCount(1);
  await expect(reply.getByTestId("message-quote")).toContainText(alice.username);
  await expect(pageB.getByTestId("composer-context")).toHaveCount(0);

  // Alice sees the answer: live with JavaScript, after a reload without.
  if (!javaScriptEnabled) await page.reload();
  await expect(message(page, "Да, пиши условия").getByTestId("message-quote")).toContainText("Привет! Аккаунт ещё продаёшь?");
  // Her conversation is open: nothing to count, nothing to toast.
  await expect(page.getByTestId("conversations-badge")).toHaveAttribute("data-count", "0");
  if (javaScriptEnabled) await expect(page.locator('[data-slot="toast"]')).toHaveCount(0);

  // Alice corrects her message, then deletes it.
  await messageAction(message(page, "Привет! Аккаунт ещё продаёшь?"), "Изменить");
  const composer = page.getByTestId("composer");
  await expect(page.getByTestId("composer-context")).toContainText("Редактирование");
  await hydrated(composer, javaScriptEnabled);
  await composer.getByLabel("Новый текст сообщения").fill("Привет! Аккаунт ещё в продаже?");
  await composer.getByRole("button", { name: "Сохранить" }).click();
  const edited = message(page, "Привет! Аккаунт ещё в продаже?");
  await expect(edited).toContainText("изменено");
  if (!javaScriptEnabled) await pageB.reload();
  await expect(message(pageB, "Привет! Аккаунт ещё в продаже?")).toContainText("изменено");

  await hydrated(edited.locator("form"), javaScriptEnabled);
  await messageAction(edited, "Удалить");
  await expect(messages(page).first()).toContainText("Сообщение удалено");
  if (!javaScriptEnabled) await pageB.reload();
  await expect(messages(pageB).first()).toContainText("Сообщение удалено");
  await expect(message(pageB, "Да, пиши условия").getByTestId("message-quote")).toContainText("Сообщение удалено");

  await second.close();
});

test("a group: created, a member invited, messages exchanged, the member leaves", async ({ page, browser, javaScriptEnabled }) => {
  const owner = await registerMember(page);
  const second = await openContext(browser);
  const pageM = second.page;
  const member = await registerMember(pageM);

  await page.goto("/profile/conversations");
  await expect(page.getByRole("heading", { name: "Выберите беседу" })).toBeVisible();
  const create = page.getByTestId("create-group");
  // An empty name is refused in Russian.
  await create.getByRole("button", { name: "Создать группу" }).click();
  await expect(create).toContainText("Введите название беседы");
  await create.getByLabel("Новая группа").fill("Сделки по аккаунтам");
  await create.getByRole("button", { name: "Создать группу" }).click();
  await expect(page).toHaveURL(/\/profile\/conversations\?group=\d+$/);
  await expect(page.getByTestId("conversation-title")).toHaveText("Сделки по аккаунтам");
  const groupUrl = page.url();
  const groupId = new URL(groupUrl).searchParams.get("group");

  // The owner invites: an unknown name is refused, the member's name accepted.
  const panel = page.getByTestId("group-members");
  await panel.locator("summary").click();
  const invite = panel.locator("form").filter({ has: page.getByRole("button", { name: "Пригласить" }) });
  await hydrated(invite, javaScriptEnabled);
  await invite.getByLabel("Пригласить по имени пользователя").fill("nobody_here_at_all");
  await invite.getByRole("button", { name: "Пригласить" }).click();
  await expect(panel).toContainText("Пользователь не найден");
  await hydrated(invite, javaScriptEnabled);
  await invite.getByLabel("Пригласить по имени пользователя").fill(`@${member.username}`);
  await invite.getByRole("button", { name: "Пригласить" }).click();
  await expect(panel.getByTestId("group-member")).toHaveCount(2);
  await expect(page.getByText("2 участника")).toBeVisible();

  await send(page, "Всем привет, обсуждаем условия тут", javaScriptEnabled);
  await expect(message(page, "Всем привет, обсуждаем условия тут")).toHaveCount(1);
  // With JavaScript the message shows before it is saved; the member looks once it has its id.
  await expect(message(page, "Всем привет, обсуждаем условия тут")).toHaveAttribute("data-message-id", /^\d+$/);

  // The member finds the group in the list with its unread count, and opens it.
  await pageM.goto("/profile/conversations");
  const item = pageM.getByTestId("conversation-link").filter({ hasText: "Сделки по аккаунтам" });
  await expect(item).toContainText("Всем привет, обсуждаем условия тут");
  await expect(item.getByTestId("conversation-unread")).toHaveText("1");
  await item.click();
  await expect(message(pageM, "Всем привет, обсуждаем условия тут")).toBeVisible();
  await expect(message(pageM, "Всем привет, обсуждаем условия тут")).toContainText(owner.username);

  if (javaScriptEnabled) {
    await listening(pageM, `conversation:group:${groupId}`);
    const reloads = loaderRequests(pageM);
    const markedRead = pageM.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/profile/conversations.data") && r.ok());
    await send(page, "Второе сообщение — оно придёт само", javaScriptEnabled);
    await expect(message(pageM, "Второе сообщение — оно придёт само")).toBeVisible();
    await expect(pageM.getByTestId("conversations-badge")).toHaveAttribute("data-count", "0");
    // Read as it arrived: the server agrees once the member looks elsewhere.
    await markedRead;
    // Marking read loads nothing again, neither the page nor the root (session, CSRF, counts):
    // every member in a busy conversation would otherwise reload it once per message.
    await routerIdle(pageM);
    expect(reloads).toEqual([]);
    await pageM.goto("/");
    await expect(pageM.getByTestId("conversations-badge")).toHaveAttribute("data-count", "0");
    await pageM.goto(groupUrl);
  }
  await send(pageM, "Я здесь", javaScriptEnabled);
  if (!javaScriptEnabled) await page.reload();
  await expect(message(page, "Я здесь")).toContainText(member.username);

  // The member leaves: back to the list, the group gone from it.
  await pageM.getByTestId("group-members").locator("summary").click();
  await pageM.getByRole("button", { name: "Выйти из беседы" }).click();
  await expect(pageM).toHaveURL(/\/profile\/conversations$/);
  await expect(pageM.getByText("Вы вышли из беседы", { exact: true }).first()).toBeVisible();
  await expect(pageM.getByTestId("conversation-link").filter({ hasText: "Сделки по аккаунтам" })).toHaveCount(0);
  await pageM.goto(groupUrl);
  await expect(pageM.getByTestId("error-status")).toHaveText("404");

  await page.reload();
  await page.getByTestId("group-members").locator("summary").click();
  await expect(page.getByTestId("group-member")).toHaveCount(1);
  await second.close();
});

test("«Написать» is refused with a Russian message once the other member has blocked you", async ({ page, browser, javaScriptEnabled }) => {
  const writer = await registerMember(page);
  const second = await openContext(browser);
  const blocker: Member = await registerMember(second.page, newMember());

  await page.goto(`/profile/${blocker.id}`);
  await expect(page.getByRole("button", { name: "Написать", exact: true })).toBeVisible();
  // The other member blocks the writer while the writer's page is open.
  await second.page.goto(`/profile/${writer.id}`);
  // With JavaScript the button turns at once, before the block is saved: wait for the server's answer (a reload
  // before it would cancel the request), then the server's page says the block is there.
  const saved = javaScriptEnabled
    ? second.page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(`/profile/${writer.id}/block`))
    : null;
  await second.page.getByRole("button", { name: "Заблокировать" }).click();
  await saved;
  await expect(second.page.getByRole("button", { name: "Разблокировать" })).toBeVisible();
  await second.page.reload();
  await expect(second.page.getByRole("button", { name: "Разблокировать" })).toBeVisible();

  await page.getByRole("button", { name: "Написать", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${blocker.id}$`));
  await expect(page.getByText("Вы не можете написать этому пользователю").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Написать", exact: true })).toHaveCount(0);
  await second.close();
});

// The public conversation's latest page is counted: the same journey in the other project must not write there meanwhile.
test(
  "history loads upwards: older pages come on top and the reader keeps their place",
  { tag: "@shares:public-chat" },
  async ({ page, browser, javaScriptEnabled }) => {
    await registerMember(page);
    const [second, third, latecomer] = [await openContext(browser), await openContext(browser), await openContext(browser)];
    for (const other of [second, third, latecomer]) await registerMember(other.page);
    await page.goto("/profile/conversations");
    const publicHref = await page.getByTestId("conversation-link").filter({ hasText: "Общий чат" }).getAttribute("href");
    const publicId = new URL(publicHref!, "http://x").searchParams.get("group");
    // More than two pages (30 each) of today's history in the public conversation, so the older page
    // the reader loads first is today's too (the place was lost when an older page joined the day
    // already on screen): 19 from the reader (the limit is 20 per 30 s: one is left for later), then
    // 19, 19 and 6 from three others, over HTTP.
    const tag = Math.random().toString(36).slice(2, 8);
    for (const [who, count] of [
      [page, 19],
      [second.page, 19],
      [third.page, 19],
      [latecomer.page, 6],
    ] as const) {
      await who.goto("/profile/conversations");
      const csrf = await who.locator('input[name="csrf"]').first().inputValue();
      for (let i = 1; i <= count; i++) {
        const answer = await who.request.post(`/api/profile/conversation/group/${publicId}/messages`, {
          data: { body: `История ${tag}: сообщение ${i} из ${count}` },
          headers: { "X-CSRF-Token": csrf },
        });
        expect(answer.status()).toBe(200);
      }
    }
    await second.close();
    await third.close();

    await page.goto(publicHref!);
    await expect(page.getByTestId("conversation-title")).toHaveText("Общий чат");
    await expect(messages(page)).toHaveCount(30);
    await expect(message(page, `История ${tag}: сообщение 6 из 6`)).toBeInViewport();
    const older = page.getByRole("link", { name: "Загрузить предыдущие" });

    if (!javaScriptEnabled) {
      const firstShown = await messages(page).first().getAttribute("data-message-id");
      await older.click();
      await expect(page).toHaveURL(new RegExp(`before=${firstShown}`));
      await expect(messages(page).last()).not.toHaveAttribute("data-message-id", firstShown!);
      expect(Number(await messages(page).last().getAttribute("data-message-id"))).toBeLessThan(Number(firstShown));
      await page.getByRole("link", { name: "К последним сообщениям" }).click();
      await expect(message(page, `История ${tag}: сообщение 6 из 6`)).toBeVisible();
      await latecomer.close();
      return;
    }

    // Scrolled to the top, the reader asks for older messages: they appear above, and the message
    // that was at the top stays where it was on screen.
    const scroller = page.getByTestId("message-scroller");
    await scroller.evaluate((el) => el.scrollTo({ top: -el.scrollHeight }));
    const top = messages(page).first();
    const topId = await top.getAttribute("data-message-id");
    const anchor = page.locator(`[data-message-id="${topId}"]`);
    const before = (await anchor.boundingBox())!.y;
    const url = page.url();
    await older.click();
    await expect.poll(() => messages(page).count()).toBeGreaterThan(30);
    expect(page.url()).toBe(url);
    expect(Math.abs((await anchor.boundingBox())!.y - before)).toBeLessThan(3);
    // A new message arriving below does not move what the reader is reading either; it comes live,
    // so the page must be listening before it is sent.
    await listening(page, `conversation:group:${publicId}`);
    const csrf = await latecomer.page.locator('input[name="csrf"]').first().inputValue();
    const late = await latecomer.page.request.post(`/api/profile/conversation/group/${publicId}/messages`, {
      data: { body: `История ${tag}: опоздавшее сообщение` },
      headers: { "X-CSRF-Token": csrf },
    });
    expect(late.status()).toBe(200);
    await expect(message(page, `История ${tag}: опоздавшее сообщение`)).toBeAttached();
    expect(Math.abs((await anchor.boundingBox())!.y - before)).toBeLessThan(3);
    await latecomer.close();
    // Page after page up to the first message of the conversation.
    for (let i = 0; i < 10 && (await older.count()) > 0; i++) {
      const count = await messages(page).count();
      await older.click();
      await expect.poll(() => messages(page).count()).toBeGreaterThan(count);
    }
    await expect(page.getByText("Начало беседы")).toBeAttached();
    await expect(message(page, "Всем привет! Кто сегодня онлайн?")).toBeAttached();
    const ids = await messages(page).evaluateAll((items) => items.map((item) => Number(item.getAttribute("data-message-id"))));
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));

    // Sending reloads only the latest page: the older messages on screen stay.
    await send(page, `История ${tag}: и ещё одно`, javaScriptEnabled);
    await expect(message(page, `История ${tag}: и ещё одно`)).toHaveCount(1);
    await expect(messages(page)).toHaveCount(ids.length + 1);
    await expect(message(page, "Всем привет! Кто сегодня онлайн?")).toBeAttached();
  },
);

test("conversations need sign-in", async ({ page }) => {
  await page.goto("/profile/conversations?group=1");
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fprofile%2Fconversations%3Fgroup%3D1$/);
});

test(
  "an @mention in the public chat links to the member's profile, and the message's markup stays text",
  { tag: "@shares:public-chat" },
  async ({ page, browser, javaScriptEnabled }) => {
    await registerMember(page);
    const second = await openContext(browser);
    const mentioned = await registerMember(second.page);
    await second.close();

    await page.goto("/profile/conversations");
    await page.getByTestId("conversation-link").filter({ hasText: "Общий чат" }).click();
    await expect(page.getByTestId("conversation-title")).toHaveText("Общий чат");
    const tag = Math.random().toString(36).slice(2, 8);
    const text = `Привет, @${mentioned.username}! Сделка ${tag} <b>готова</b>`;
    await send(page, text, javaScriptEnabled);

    // The link comes with the saved message (the optimistic copy has none); a reload shows it from the server.
    const sent = message(page, text);
    await expect(sent.getByRole("link", { name: `@${mentioned.username}` })).toHaveAttribute("href", `/profile/${mentioned.id}`);
    await page.reload();
    // With JavaScript the page settles first (hydrated, nothing loading), so the click is the router's.
    await hydrated(page.getByTestId("composer"), javaScriptEnabled);
    if (javaScriptEnabled) await routerIdle(page);
    const link = message(page, text).getByRole("link", { name: `@${mentioned.username}` });
    await expect(link).toHaveAttribute("href", `/profile/${mentioned.id}`);
    await expect(message(page, text).locator("b")).toHaveCount(0);

    await link.click();
    await expect(page).toHaveURL(new RegExp(`/profile/${mentioned.id}$`));
    await expect(page.getByRole("heading", { name: mentioned.username }).first()).toBeVisible();
  },
);
