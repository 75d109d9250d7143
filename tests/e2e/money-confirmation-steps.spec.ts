/**
 * The confirmation step of the money moves beside the transfer (docs/product/interface.md#money-confirmations),
 * with and without JavaScript (a second page without it): releasing a hold early shows the
 * recipient's trust card; locking money in the deposit and asking for it back show the balances
 * after and the date; funding a deal and confirming receipt show the seller's card; an admin's top-up
 * shows the member's card; cancelling a withdrawal shows what stays; agreeing to cancel a deal
 * shows the buyer's card and the refund; upholding a claim with compensation shows the
 * claimant's card and the deposit after. On each,
 * nothing moves before «Подтвердить», and «Изменить» goes back with what was typed kept.
 * The money the journeys start from is set up over the JSON API (one step), as a client would.
 */
import type { Page } from "@playwright/test";
import { decodeHtml } from "../setup/html";
import { authenticate, DEMO, expect, openContext, registerMember, test, type Member, hydratedWithScripts, recordScreenshot } from "./fixtures";

/** POSTs a JSON call as `page`'s member (the CSRF token of their page forms, a fresh idempotency key); returns `data`. */
async function api<T>(page: Page, path: string, body: unknown): Promise<T> {
  const request = page.context().request;
  const html = await (await request.get("/profile/wallet")).text();
  const csrf = decodeHtml(/name="csrf" value="([^"]+)"/.exec(html)![1]!);
  const answer = await request.post(path, { data: body, headers: { "X-CSRF-Token": csrf, "Idempotency-Key": crypto.randomUUID() } });
  expect(answer.status(), `${path}: ${await answer.text()}`).toBe(200);
  return ((await answer.json()) as { data: T }).data;
}

/** The demo admin credits `member` with `kopecks`. */
async function topUp(browser: Parameters<typeof openContext>[0], member: Member, kopecks: number) {
  const admin = await openContext(browser);
  await authenticate(admin.page, DEMO.admin);
  await api(admin.page, "/api/admin/payments/topup", { memberId: member.id, amount: kopecks });
  await admin.close();
}

async function expectNotice(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

test("releasing a hold early is confirmed with the recipient's trust card; «Изменить» goes back to the list", async ({ page, browser }, testInfo) => {
  const other = await openContext(browser);
  const recipient = await registerMember(other.page);
  await other.close();
  const payer = await registerMember(page);
  await topUp(browser, payer, 50_000);
  await api(page, "/api/profile/payments/transfer", { recipient: recipient.username, amount: 20_000, holdHours: 24, memo: "за ключ" });

  await page.goto("/profile/wallet");
  await hydratedWithScripts(page);
  const release = `Снять удержание: 200,00 ₽ для ${recipient.username}`;
  await page.getByRole("button", { name: release }).click();
  const confirm = page.getByTestId("release-confirm");
  await expect(confirm.getByTestId("confirm-party")).toContainText(recipient.username);
  await expect(confirm.getByTestId("trust-card-figures")).toContainText("Депозит");
  await expect(confirm.getByTestId("confirm-amount")).toHaveText("200,00 ₽");
  await expect(confirm.getByTestId("confirm-balance-after")).toHaveText("300,00 ₽");
  await expect(confirm).toContainText("за ключ");
  await expect(page.getByTestId("outgoing-holds")).toHaveCount(0);
  await recordScreenshot(page, testInfo.outputPath("release-confirm.png"));

  // «Изменить»: back to the wallet, the hold still held.
  await confirm.getByRole("link", { name: "Изменить" }).click();
  await expect(page.getByTestId("outgoing-holds").getByTestId("hold")).toContainText(`200,00 ₽ для ${recipient.username}`);
  await expect(page.getByTestId("release-confirm")).toHaveCount(0);

  await hydratedWithScripts(page);
  await page.getByRole("button", { name: release }).click();
  await page.getByTestId("release-confirm").getByRole("button", { name: "Подтвердить" }).click();
  await expectNotice(page, "Удержание снято: 200,00 ₽ зачислены получателю");
  await expect(page.getByTestId("outgoing-holds").getByTestId("hold")).toHaveCount(0);
  await expect(page.getByTestId("balance-available")).toContainText("300,00 ₽");
});

test("locking money in the deposit and asking for it back are confirmed; «Изменить» keeps the amount", async ({ page, browser }, testInfo) => {
  const member = await registerMember(page);
  await topUp(browser, member, 100_000);

  await page.goto("/profile/deposit");
  await hydratedWithScripts(page);
  const lock = page.getByTestId("deposit-form");
  await lock.getByLabel("Сумма").fill("400");
  await lock.getByRole("button", { name: "Внести в депозит" }).click();
  const confirmLock = page.getByTestId("deposit-confirm");
  await expect(confirmLock.getByTestId("confirm-amount")).toHaveText("400,00 ₽");
  await expect(confirmLock.getByTestId("confirm-balance-after")).toHaveText("600,00 ₽");
  await expect(confirmLock.getByTestId("confirm-deposit-after")).toHaveText("400,00 ₽");
  await expect(confirmLock).toContainText("Комиссия");
  await expect(page.getByTestId("deposit-amount")).toContainText("0,00 ₽");

  await confirmLock.getByRole("link", { name: "Изменить" }).click();
  await expect(lock.getByLabel("Сумма")).toHaveValue("400,00");
  await hydratedWithScripts(page);
  await lock.getByLabel("Сумма").fill("350");
  await lock.getByRole("button", { name: "Внести в депозит" }).click();
  await expect(confirmLock.getByTestId("confirm-amount")).toHaveText("350,00 ₽");
  await confirmLock.getByRole("button", { name: "Подтвердить" }).click();
  await expectNotice(page, "В депозит внесено 350,00 ₽");
  await expect(page.getByTestId("deposit-amount")).toContainText("350,00 ₽");
  await expect(page.getByTestId("deposit-available")).toContainText("650,00 ₽");

  const withdraw = page.getByTestId("withdraw-form");
  await withdraw.getByLabel("Сумма к выводу").fill("100");
  await withdraw.getByRole("button", { name: "Подать заявку на вывод" }).click();
  const confirmWithdrawal = page.getByTestId("withdraw-confirm");
  await expect(confirmWithdrawal.getByTestId("confirm-amount")).toHaveText("100,00 ₽");
  await expect(confirmWithdrawal.getByTestId("confirm-available-at")).toContainText(" г. в ");
  await expect(confirmWithdrawal.getByTestId("confirm-deposit-after")).toHaveText("250,00 ₽");
  await expect(confirmWithdrawal.getByTestId("confirm-balance-after")).toHaveText("750,00 ₽");
  await expect(page.getByTestId("pending-withdrawal")).toHaveCount(0);
  await recordScreenshot(page, testInfo.outputPath("withdraw-confirm.png"));

  await confirmWithdrawal.getByRole("link", { name: "Изменить" }).click();
  await expect(withdraw.getByLabel("Сумма к выводу")).toHaveValue("100,00");
  await hydratedWithScripts(page);
  await withdraw.getByRole("button", { name: "Подать заявку на вывод" }).click();
  await confirmWithdrawal.getByRole("button", { name: "Подтвердить" }).click();
  await expectNotice(page, "Заявка на вывод 100,00 ₽ принята");
  await expect(page.getByTestId("pending-withdrawal")).toContainText("Заявка на вывод 100,00 ₽");
  await expect(page.getByTestId("deposit-amount")).toContainText("350,00 ₽");
});

test("funding a deal and confirming receipt show the seller's trust card and move money only on «Подтвердить»", async ({ page, browser }, testInfo) => {
  const sellerContext = await openContext(browser);
  const seller = await registerMember(sellerContext.page);
  const buyer = await registerMember(page);
  await topUp(browser, buyer, 200_000);
  const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const deal = await api<{ id: number }>(sellerContext.page, "/api/guarantor/deals", {
    counterparty: buyer.username,
    role: "seller",
    amount: 100_000,
    description: "Аккаунт с редкими скинами",
    deadline,
    feePayer: "buyer",
  });
  await api(page, `/api/guarantor/deals/${deal.id}/actions`, { action: "accept" });
  const url = `/services/guarantor/deals/${deal.id}`;

  await page.goto(url);
  await hydratedWithScripts(page);
  await page.getByTestId("deal-actions").getByRole("button", { name: "Оплатить 1 050,00 ₽" }).click();
  const confirm = page.getByTestId("deal-confirm");
  await expect(confirm.getByTestId("confirm-party")).toContainText(seller.username);
  await expect(confirm.getByTestId("trust-card-figures")).toContainText("Сделки");
  await expect(confirm).toContainText("50,00 ₽");
  await expect(confirm.getByTestId("confirm-amount")).toHaveText("1 050,00 ₽");
  await expect(confirm.getByTestId("confirm-balance-after")).toHaveText("950,00 ₽");
  await expect(page.getByTestId("deal-state")).toHaveText("Принята");
  await recordScreenshot(page, testInfo.outputPath("deal-fund-confirm.png"));

  await confirm.getByRole("link", { name: "Изменить" }).click();
  await expect(page.getByTestId("deal-confirm")).toHaveCount(0);
  await expect(page.getByTestId("deal-state")).toHaveText("Принята");
  await hydratedWithScripts(page);
  await page.getByTestId("deal-actions").getByRole("button", { name: "Оплатить 1 050,00 ₽" }).click();
  await confirm.getByRole("button", { name: "Подтвердить" }).click();
  await expect(page.getByTestId("deal-state")).toHaveText("Оплачена");

  await api(sellerContext.page, `/api/guarantor/deals/${deal.id}/actions`, { action: "deliver" });
  await sellerContext.close();
  await page.goto(url);
  await hydratedWithScripts(page);
  await page.getByTestId("deal-actions").getByRole("button", { name: "Подтвердить получение" }).click();
  await expect(confirm.getByTestId("confirm-party")).toContainText(seller.username);
  await expect(confirm.getByTestId("confirm-amount")).toHaveText("1 000,00 ₽");
  await expect(confirm.getByTestId("confirm-balance-after")).toHaveText("950,00 ₽");
  await expect(page.getByTestId("deal-state")).toHaveText("Передано");
  await confirm.getByRole("button", { name: "Подтвердить" }).click();
  await expect(page.getByTestId("deal-state")).toHaveText("Завершена");
  await page.goto("/profile/wallet");
  await expect(page.getByTestId("balance-available")).toContainText("950,00 ₽");
});

test("an admin's top-up is confirmed with the member's trust card and their balance after; «Изменить» keeps the values", async ({
  page,
  browser,
}, testInfo) => {
  const other = await openContext(browser);
  const member = await registerMember(other.page);
  await other.close();
  await authenticate(page, DEMO.admin);
  await page.goto("/profile/wallet");
  await hydratedWithScripts(page);
  const form = page.getByTestId("topup-form");
  await form.getByLabel("Участник").fill(member.username);
  await form.getByLabel("Сумма пополнения").fill("1234,5");
  await form.getByRole("button", { name: "Пополнить" }).click();
  const confirm = page.getByTestId("topup-confirm");
  await expect(confirm.getByTestId("confirm-party")).toContainText(member.username);
  await expect(confirm.getByTestId("trust-card-figures")).toContainText("Депозит");
  await expect(confirm.getByTestId("confirm-amount")).toHaveText("1 234,50 ₽");
  await expect(confirm.getByTestId("confirm-balance-after")).toHaveText("1 234,50 ₽");
  await recordScreenshot(page, testInfo.outputPath("topup-confirm.png"));

  await confirm.getByRole("link", { name: "Изменить" }).click();
  await expect(form.getByLabel("Участник")).toHaveValue(member.username);
  await expect(form.getByLabel("Сумма пополнения")).toHaveValue("1234,50");
  await hydratedWithScripts(page);
  await form.getByLabel("Сумма пополнения").fill("500");
  await form.getByRole("button", { name: "Пополнить" }).click();
  await expect(confirm.getByTestId("confirm-amount")).toHaveText("500,00 ₽");
  await confirm.getByRole("button", { name: "Подтвердить" }).click();
  await expectNotice(page, `Баланс ${member.username} пополнен на 500,00 ₽`);
});

test("cancelling a pending withdrawal is confirmed: the amount stays in the deposit; «Изменить» keeps the request", async ({ page, browser }) => {
  const member = await registerMember(page);
  await topUp(browser, member, 100_000);
  await api(page, "/api/profile/payments/deposit", { amount: 40_000 });
  await api(page, "/api/profile/payments/deposit/withdrawal", { amount: 15_000 });

  await page.goto("/profile/deposit");
  await hydratedWithScripts(page);
  await page.getByTestId("pending-withdrawal").getByRole("button", { name: "Отменить" }).click();
  const confirm = page.getByTestId("cancel-confirm");
  await expect(confirm.getByTestId("confirm-amount")).toHaveText("150,00 ₽");
  await expect(confirm.getByTestId("confirm-deposit-after")).toHaveText("400,00 ₽");
  await expect(confirm.getByTestId("confirm-balance-after")).toHaveText("600,00 ₽");

  await confirm.getByRole("link", { name: "Изменить" }).click();
  await expect(page.getByTestId("pending-withdrawal")).toContainText("Заявка на вывод 150,00 ₽");
  await hydratedWithScripts(page);
  await page.getByTestId("pending-withdrawal").getByRole("button", { name: "Отменить" }).click();
  await confirm.getByRole("button", { name: "Подтвердить" }).click();
  await expectNotice(page, "Заявка на вывод отменена");
  await expect(page.getByTestId("pending-withdrawal")).toHaveCount(0);
  await expect(page.getByTestId("deposit-amount")).toContainText("400,00 ₽");
});

test("agreeing to cancel a funded deal is confirmed with the buyer's card and the refund", async ({ page, browser }, testInfo) => {
  const buyerContext = await openContext(browser);
  const buyer = await registerMember(buyerContext.page);
  const seller = await registerMember(page);
  await topUp(browser, buyer, 200_000);
  const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const deal = await api<{ id: number }>(buyerContext.page, "/api/guarantor/deals", {
    counterparty: seller.username,
    role: "buyer",
    amount: 100_000,
    description: "Ключ активации",
    deadline,
    feePayer: "buyer",
  });
  const actions = `/api/guarantor/deals/${deal.id}/actions`;
  await api(page, actions, { action: "accept" });
  await api(buyerContext.page, actions, { action: "fund" });
  await api(buyerContext.page, actions, { action: "request_cancel" });
  await buyerContext.close();

  await page.goto(`/services/guarantor/deals/${deal.id}`);
  await hydratedWithScripts(page);
  await page.getByTestId("deal-actions").getByRole("button", { name: "Согласиться на отмену" }).click();
  const confirm = page.getByTestId("deal-confirm");
  await expect(confirm.getByTestId("confirm-party")).toContainText(buyer.username);
  await expect(confirm.getByTestId("confirm-amount")).toHaveText("1 050,00 ₽");
  await expect(confirm.getByTestId("confirm-balance-after")).toHaveText("0,00 ₽");
  await expect(page.getByTestId("deal-state")).toHaveText("Оплачена");
  await recordScreenshot(page, testInfo.outputPath("deal-agree-cancel-confirm.png"));

  await confirm.getByRole("link", { name: "Изменить" }).click();
  await expect(page.getByTestId("deal-confirm")).toHaveCount(0);
  await hydratedWithScripts(page);
  await page.getByTestId("deal-actions").getByRole("button", { name: "Согласиться на отмену" }).click();
  await confirm.getByRole("button", { name: "Подтвердить" }).click();
  await expectNotice(page, "Сделка отменена, деньги вернулись покупателю");
  await expect(page.getByTestId("deal-state")).toHaveText("Возврат");
});

test("upholding a claim with compensation is confirmed with the claimant's card and the deposit after; «Изменить» keeps the decision", async ({
  page,
  browser,
}) => {
  const parties = await openContext(browser);
  const accused = await registerMember(parties.page);
  await topUp(browser, accused, 50_000);
  await api(parties.page, "/api/profile/payments/deposit", { amount: 30_000 });
  await parties.close();
  const claimantContext = await openContext(browser);
  const claimant = await registerMember(claimantContext.page);
  // Filing answers 201 (a new claim), so it is posted here rather than through api().
  const html = await (await claimantContext.page.context().request.get("/profile/wallet")).text();
  const csrf = decodeHtml(/name="csrf" value="([^"]+)"/.exec(html)![1]!);
  const filed = await claimantContext.page.context().request.post("/api/claims", {
    data: { accused: accused.username, amount: 20_000, description: "Деньги получены, аккаунт не передан", evidence: [] },
    headers: { "X-CSRF-Token": csrf, "Idempotency-Key": crypto.randomUUID() },
  });
  expect(filed.status(), await filed.text()).toBe(201);
  const claim = ((await filed.json()) as { data: { id: number } }).data;
  await claimantContext.close();

  await authenticate(page, DEMO.moderator);
  await page.goto(`/claims/${claim.id}`);
  await hydratedWithScripts(page);
  await page.getByLabel(/^Удовлетворить/).check();
  await page.getByLabel("Причина решения").fill("Переписка подтверждает");
  await page.getByLabel("Компенсация из депозита").fill("150");
  await page.getByRole("button", { name: "Вынести решение" }).click();
  const confirm = page.getByTestId("claim-confirm");
  await expect(confirm.getByTestId("confirm-party")).toContainText(claimant.username);
  await expect(confirm.getByTestId("confirm-amount")).toHaveText("150,00 ₽");
  await expect(confirm.getByTestId("confirm-deposit-after")).toHaveText("150,00 ₽");
  await expect(page.getByTestId("claim-status")).toHaveText("На рассмотрении");

  await confirm.getByRole("link", { name: "Изменить" }).click();
  await expect(page.getByLabel("Причина решения")).toHaveValue("Переписка подтверждает");
  await expect(page.getByLabel("Компенсация из депозита")).toHaveValue("150,00");
  await hydratedWithScripts(page);
  await page.getByRole("button", { name: "Вынести решение" }).click();
  await confirm.getByRole("button", { name: "Подтвердить" }).click();
  await expect(page.getByTestId("claim-decision")).toContainText("Возмещено из депозита: 150,00 ₽");
});
