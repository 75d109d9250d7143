/**
 * The wallet and the deposit in the browser (issue 5 "Done when": admin top-up → transfer →
 * deposit), with and without JavaScript. Fresh members keep the js and no-js runs apart: the
 * demo admin tops a new member up; the member sends money to another new member (a plain
 * transfer, and a held one he releases early — each money move through its confirmation step), is refused in Russian when the balance is short
 * (nothing changes), locks part as a deposit, asks to withdraw part and cancels, and sees the
 * deposit on /profile/deposit and on his public profile. The recipient sees both payments.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, registerMember, test, DEMO, openContext, authenticate, hydratedWithScripts } from "./fixtures";

/** The success message after a form post: a toast with JavaScript, the server's banner without. */
async function expectNotice(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

/**
 * Sends the filled transfer form through its two steps (docs/product/interface.md#money-confirmations):
 * «Продолжить» shows the confirmation with the recipient's trust card, «Подтвердить» moves the money.
 */
async function confirmTransfer(page: Page, transfer: Locator, recipient: string, amount: string) {
  await transfer.getByRole("button", { name: "Продолжить" }).click();
  const confirm = page.getByTestId("transfer-confirm");
  await expect(confirm.getByTestId("transfer-recipient")).toContainText(recipient);
  await expect(confirm.getByTestId("trust-card-figures")).toBeVisible();
  await expect(confirm.getByTestId("confirm-amount")).toHaveText(amount);
  await confirm.getByRole("button", { name: "Подтвердить" }).click();
}

/**
 * Passes the confirmation step of another money form (a hold's release, a deposit, a withdrawal):
 * checks the amount shown, then «Подтвердить».
 */
async function confirmStep(page: Page, testId: string, amount: string) {
  const confirm = page.getByTestId(testId);
  await expect(confirm.getByTestId("confirm-amount")).toHaveText(amount);
  await confirm.getByRole("button", { name: "Подтвердить" }).click();
}

const balance = (page: Page, id: "available" | "held" | "deposit") => page.getByTestId(`balance-${id}`);
const logEntries = (page: Page, list: "balance-log" | "deposit-log"): Locator => page.getByTestId(list).getByTestId("log-entry");

test("admin top-up → transfers with and without a hold → a refused transfer → a deposit shown on the profile", async ({ page, browser }) => {
  const other = await openContext(browser);
  const recipient = await registerMember(other.page);
  const payer = await registerMember(page);

  // The admin credits the new member through the development provider.
  const admin = await openContext(browser);
  await authenticate(admin.page, DEMO.admin);
  await admin.page.goto("/profile/wallet");
  await hydratedWithScripts(admin.page);
  const topUp = admin.page.getByTestId("topup-form");
  await topUp.getByLabel("Участник").fill(payer.username);
  await topUp.getByLabel("Сумма пополнения").fill("1 000");
  await topUp.getByRole("button", { name: "Пополнить" }).click();
  await admin.page.getByTestId("topup-confirm").getByRole("button", { name: "Подтвердить" }).click();
  await expectNotice(admin.page, `Баланс ${payer.username} пополнен на 1 000,00 ₽`);
  await admin.close();

  await page.goto("/profile/wallet");
  await hydratedWithScripts(page);
  await expect(balance(page, "available")).toContainText("1 000,00 ₽");
  await expect(logEntries(page, "balance-log").first()).toContainText("Пополнение");

  // A plain transfer with a memo.
  const transfer = page.getByTestId("transfer-form");
  await transfer.getByLabel("Получатель").fill(recipient.username);
  await transfer.getByLabel("Сумма").fill("150,50");
  await transfer.getByLabel("Комментарий").fill("за скин");
  await confirmTransfer(page, transfer, recipient.username, "150,50 ₽");
  await expectNotice(page, `Переведено 150,50 ₽ участнику ${recipient.username}`);
  await expect(balance(page, "available")).toContainText("849,50 ₽");
  const sent = logEntries(page, "balance-log").first();
  await expect(sent).toContainText(`Перевод участнику · ${recipient.username}`);
  await expect(sent).toContainText("−150,50 ₽");
  await expect(sent).toContainText("за скин");

  // More than the balance: refused in Russian, nothing moves, the form keeps what was typed.
  await transfer.getByLabel("Получатель").fill(recipient.username);
  await transfer.getByLabel("Сумма").fill("5 000");
  await transfer.getByRole("button", { name: "Продолжить" }).click();
  await expect(transfer.getByRole("alert")).toContainText("Недостаточно средств на балансе");
  await expect(transfer.getByLabel("Сумма")).toHaveValue("5 000");
  await expect(balance(page, "available")).toContainText("849,50 ₽");
  await expect(logEntries(page, "balance-log")).toHaveCount(2);

  // A held transfer, released early by the sender.
  await transfer.getByLabel("Получатель").fill(recipient.username);
  await transfer.getByLabel("Сумма").fill("200");
  await transfer.getByLabel("Удержание, часов").fill("24");
  await confirmTransfer(page, transfer, recipient.username, "200,00 ₽");
  await expectNotice(page, `Переведено 200,00 ₽ участнику ${recipient.username}`);
  await expect(balance(page, "available")).toContainText("649,50 ₽");
  const held = page.getByTestId("outgoing-holds").getByTestId("hold");
  await expect(held).toHaveCount(1);
  await expect(held).toContainText(`200,00 ₽ для ${recipient.username}`);

  await other.page.goto("/profile/wallet");
  await expect(balance(other.page, "held")).toContainText("200,00 ₽");
  await expect(other.page.getByTestId("incoming-holds").getByTestId("hold")).toContainText(`200,00 ₽ от ${payer.username}`);

  await held.getByRole("button", { name: "Снять удержание" }).click();
  await expect(page.getByTestId("release-confirm").getByTestId("confirm-party")).toContainText(recipient.username);
  await confirmStep(page, "release-confirm", "200,00 ₽");
  await expectNotice(page, "Удержание снято: 200,00 ₽ зачислены получателю");
  await expect(page.getByTestId("outgoing-holds").getByTestId("hold")).toHaveCount(0);

  await other.page.reload();
  await expect(balance(other.page, "available")).toContainText("350,50 ₽");
  await expect(balance(other.page, "held")).toContainText("0,00 ₽");
  await expect(logEntries(other.page, "balance-log").first()).toContainText(`Удержание снято, деньги зачислены · ${payer.username}`);
  await other.close();

  // Part of the balance becomes the public deposit.
  await page.getByRole("link", { name: "Депозит →" }).click();
  await expect(page).toHaveURL("/profile/deposit");
  await hydratedWithScripts(page);
  const lock = page.getByTestId("deposit-form");
  await lock.getByLabel("Сумма").fill("1 000");
  await lock.getByRole("button", { name: "Внести в депозит" }).click();
  await expect(lock.getByRole("alert")).toContainText("Недостаточно средств на балансе");
  await expect(page.getByTestId("deposit-amount")).toContainText("0,00 ₽");
  await lock.getByLabel("Сумма").fill("300");
  await lock.getByRole("button", { name: "Внести в депозит" }).click();
  await confirmStep(page, "deposit-confirm", "300,00 ₽");
  await expectNotice(page, "В депозит внесено 300,00 ₽");
  await expect(page.getByTestId("deposit-amount")).toContainText("300,00 ₽");
  await expect(page.getByTestId("deposit-available")).toContainText("349,50 ₽");
  await expect(logEntries(page, "deposit-log")).toHaveCount(1);
  await expect(logEntries(page, "deposit-log").first()).toContainText("Пополнение депозита");
  await expect(logEntries(page, "deposit-log").first()).toContainText("+300,00 ₽");

  // A withdrawal waits 14 days (pending, shown with its date) and can be cancelled.
  const withdraw = page.getByTestId("withdraw-form");
  await withdraw.getByLabel("Сумма к выводу").fill("100");
  await withdraw.getByRole("button", { name: "Подать заявку на вывод" }).click();
  await confirmStep(page, "withdraw-confirm", "100,00 ₽");
  await expectNotice(page, "Заявка на вывод 100,00 ₽ принята");
  const pending = page.getByTestId("pending-withdrawal");
  await expect(pending).toContainText("Заявка на вывод 100,00 ₽");
  await expect(pending).toContainText("Доступно с");
  await expect(page.getByTestId("deposit-amount")).toContainText("300,00 ₽");
  await pending.getByRole("button", { name: "Отменить" }).click();
  await confirmStep(page, "cancel-confirm", "100,00 ₽");
  await expectNotice(page, "Заявка на вывод отменена");
  await expect(page.getByTestId("pending-withdrawal")).toHaveCount(0);
  await expect(page.getByTestId("withdraw-form")).toBeVisible();

  // The deposit is public.
  await page.getByRole("link", { name: "Как его видят другие" }).click();
  await expect(page).toHaveURL(`/profile/${payer.id}`);
  await expect(page.getByTestId("profile-deposit")).toHaveText("Депозит: 300,00 ₽");
});

test("a visitor is sent to sign in from the wallet and the deposit pages", async ({ page }) => {
  await page.goto("/profile/wallet");
  await expect(page).toHaveURL("/auth/login?redirect=%2Fprofile%2Fwallet");
  await page.goto("/profile/deposit");
  await expect(page).toHaveURL("/auth/login?redirect=%2Fprofile%2Fdeposit");
});

test("an unknown recipient is refused beside its field; a hold released in another tab is refused beside the list and disappears", async ({
  page,
  browser,
}) => {
  const other = await openContext(browser);
  const recipient = await registerMember(other.page);
  await other.close();
  const payer = await registerMember(page);
  const admin = await openContext(browser);
  await authenticate(admin.page, DEMO.admin);
  await admin.page.goto("/profile/wallet");
  await hydratedWithScripts(admin.page);
  const topUp = admin.page.getByTestId("topup-form");
  await topUp.getByLabel("Участник").fill(payer.username);
  await topUp.getByLabel("Сумма пополнения").fill("500");
  await topUp.getByRole("button", { name: "Пополнить" }).click();
  await admin.page.getByTestId("topup-confirm").getByRole("button", { name: "Подтвердить" }).click();
  await expectNotice(admin.page, `Баланс ${payer.username} пополнен на 500,00 ₽`);
  await admin.close();

  await page.goto("/profile/wallet");
  await hydratedWithScripts(page);
  const transfer = page.getByTestId("transfer-form");
  await transfer.getByLabel("Получатель").fill(`nobody_${Date.now().toString(36)}`);
  await transfer.getByLabel("Сумма").fill("10");
  await transfer.getByRole("button", { name: "Продолжить" }).click();
  await expect(transfer.getByLabel("Получатель")).toHaveAttribute("aria-invalid", "true");
  await expect(transfer.getByText("Получатель не найден", { exact: true })).toBeVisible();
  await expect(balance(page, "available")).toContainText("500,00 ₽");

  await transfer.getByLabel("Получатель").fill(recipient.username);
  await transfer.getByLabel("Сумма").fill("100");
  await transfer.getByLabel("Удержание, часов").fill("24");
  await confirmTransfer(page, transfer, recipient.username, "100,00 ₽");
  await expectNotice(page, `Переведено 100,00 ₽ участнику ${recipient.username}`);

  // The same member has the wallet open in a second tab; the first tab releases the hold.
  const stale = await page.context().newPage();
  await stale.goto("/profile/wallet");
  await hydratedWithScripts(stale);
  const release = `Снять удержание: 100,00 ₽ для ${recipient.username}`;
  await page.getByRole("button", { name: release }).click();
  await confirmStep(page, "release-confirm", "100,00 ₽");
  await expectNotice(page, "Удержание снято: 100,00 ₽ зачислены получателю");

  await stale.getByRole("button", { name: release }).click();
  await expect(stale.getByTestId("outgoing-holds").getByRole("alert")).toContainText("Удержание уже снято");
  await expect(stale.getByTestId("outgoing-holds").getByTestId("hold")).toHaveCount(0);
  await expect(balance(stale, "available")).toContainText("400,00 ₽");
  await stale.close();
});
