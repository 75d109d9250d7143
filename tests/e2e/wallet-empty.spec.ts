/**
 * A new member's empty wallet (issue 14; docs/product/money.md#how-money-gets-in), with and
 * without JavaScript: it says how money gets in and «Написать администратору» opens the personal
 * conversation with the site's admin.
 */
import { expect, registerMember, test } from "./fixtures";

test("a new member's wallet explains how to top up and opens a conversation with the admin", async ({ page }) => {
  await registerMember(page);
  await page.goto("/profile/wallet");
  await expect(page.getByTestId("balance-available")).toContainText("0,00 ₽");
  const help = page.getByTestId("topup-help");
  await expect(help.getByRole("heading", { name: "Как пополнить баланс" })).toBeVisible();
  await expect(help).toContainText("баланс пополняет администратор");
  await expect(help).toContainText("Деньги приходят и от участников");
  await expect(help.getByRole("link", { name: "сделке через гаранта" })).toHaveAttribute("href", "/services/guarantor");
  await expect(help).toContainText("@admin");

  await help.getByRole("button", { name: "Написать администратору" }).click();
  await expect(page).toHaveURL(/\/profile\/conversations\?personal=\d+$/);
  await expect(page.getByTestId("conversation-title")).toHaveText(/^(admin|Администрация)$/);
  await expect(page.getByTestId("composer").getByLabel("Сообщение")).toBeVisible();
});
