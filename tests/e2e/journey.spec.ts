import { expect, newMember, test } from "./fixtures";

test("register → sign out → sign in → write a post → see it on / and on its page → sign out", async ({ page }) => {
  const member = newMember();

  await page.goto("/auth/register");
  await expect(page).toHaveTitle("Регистрация | Сходка");
  await page.getByLabel("Имя пользователя").fill(member.username);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Пароль").fill(member.password);
  await page.getByRole("button", { name: "Зарегистрироваться" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByTestId("header-profile")).toContainText(member.username);

  await page.getByRole("button", { name: "Выйти" }).click();
  await expect(page.getByRole("link", { name: "Войти" })).toBeVisible();

  await page.getByRole("link", { name: "Войти" }).click();
  await page.getByLabel("Email или имя пользователя").fill(member.email);
  await page.getByLabel("Пароль").fill(member.password);
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page.getByTestId("header-profile")).toContainText(member.username);

  await page.getByRole("link", { name: "Написать" }).click();
  await expect(page).toHaveURL("/posts/new");
  const title = `Продам скин AWP — ${member.username}`;
  await page.getByLabel("Заголовок").fill(title);
  await page.getByLabel("Категория").selectOption({ label: "Торговля" });
  await page.getByLabel("Текст").fill("## Описание\n\nСкин в **отличном** состоянии.\n\n- Цена: 4 500 ₽\n- Сделка через гаранта");
  await page.getByRole("button", { name: "Опубликовать" }).click();

  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByText("Пост опубликован", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByTestId("post-body").getByRole("heading", { name: "Описание" })).toBeVisible();
  await expect(page.getByTestId("post-body").locator("strong")).toHaveText("отличном");
  await expect(page).toHaveTitle(`${title} | Сходка`);
  const postUrl = page.url();

  await page.goto("/");
  const card = page.getByTestId("post-card").filter({ hasText: title });
  await expect(card).toBeVisible();
  await card.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(postUrl);

  await page.getByRole("button", { name: "Выйти" }).click();
  await expect(page.getByRole("link", { name: "Войти" })).toBeVisible();
  await page.goto("/profile");
  await expect(page).toHaveURL("/auth/login?redirect=%2Fprofile");
});

test("a visitor who opens a members-only page signs in and comes back to it", async ({ page }) => {
  await page.goto("/posts/new");
  await expect(page).toHaveURL("/auth/login?redirect=%2Fposts%2Fnew");
  await page.getByLabel("Email или имя пользователя").fill("demo@shodka.local");
  await page.getByLabel("Пароль").fill("demo12345");
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL("/posts/new");
  await expect(page.getByRole("heading", { name: "Новый пост" })).toBeVisible();
});

test("a wrong password is refused in Russian and the email stays filled in", async ({ page }) => {
  await page.goto("/auth/login");
  await page.getByLabel("Email или имя пользователя").fill("demo@shodka.local");
  await page.getByLabel("Пароль").fill("не-тот-пароль");
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page.getByRole("alert")).toContainText("Неверный email или пароль");
  await expect(page.getByLabel("Email или имя пользователя")).toHaveValue("demo@shodka.local");
});

test("registration explains what is wrong with each field", async ({ page }) => {
  await page.goto("/auth/register");
  await page.getByLabel("Имя пользователя").fill("ab");
  await page.getByLabel("Email").fill("demo@shodka.local");
  await page.getByLabel("Пароль").fill("123");
  await page.getByRole("button", { name: "Зарегистрироваться" }).click();
  await expect(page.getByText("Имя пользователя — не короче 3 символов")).toBeVisible();
  await expect(page.getByText("Пароль — не короче 8 символов")).toBeVisible();
});

test("the preview shows the rendered Markdown before publishing", async ({ page }) => {
  const member = newMember();
  await page.goto("/auth/register");
  await page.getByLabel("Имя пользователя").fill(member.username);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Пароль").fill(member.password);
  await page.getByRole("button", { name: "Зарегистрироваться" }).click();
  await expect(page.getByTestId("header-profile")).toBeVisible();

  await page.goto("/posts/new");
  await page.getByLabel("Заголовок").fill("Гайд по безопасным сделкам");
  await page.getByLabel("Категория").selectOption({ label: "Обсуждения" });
  await page.getByLabel("Текст").fill("## Шаг первый\n\nПроверьте **депозит** продавца.");
  await page.getByRole("button", { name: "Предпросмотр" }).click();
  await expect(page).toHaveURL("/posts/new/preview");
  const preview = page.getByRole("region", { name: "Предпросмотр" });
  await expect(preview.getByRole("heading", { name: "Шаг первый" })).toBeVisible();
  await expect(preview.locator("strong")).toHaveText("депозит");
  await page.getByRole("button", { name: "Опубликовать" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Гайд по безопасным сделкам");
});

test("an unknown page shows the error page with 404 and a way home", async ({ page }) => {
  const response = await page.goto("/this/page/does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Ошибка" })).toBeVisible();
  await expect(page.getByTestId("error-status")).toHaveText("404");
  await expect(page.getByTestId("error-message")).toHaveText("Page not found: /this/page/does-not-exist");
  await page.getByRole("link", { name: "На главную" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { name: "Лента" })).toBeVisible();
});
