/**
 * Email journeys of issue 6 (js and no-js): the e2e server has no SMTP_URL, so every mail is a
 * JSON file in its DATA_DIR/mail/ (tests/.tmp/e2e-data-<port>, playwright.config.ts); the tests
 * open the link of the newest mail to the member's address.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import type { StoredMail } from "~/lib/mail/mailer.server";
import { waitFor } from "../setup/wait";
import { expect, newMember, registerMember, signIn, signOut, test } from "./fixtures";

function mailDir(): string {
  const port = new URL(String(test.info().project.use.baseURL)).port;
  return path.resolve("tests/.tmp", `e2e-data-${port}`, "mail");
}

/** Opens (as a path on the test server) the link of the newest mail to `to` whose subject contains `subject`. */
async function openMailLink(page: Page, to: string, subject: string): Promise<void> {
  const mail = await waitFor(async () => {
    const names = (await readdir(mailDir()).catch(() => [] as string[]))
      .filter((n) => n.endsWith(".json"))
      .sort()
      .reverse();
    for (const name of names) {
      const found = JSON.parse(await readFile(path.join(mailDir(), name), "utf8")) as StoredMail;
      if (found.to === to && found.subject.includes(subject)) return found;
    }
    return undefined;
  }, `a mail «${subject}» to ${to}`);
  const link = new URL(mail.links[0]!);
  await page.goto(link.pathname + link.search);
}

test("register → verify by the mailed link → sign out → reset the password by mail → sign in with the new one", async ({ page }) => {
  const member = await registerMember(page);
  // Signed in, the link verifies the address and lands on /profile with the result as a toast.
  await openMailLink(page, member.email, "Подтвердите email");
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText("Email подтверждён", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Спасибо! Адрес подтверждён.").first()).toBeVisible();
  await page.goto("/profile/settings");
  await expect(page.getByTestId("settings-email").first().locator("..")).not.toContainText("не подтверждён");
  await expect(page.getByRole("button", { name: "Отправить ссылку ещё раз" })).toHaveCount(0);

  await page.goto("/");
  await signOut(page);
  await page.goto("/auth/login");
  // Opened by its address: a click right after load blurs the autofocused login field, whose inline error shifts the link away.
  await expect(page.getByRole("link", { name: "Забыли пароль?" })).toHaveAttribute("href", "/auth/password/forgot");
  await page.goto("/auth/password/forgot");
  await page.getByLabel("Email").fill(member.email);
  await page.getByRole("button", { name: "Отправить ссылку" }).click();
  await expect(page.getByTestId("forgot-sent")).toContainText(`Если аккаунт с адресом ${member.email} существует`);

  await openMailLink(page, member.email, "Сброс пароля");
  const newPassword = "новый-пароль-2026";
  await page.getByLabel("Новый пароль").fill(newPassword);
  await page.getByLabel("Повторите пароль").fill("не-тот-пароль");
  await page.getByRole("button", { name: "Сохранить пароль" }).click();
  await expect(page.getByText("Пароли не совпадают")).toBeVisible();
  await page.getByLabel("Новый пароль").fill(newPassword);
  await page.getByLabel("Повторите пароль").fill(newPassword);
  await page.getByRole("button", { name: "Сохранить пароль" }).click();
  await expect(page).toHaveURL("/auth/login");
  await expect(page.getByText("Пароль изменён", { exact: true })).toBeVisible();

  await page.getByLabel("Email или имя пользователя").fill(member.email);
  await page.getByLabel("Пароль").fill(member.password);
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page.getByText("Неверный email или пароль")).toBeVisible();
  await signIn(page, { ...member, password: newPassword });
});

test("change email: the link mailed to the new address confirms it, then the new address signs in", async ({ page }) => {
  const member = await registerMember(page);
  const newEmail = newMember().email;
  await page.goto("/auth/email/change");
  await expect(page.getByTestId("current-email")).toHaveText(member.email);
  await page.getByLabel("Новый email").fill(newEmail);
  await page.getByLabel("Текущий пароль").fill(member.password);
  await page.getByRole("button", { name: "Отправить ссылку на новый адрес" }).click();
  await expect(page.getByTestId("change-sent")).toContainText(`Мы отправили письмо на ${newEmail}`);
  await page.goto("/auth/email/change");
  await expect(page.getByTestId("current-email")).toHaveText(member.email);

  await openMailLink(page, newEmail, "новый email");
  await expect(page.getByTestId("new-email")).toHaveText(newEmail);
  await page.getByRole("button", { name: "Подтвердить новый email" }).click();
  await expect(page).toHaveURL("/profile");
  await expect(page.getByText("Email изменён", { exact: true })).toBeVisible();

  await signOut(page);
  await signIn(page, { ...member, email: newEmail });
  await page.goto("/auth/email/change");
  await expect(page.getByTestId("current-email")).toHaveText(newEmail);
  await expect(page.getByText("подтверждён.")).toBeVisible();
});
