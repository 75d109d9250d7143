import type { Page } from "@playwright/test";
import { expect, registerMember, test } from "./fixtures";

/** A made-up Cyrillic word no other post contains, so the assertions are about our post only. */
function uniqueWord(): string {
  return `зефир${Array.from({ length: 7 }, () => "бвгджзклмнпрстфхцчш"[Math.floor(Math.random() * 19)]).join("")}`;
}

async function registerAndPublish(page: Page, title: string, category: string) {
  await registerMember(page);

  await page.goto("/posts/new");
  await page.getByLabel("Заголовок").fill(title);
  await page.getByLabel("Категория").selectOption({ label: category });
  await page.getByLabel("Текст").fill("Продаю через гаранта, <b>без</b> предоплаты. Пишите в личку.");
  await page.getByRole("button", { name: "Опубликовать" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  return new URL(page.url()).pathname;
}

test("search in Russian finds «сделка» for «сделки»; the category changes the background", async ({ page }) => {
  const word = uniqueWord();
  const title = `Честная сделка ${word}`;
  const postPath = await registerAndPublish(page, title, "Торговля");

  await page.getByRole("link", { name: "Поиск" }).first().click();
  await expect(page).toHaveTitle("Поиск | Сходка");
  await expect(page.getByRole("heading", { name: "Что будем искать?" })).toBeVisible();
  const header = page.getByTestId("search-header");
  await expect(header).toHaveAttribute("data-background", "default");

  await page.getByLabel("Что ищем").fill(`сделки ${word}`);
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page).toHaveTitle(`«сделки ${word}» — поиск | Сходка`);
  const hits = page.getByTestId("search-hit");
  await expect(hits).toHaveCount(1);
  await expect(hits.getByRole("link", { name: title })).toHaveAttribute("href", postPath);
  await expect(hits.locator("mark").first()).toHaveText("сделка");
  await expect(page.getByText("Найдено 1 публикация по запросу")).toBeVisible();

  // «Игры» (2) shows the games background and leaves out our trade post.
  await page.getByLabel("Категория").selectOption({ label: "Игры" });
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page).toHaveURL(/category=2/);
  await expect(header).toHaveAttribute("data-background", "games");
  await expect(header).toHaveCSS("background-image", /\/images\/search\/games\.svg/);
  await expect(page.getByText(`Публикаций по запросу «сделки ${word}» не найдено`)).toBeVisible();
  await expect(page.getByTestId("search-hit")).toHaveCount(0);

  // «Торговля» (1) shows the trade background and finds it again.
  await page.getByLabel("Категория").selectOption({ label: "Торговля" });
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(header).toHaveAttribute("data-background", "torgovlia");
  await expect(header).toHaveCSS("background-image", /\/images\/search\/torgovlia\.svg/);
  await expect(page.getByLabel("Что ищем")).toHaveValue(`сделки ${word}`);
  await expect(page.getByTestId("search-hit").getByRole("link", { name: title })).toBeVisible();

  // «Обсуждения» (7) leaves the background unchanged (docs/product/content.md#category-backgrounds).
  await page.getByLabel("Категория").selectOption({ label: "Обсуждения" });
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page).toHaveURL(/category=7/);
  await expect(header).toHaveAttribute("data-background", "default");
  await expect(header).toHaveCSS("background-image", /gradient/);

  await page.goto(`/search?q=${encodeURIComponent(word)}`);
  await page.getByTestId("search-hit").getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(postPath);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
});

test("a query of only stop-words or punctuation explains itself instead of failing", async ({ page }) => {
  await page.goto("/search");
  await page.getByLabel("Что ищем").fill("и в на !!!");
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page.getByText("В запросе нет слов для поиска")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Популярные категории" })).toBeVisible();
  await page.getByRole("navigation", { name: "Популярные категории" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/search\?category=\d$/);
});

// Alone: a member of any journey running beside it could be the newest visitor.
test("the home page shows who is online, linking to their profiles", { tag: "@alone" }, async ({ page }) => {
  const member = await registerMember(page);

  await page.goto("/");
  const online = page.getByTestId("online-members");
  await expect(online.getByRole("heading", { name: /^Сейчас на сайте \(\d+\)$/ })).toBeVisible();
  // The newest visitor comes first.
  const mine = online.getByRole("link", { name: `Профиль: ${member.username}` });
  await expect(online.getByRole("link", { name: /^Профиль: / }).first()).toHaveAccessibleName(`Профиль: ${member.username}`);
  await mine.click();
  await expect(page).toHaveURL(/\/profile\/\d+$/);
  await expect(page.getByText(member.username).first()).toBeVisible();
});
