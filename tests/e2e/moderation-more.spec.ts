/**
 * The rest of the moderators' tools in the browser (issue 10; docs/product/moderation.md), with
 * JavaScript on and off: an admin puts a member in read-only mode — they still read, but a
 * comment is refused with the reason — and lifts it; a moderator closes a post's comments and
 * moves it to another category, then undoes both; a moderator deletes a member's wall entry and
 * a public-chat message and restores them.
 */
import type { Page } from "@playwright/test";
import { authenticate, clickAndSave, DEMO, expect, openContext, registerMember, test } from "./fixtures";

const withJs = () => test.info().project.use.javaScriptEnabled !== false;

/** Waits until the page's fetcher forms are hydrated (they then carry `via`), so clicks go through them. */
async function hydrated(page: Page) {
  if (withJs()) await expect(page.locator('input[name="via"]').first()).toBeAttached();
}

/** The path of the first home-feed post from the `index`-th on that is not pinned and takes comments. */
async function ordinaryPost(page: Page, index: number): Promise<string> {
  for (let at = index; at < index + 8; at++) {
    await page.goto("/");
    const link = page.locator('[data-testid="post-card"]:not([data-pinned])').nth(at).getByRole("heading", { level: 2 }).getByRole("link");
    // Opened by its address: a click landing while the page hydrates could be lost (CI saw it stay on the feed).
    await page.goto((await link.getAttribute("href"))!);
    await expect(page.getByTestId("comments")).toBeVisible();
    if ((await page.getByTestId("comments-closed").count()) === 0) return new URL(page.url()).pathname;
  }
  throw new Error("no open post on the home feed");
}

test("an admin puts a member in read-only mode: they read but may not comment, until it is lifted", { tag: "@shares:home-feed" }, async ({ page, browser }) => {
  const member = await registerMember(page);
  const path = await ordinaryPost(page, 3);

  const admin = await openContext(browser);
  await authenticate(admin.page, DEMO.admin);
  await admin.page.goto(`/admin/members/${member.id}`);
  const form = admin.page.getByTestId("sanction-form");
  await form.getByLabel("Что сделать").selectOption("mute");
  await form.getByLabel("Срок", { exact: true }).selectOption("1d");
  await form.getByLabel(/^Причина/).fill("Спам ссылками в комментариях");
  await form.getByRole("button", { name: "Применить" }).click();
  await expect(admin.page.getByText("Участник переведён в «только чтение»", { exact: true })).toBeVisible();

  // The member still reads the post, but a comment is refused with the reason, and nothing is published.
  await page.goto(path);
  await hydrated(page);
  const text = `Заходите на мой сайт ${Date.now()}`;
  await page.getByTestId("comments").getByLabel("Ваш комментарий").fill(text);
  await page.getByTestId("comments").getByRole("button", { name: "Отправить" }).click();
  await expect(page.getByText(/Модератор запретил вам публиковать.*Причина: Спам ссылками в комментариях/).first()).toBeVisible();
  await page.goto(path);
  await expect(page.getByText(text)).toHaveCount(0);

  await admin.page.getByTestId("active-sanction").getByRole("button", { name: "Снять ограничение" }).click();
  await expect(admin.page.getByText("Ограничение снято", { exact: true })).toBeVisible();
  await admin.close();

  await hydrated(page);
  await page.getByTestId("comments").getByLabel("Ваш комментарий").fill(text);
  await page.getByTestId("comments").getByRole("button", { name: "Отправить" }).click();
  await expect(page.getByTestId("comment").filter({ hasText: text })).toBeVisible();
});

test("a moderator closes a post's comments and moves it to another category, then undoes both", { tag: "@shares:home-feed" }, async ({ page, browser }) => {
  const moderator = await openContext(browser);
  await authenticate(moderator.page, DEMO.moderator);
  const path = await ordinaryPost(moderator.page, 4);
  const panel = moderator.page.getByTestId("post-moderation");
  const category = panel.locator('select[name="categoryId"]');
  const before = await category.inputValue();
  const other = before === "1" ? "2" : "1";
  await hydrated(moderator.page);

  await panel.getByRole("button", { name: "Закрыть комментарии" }).click();
  await expect(panel.getByRole("button", { name: "Открыть комментарии" })).toBeVisible();
  await category.selectOption(other);
  await panel.getByRole("button", { name: "Перенести" }).click();
  await expect(category).toHaveValue(other);

  // A reader sees the comments closed (no form) and the post under its new category.
  await page.goto(path);
  await expect(page.getByTestId("comments-closed")).toBeVisible();
  await expect(page.getByTestId("comments").getByLabel("Ваш комментарий")).toHaveCount(0);
  await page.goto(`/?category=${other}`);
  await expect(page.locator(`a[href="${path}"]`).first()).toBeVisible();

  await panel.getByRole("button", { name: "Открыть комментарии" }).click();
  await expect(panel.getByRole("button", { name: "Закрыть комментарии" })).toBeVisible();
  await category.selectOption(before);
  await panel.getByRole("button", { name: "Перенести" }).click();
  await expect(category).toHaveValue(before);
  await moderator.close();

  await page.goto(path);
  await expect(page.getByTestId("comments-closed")).toHaveCount(0);
});

test("a moderator deletes a member's wall entry and restores it", async ({ page, browser }) => {
  const owner = await registerMember(page);
  await page.goto(`/profile/${owner.id}`);
  const wall = page.getByTestId("wall");
  await hydrated(page);
  const text = `Продаю аккаунт, пишите в личку ${Date.now()}`;
  await wall.getByLabel("Новая запись").fill(text);
  await wall.getByRole("button", { name: "Написать на стене" }).click();
  await expect(wall.getByTestId("wall-entry").filter({ hasText: text })).toBeVisible();

  const moderator = await openContext(browser);
  await authenticate(moderator.page, DEMO.moderator);
  await moderator.page.goto(`/profile/${owner.id}`);
  await hydrated(moderator.page);
  const entry = moderator.page.getByTestId("wall-entry").first();
  await expect(entry).toContainText(text);
  await clickAndSave(entry.getByRole("button", { name: "Удалить (модератор)" }));
  await expect(entry.getByTestId("wall-entry-body")).toHaveText("Удалено модератором");

  await page.goto(`/profile/${owner.id}`);
  await expect(wall.getByTestId("wall-entry").first().getByTestId("wall-entry-body")).toHaveText("Удалено модератором");
  await expect(page.getByText(text)).toHaveCount(0);

  await clickAndSave(entry.getByRole("button", { name: "Восстановить" }));
  await expect(entry.getByTestId("wall-entry-body")).toHaveText(text);
  await moderator.close();
  await page.goto(`/profile/${owner.id}`);
  await expect(wall.getByTestId("wall-entry").first().getByTestId("wall-entry-body")).toHaveText(text);
});

// The history journey counts the public conversation's latest page: not while it runs.
test("a moderator deletes a member's message in the public chat and restores it", { tag: "@shares:public-chat" }, async ({ page, browser }) => {
  await registerMember(page);
  await page.goto("/profile/conversations");
  const publicHref = (await page.getByTestId("conversation-link").filter({ hasText: "Общий чат" }).getAttribute("href"))!;
  await page.goto(publicHref);
  const composer = page.getByTestId("composer");
  if (withJs()) await expect(composer.locator('input[name="via"]')).toBeAttached();
  const text = `Куплю голоса за отзывы ${Date.now()}`;
  await composer.getByLabel("Сообщение").fill(text);
  await composer.getByRole("button", { name: "Отправить" }).click();
  const own = (p: Page) => p.getByTestId("message").filter({ has: p.getByTestId("message-body").getByText(text, { exact: true }) });
  await expect(own(page)).toBeVisible();
  // With JavaScript the message first shows pending, without its id, until the server answers.
  await expect(own(page)).toHaveAttribute("data-message-id", /^\d+$/);
  const id = await own(page).getAttribute("data-message-id");

  const moderator = await openContext(browser);
  await authenticate(moderator.page, DEMO.moderator);
  await moderator.page.goto(publicHref);
  const shown = moderator.page.locator(`[data-message-id="${id}"]`);
  await expect(shown).toContainText(text);
  await hydrated(moderator.page);
  // The message's actions are in its «⋯» menu (docs/product/conversations.md#message-actions).
  await shown.hover();
  await shown.getByLabel("Действия с сообщением").click();
  await clickAndSave(shown.getByRole("button", { name: "Удалить" }));
  await expect(shown).toContainText("Удалено модератором");

  await page.goto(publicHref);
  await expect(page.locator(`[data-message-id="${id}"]`)).toContainText("Удалено модератором");
  await expect(own(page)).toHaveCount(0);

  await clickAndSave(shown.getByRole("button", { name: "Восстановить" }));
  await expect(shown).toContainText(text);
  await moderator.close();
  await page.goto(publicHref);
  await expect(own(page)).toBeVisible();
});
