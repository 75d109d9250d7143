/**
 * Sessions (issue 6): a member signed in on two browsers sees both sessions and both sign-ins
 * on /profile/history, signs the other browser out with «Выйти на других устройствах», and that
 * browser is signed out on its next navigation. Runs with JavaScript on and off.
 */
import { expect, newMember, openContext, registerMember, signIn, test } from "./fixtures";

test("sign out other sessions from /profile/history", async ({ page, browser }) => {
  const member = await registerMember(page, newMember());
  const other = await openContext(browser);
  await signIn(other.page, member);

  await page.goto("/profile/history");
  const sessions = page.getByTestId("active-session");
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText("это устройство");
  await expect(sessions.nth(1)).not.toContainText("это устройство");
  await expect(sessions.first()).toContainText("Chrome на Linux");
  const history = page.getByTestId("sign-in-history").locator("tbody tr");
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText("пароль");

  await page.getByRole("button", { name: "Выйти на других устройствах" }).click();
  await expect(page.getByText("Вы вышли на других устройствах", { exact: true })).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await expect(sessions.first()).toContainText("это устройство");
  await expect(page.getByText("Других активных сеансов нет.")).toBeVisible();
  // The history keeps both sign-ins.
  await expect(history).toHaveCount(2);

  // The other browser is signed out on its next navigation.
  await other.page.goto("/profile/history");
  await expect(other.page).toHaveURL(/\/auth\/login\?redirect=%2Fprofile%2Fhistory/);
  await other.close();

  // This browser stays signed in.
  await page.goto("/profile/history");
  await expect(page.getByTestId("header-profile")).toContainText(member.username);
});

test("«Завершить» ends one session; ending this device's session signs out", async ({ page, browser }) => {
  const member = await registerMember(page, newMember());
  const other = await openContext(browser);
  await signIn(other.page, member);

  await page.goto("/profile/history");
  const sessions = page.getByTestId("active-session");
  await expect(sessions).toHaveCount(2);
  await sessions.nth(1).getByRole("button", { name: "Завершить" }).click();
  await expect(page.getByText("Сеанс завершён", { exact: true })).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await other.page.goto("/profile");
  await expect(other.page).toHaveURL(/\/auth\/login/);
  await other.close();

  await sessions.first().getByRole("button", { name: "Выйти" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByText("Вы вышли из аккаунта", { exact: true })).toBeVisible();
  await expect(page.getByTestId("header-profile")).toHaveCount(0);
  await page.goto("/profile/history");
  await expect(page).toHaveURL(/\/auth\/login\?redirect=/);
});
