/**
 * The bell in the header (issue 14; docs/product/notifications.md#the-bell,
 * docs/product/notifications.md#targets): with JavaScript a menu of the latest notifications,
 * each naming its post or comment, unread ones marked, live toasts naming the target, «Отметить
 * все прочитанными» and «Все уведомления»; without JavaScript a link to /profile/notifications.
 */
import type { Page } from "@playwright/test";
import { expect, openContext, registerMember, test } from "./fixtures";

async function publish(page: Page, title: string): Promise<string> {
  await page.goto("/posts/new");
  await page.getByLabel("Заголовок").fill(title);
  await page.getByLabel("Категория").selectOption({ label: "Торговля" });
  await page.getByLabel("Текст").fill("Аккаунт с редкими скинами.");
  await page.getByRole("button", { name: "Опубликовать" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  return new URL(page.url()).pathname;
}

test("the bell's menu lists the latest notifications with their targets, marks all read and opens one @js-only", async ({ page, browser }) => {
  const author = await registerMember(page);
  const title = `Продам аккаунт — ${author.username}`;
  const postPath = await publish(page, title);
  await page.goto("/");
  await expect(page.getByTestId("realtime-status")).toHaveAttribute("data-channels", /(^| )notifications( |$)/);
  // The bell stays the link it is without JavaScript; a press opens its menu (decision 0041).
  const bell = page.getByRole("link", { name: "Уведомления" });
  const badge = page.getByTestId("notifications-badge");
  const menu = page.getByTestId("notifications-menu");
  const items = menu.getByTestId("notifications-menu-item");

  // Nothing yet. The keyboard opens the menu, reaches «Все уведомления», and Escape returns to the bell.
  await bell.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menu", { name: "Уведомления" })).toBeVisible();
  await expect(menu.getByTestId("notifications-menu-empty")).toHaveText("Уведомлений пока нет");
  await expect(menu.getByRole("menuitem", { name: "Отметить все прочитанными" })).toHaveCount(0);
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "Все уведомления" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(bell).toBeFocused();
  // ArrowDown opens it too, as on a menu button.
  await page.keyboard.press("ArrowDown");
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(bell).toBeFocused();

  // A fan comments and likes in another browser; each arrives live, the toast naming its target.
  const fan = await openContext(browser);
  const fanMember = await registerMember(fan.page);
  await fan.page.goto(postPath);
  const comments = fan.page.getByTestId("comments");
  await expect(fan.page.getByTestId("post-actions").locator('input[name="via"]').first()).toBeAttached();
  await comments.getByLabel("Ваш комментарий").fill("Сколько просите за аккаунт? Могу через гаранта.");
  await comments.getByRole("button", { name: "Отправить" }).click();
  const toasts = page.locator('[data-slot="toast"]');
  await expect(toasts.filter({ hasText: `Комментарий «Сколько просите за аккаунт? Могу через гаранта.» к посту «${title}»` })).toBeVisible();
  await expect(badge).toHaveAttribute("data-count", "1");
  const actions = fan.page.getByTestId("post-actions");
  await actions.getByRole("button", { name: "Нравится", exact: true }).click();
  await expect(actions.getByRole("button", { name: "Больше не нравится", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(toasts.filter({ hasText: `Пост «${title}»` })).toBeVisible();
  await expect(badge).toHaveAttribute("data-count", "2");
  await fan.close();

  // The menu: newest first, both unread, each naming its target and linking to it.
  await bell.click();
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText(`${fanMember.username} оценил(а) ваш пост`);
  await expect(items.first()).toContainText(`Пост «${title}»`);
  await expect(items.first()).toHaveAttribute("href", postPath);
  await expect(items.nth(1)).toContainText(`${fanMember.username} оставил(а) комментарий под вашим постом`);
  await expect(items.nth(1)).toContainText("Комментарий «Сколько просите за аккаунт? Могу через гаранта.»");
  await expect(items.nth(1)).toHaveAttribute("href", new RegExp(`^${postPath}#comment-\\d+$`));
  await expect(menu.locator('[data-read="false"]')).toHaveCount(2);
  await expect(menu.getByText("Не прочитано")).toHaveCount(2);

  // «Отметить все прочитанными»: the menu stays open and turns read; the badge empties.
  await menu.getByRole("menuitem", { name: "Отметить все прочитанными" }).click();
  await expect(menu.locator('[data-read="true"]')).toHaveCount(2);
  await expect(badge).toHaveAttribute("data-count", "0");
  await expect(menu.getByRole("menuitem", { name: "Отметить все прочитанными" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  // Closed first: a click on the bell while the menu still counts as open would toggle it shut.
  await expect(menu).toBeHidden();
  // Opened again, the server's list says the same.
  await bell.click();
  await expect(items).toHaveCount(2);
  await expect(menu.locator('[data-read="true"]')).toHaveCount(2);

  // Choosing the comment goes to it.
  const commentHref = (await items.nth(1).getAttribute("href"))!;
  await items.nth(1).click();
  await expect(page).toHaveURL(commentHref);
  await expect(page.locator(commentHref.slice(commentHref.indexOf("#")))).toContainText("Сколько просите за аккаунт?");

  // «Все уведомления» goes to the page.
  await bell.click();
  await menu.getByRole("menuitem", { name: "Все уведомления" }).click();
  await expect(page).toHaveURL("/profile/notifications");
  await expect(page.getByRole("heading", { level: 1, name: "Уведомления" })).toBeVisible();
});

test("the bell reaches the notifications page: a link without JavaScript, its menu's «Все уведомления» with it", async ({ page, javaScriptEnabled }) => {
  await registerMember(page);
  await page.goto("/leaderboard");
  const bell = page.getByTestId("notifications-bell");
  if (javaScriptEnabled) {
    await expect(bell).toHaveAttribute("aria-haspopup", "menu");
    await bell.click();
    await page.getByRole("menuitem", { name: "Все уведомления" }).click();
  } else {
    await expect(bell).toHaveAttribute("href", "/profile/notifications");
    await bell.click();
  }
  await expect(page).toHaveURL("/profile/notifications");
  await expect(page.getByTestId("notifications-empty")).toBeVisible();
});
