/**
 * /admin/settings in the browser (issue 10; docs/product/moderation.md#settings), with JavaScript
 * on and off: an admin closes registration — a visitor's sign-up is refused in Russian — and opens
 * it again; an admin edits the site rules and /faq shows them. Closing registration would refuse
 * every other journey's new member, so this one runs alone.
 */
import { authenticate, DEMO, expect, newMember, openContext, test } from "./fixtures";

test("an admin closes registration and opens it again; the site rules they save show on /faq", { tag: "@alone" }, async ({ page, browser }) => {
  await authenticate(page, DEMO.admin);
  await page.goto("/admin/settings");
  const registration = page.getByTestId("registration-form");
  await registration.getByLabel("Закрыта").check();
  await registration.getByLabel(/^Причина/).fill("Волна спам-регистраций");
  await registration.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText("Регистрация закрыта", { exact: true })).toBeVisible();

  const visitor = await openContext(browser);
  const member = newMember();
  await visitor.page.goto("/auth/register");
  await visitor.page.getByLabel("Имя пользователя").fill(member.username);
  await visitor.page.getByLabel("Email").fill(member.email);
  await visitor.page.getByLabel("Пароль").fill(member.password);
  await visitor.page.getByRole("button", { name: "Зарегистрироваться" }).click();
  await expect(visitor.page.getByText("Регистрация новых участников сейчас закрыта").first()).toBeVisible();
  await expect(visitor.page.getByTestId("header-profile")).toHaveCount(0);
  await visitor.close();

  await page.goto("/admin/settings");
  await registration.getByLabel("Открыта").check();
  await registration.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText("Регистрация открыта", { exact: true })).toBeVisible();

  const rules = page.getByTestId("rules-form").getByLabel("Текст правил");
  const before = await rules.inputValue();
  const line = `Сделки только через гаранта — проверено ${Date.now()}`;
  await rules.fill(`${before}\n\n**${line}**`);
  await page.getByTestId("rules-form").getByRole("button", { name: "Сохранить правила" }).click();
  await expect(page.getByText("Правила сайта сохранены", { exact: true })).toBeVisible();
  await page.goto("/faq");
  await expect(page.locator("strong", { hasText: line })).toBeVisible();

  // The seeded rules come back for the journeys that read /faq.
  await page.goto("/admin/settings");
  await page.getByTestId("rules-form").getByLabel("Текст правил").fill(before);
  await page.getByTestId("rules-form").getByRole("button", { name: "Сохранить правила" }).click();
  await expect(page.getByText("Правила сайта сохранены", { exact: true })).toBeVisible();
});
