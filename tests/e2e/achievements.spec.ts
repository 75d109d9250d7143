import { expect, registerMember, test } from "./fixtures";

const today = new Intl.DateTimeFormat("ru-RU", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Moscow" }).format(new Date());

test("a new member publishes their first post and earns «Первый пост», shown on their achievements and public profile", async ({ page }) => {
  await registerMember(page);

  await page.goto("/profile/achievements");
  await expect(page).toHaveTitle("Достижения | Сходка");
  await expect(page.getByText(/Получено 0 из \d+\./)).toBeVisible();
  const firstPost = page.getByTestId("achievement-grid").getByRole("listitem").filter({ hasText: "Первый пост" });
  await expect(firstPost).toHaveAttribute("data-state", "locked");
  await expect(firstPost).toContainText("Опубликовать первый пост");
  await expect(firstPost).not.toContainText("Получено");
  await expect(page.getByTestId("achievement-grid").getByRole("listitem").filter({ hasText: "Автор" })).toContainText("0 из 10");

  await page.goto("/posts/new");
  await page.getByLabel("Заголовок").fill("Мой первый пост на Сходке");
  await page.getByLabel("Категория").selectOption({ label: "Обсуждения" });
  await page.getByLabel("Текст").fill("Всем привет! Рад присоединиться.");
  await page.getByRole("button", { name: "Опубликовать" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);

  await page.goto("/profile/achievements");
  await expect(page.getByText(/Получено 1 из \d+\./)).toBeVisible();
  await expect(firstPost).toHaveAttribute("data-state", "earned");
  await expect(firstPost).toContainText(`Получено ${today}`);
  await expect(page.getByTestId("achievement-grid").getByRole("listitem").filter({ hasText: "Автор" })).toContainText("1 из 10");

  await page.getByRole("link", { name: "публичном профиле" }).click();
  await expect(page).toHaveURL(/\/profile\/\d+$/);
  const badges = page.getByTestId("achievement-list");
  await expect(badges.getByRole("heading", { name: "Достижения" })).toBeVisible();
  await expect(badges.getByRole("listitem")).toHaveCount(1);
  await expect(badges.getByRole("listitem")).toContainText("Первый пост");
});

test("a visitor opens the leaderboard and switches the ranking and the period with its tabs", async ({ page }) => {
  await page.goto("/leaderboard");
  await expect(page).toHaveTitle("Лидеры | Сходка");
  await expect(page.getByRole("heading", { level: 1, name: "Лидеры" })).toBeVisible();
  const rankings = page.getByRole("navigation", { name: "Рейтинг" });
  const periods = page.getByRole("navigation", { name: "Период" });
  await expect(rankings.getByRole("link", { name: "Репутация" })).toHaveAttribute("aria-current", "page");
  await expect(periods.getByRole("link", { name: "За всё время" })).toHaveAttribute("aria-current", "page");

  await rankings.getByRole("link", { name: "Публикации" }).click();
  await expect(page).toHaveURL("/leaderboard?by=posts&period=all");
  await expect(rankings.getByRole("link", { name: "Публикации" })).toHaveAttribute("aria-current", "page");
  const table = page.getByTestId("leaderboard");
  await expect(table.getByRole("columnheader", { name: "Публикации" })).toBeVisible();
  await expect(table.getByTestId("leaderboard-row").first()).toBeVisible();
  const allTimeTop = Number(await table.getByTestId("leaderboard-score").first().getAttribute("data-score"));
  expect(allTimeTop).toBeGreaterThan(0);

  await periods.getByRole("link", { name: "За неделю" }).click();
  await expect(page).toHaveURL("/leaderboard?by=posts&period=week");
  await expect(periods.getByRole("link", { name: "За неделю" })).toHaveAttribute("aria-current", "page");
  await expect(periods.getByRole("link", { name: "За всё время" })).not.toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("table", { name: "Публикации: за неделю" }).or(page.getByText("За этот период в рейтинге пока никого нет."))).toBeVisible();
  const weekScores = await page.getByTestId("leaderboard-score").evaluateAll((cells) => cells.map((c) => Number(c.getAttribute("data-score"))));
  expect(weekScores).toEqual([...weekScores].sort((a, b) => b - a));
  // A week is part of all time: nobody has more posts this week than the all-time leader overall.
  expect(weekScores[0] ?? 0).toBeLessThanOrEqual(allTimeTop);

  await periods.getByRole("link", { name: "За месяц" }).click();
  await expect(page).toHaveURL("/leaderboard?by=posts&period=month");
  await expect(periods.getByRole("link", { name: "За месяц" })).toHaveAttribute("aria-current", "page");
  await expect(rankings.getByRole("link", { name: "Публикации" })).toHaveAttribute("aria-current", "page");
});
