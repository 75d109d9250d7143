/**
 * The admin area (issue 10; docs/product/moderation.md#admin-pages), with JavaScript on and off:
 * an admin suspends a member (who is signed out and told why and until when at sign-in), an
 * admin makes a member a moderator, a moderator reads the audit log, an admin's top-up shows in
 * it and the member page lists the member's claims and deals, and the statistics' tables carry
 * the numbers without JavaScript.
 */
import { randomUUID } from "node:crypto";
import { authenticate, DEMO, expect, newMember, openContext, registerMember, test, hydratedWithScripts } from "./fixtures";

test("an admin suspends a member: they are signed out and the sign-in page says why and until when", async ({ page, browser }) => {
  const other = await openContext(browser);
  const member = await registerMember(other.page, newMember());

  await authenticate(page, DEMO.admin);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Разделы" }).getByRole("link", { name: "Администрирование" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Администрирование" })).toBeVisible();
  await page.getByRole("navigation", { name: "Администрирование" }).getByRole("link", { name: "Участники" }).click();
  await page.getByLabel("Имя пользователя или email").fill(member.username);
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page.getByTestId("member-row")).toHaveCount(1);
  await page.getByRole("link", { name: member.username, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(member.username);

  const form = page.getByTestId("sanction-form");
  await form.getByLabel("Что сделать").selectOption("suspend");
  await form.getByLabel("Срок", { exact: true }).selectOption("until");
  // A moment in the past is refused in Russian, and nothing is applied.
  await form.getByLabel(/^До/).fill("2020-01-01T10:00");
  await form.getByLabel(/^Причина/).fill("Продажа краденых аккаунтов");
  await form.getByRole("button", { name: "Применить" }).click();
  await expect(form.getByText("Срок должен заканчиваться в будущем").first()).toBeVisible();
  await expect(page.getByText("Нет: участник может входить и публиковать.")).toBeVisible();

  await form.getByLabel(/^До/).fill("2099-05-01T12:00");
  await form.getByLabel(/^Причина/).fill("Продажа краденых аккаунтов");
  await form.getByRole("button", { name: "Применить" }).click();
  await expect(page.getByText("Участник заблокирован", { exact: true })).toBeVisible();
  await expect(page.getByTestId("active-sanction")).toContainText("Блокировка до 1 мая 2099 г. в 12:00");
  await expect(page.getByTestId("admin-member-audit").getByTestId("audit-entry").first()).toContainText("заблокировал");

  // The member's browser is signed out on its next navigation, and sign-in says why.
  await other.page.goto("/profile");
  await expect(other.page).toHaveURL(/\/auth\/login/);
  await other.page.getByLabel("Email или имя пользователя").fill(member.email);
  await other.page.getByLabel("Пароль").fill(member.password);
  await other.page.getByRole("button", { name: "Войти" }).click();
  await expect(other.page.getByRole("alert")).toContainText(
    "Ваша учётная запись заблокирована до 1 мая 2099 г. в 12:00 (МСК). Причина: Продажа краденых аккаунтов",
  );
  await expect(other.page.getByTestId("header-profile")).toHaveCount(0);
  await other.close();

  // Lifting it lets them in again.
  await page.getByTestId("active-sanction").getByRole("button", { name: "Снять ограничение" }).click();
  await expect(page.getByText("Ограничение снято", { exact: true })).toBeVisible();
  await expect(page.getByText("Нет: участник может входить и публиковать.")).toBeVisible();
});

test("an admin makes a member a moderator, who then sees the admin area", async ({ page, browser }) => {
  const other = await openContext(browser);
  const member = await registerMember(other.page, newMember());
  await expect(other.page.getByRole("link", { name: "Администрирование" })).toHaveCount(0);

  await authenticate(page, DEMO.admin);
  await page.goto(`/admin/members/${member.id}`);
  const roles = page.getByTestId("role-form");
  await roles.getByLabel("Роль").selectOption("MODERATOR");
  await roles.getByLabel(/^Причина/).fill("Помогает в разделе «Игры»");
  await roles.getByRole("button", { name: "Выдать роль" }).click();
  await expect(page.getByText("Роль выдана", { exact: true })).toBeVisible();
  await expect(page.getByTestId("member-role")).toHaveText("Модератор");

  // Granting it again is refused in Russian.
  await roles.getByLabel("Роль").selectOption("MODERATOR");
  await roles.getByRole("button", { name: "Выдать роль" }).click();
  await expect(roles.getByText("У участника уже есть роль «Модератор»").first()).toBeVisible();

  // The new moderator sees the link and the moderators' pages, but not the admins' ones.
  await other.page.goto("/");
  await other.page.getByRole("navigation", { name: "Разделы" }).getByRole("link", { name: "Администрирование" }).click();
  const nav = other.page.getByRole("navigation", { name: "Администрирование" });
  await expect(nav.getByRole("link", { name: "Журнал" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Настройки" })).toHaveCount(0);
  await other.close();
});

test("a moderator reads the audit log and filters it", async ({ page }) => {
  await authenticate(page, DEMO.moderator);
  await page.goto("/admin");
  const nav = page.getByRole("navigation", { name: "Администрирование" });
  await expect(nav.getByRole("link", { name: "Настройки" })).toHaveCount(0);
  await nav.getByRole("link", { name: "Журнал" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Журнал действий" })).toBeVisible();
  await expect(page.getByTestId("audit-entry").first()).toBeVisible();

  await page.getByLabel("Действие").selectOption("role.grant");
  await page.getByRole("button", { name: "Показать" }).click();
  await expect(page).toHaveURL(/action=role\.grant/);
  const entries = page.getByTestId("audit-entry");
  await expect(entries.first()).toContainText("выдал роль");
  for (const text of await entries.allTextContents()) expect(text).toContain("выдал роль");

  // An unknown member in the filter is a message, not an error page.
  await page.getByLabel("Кто действовал").fill("nobody_here_at_all");
  await page.getByRole("button", { name: "Показать" }).click();
  await expect(page.getByRole("alert")).toContainText("Участник не найден");

  // Settings are the admins' page.
  const response = await page.goto("/admin/settings");
  expect(response?.status()).toBe(403);
  await expect(page.getByText("Это действие доступно только администраторам")).toBeVisible();
});

test("an admin's top-up is in the audit log; the member page links the member's claims and deals", async ({ page, browser }) => {
  const other = await openContext(browser);
  const member = await registerMember(other.page, newMember());
  // The member files a claim against the demo moderator and proposes them a deal (through the JSON API).
  await other.page.goto("/claims/new");
  const csrf = await other.page.locator('input[name="csrf"]').first().inputValue();
  const headers = () => ({ "X-CSRF-Token": csrf, "Idempotency-Key": randomUUID() });
  const claim = await other.page.request.post("/api/claims", {
    data: { accused: DEMO.moderator.username, amount: 70_000, description: "Обещал передать аккаунт и не передал.", evidence: [] },
    headers: headers(),
  });
  expect(claim.status()).toBe(201);
  const claimId = ((await claim.json()) as { data: { id: number } }).data.id;
  const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const deal = await other.page.request.post("/api/guarantor/deals", {
    data: { counterparty: DEMO.moderator.username, role: "buyer", amount: 120_000, description: "Аккаунт Steam с 40 играми", deadline, feePayer: "split" },
    headers: headers(),
  });
  expect(deal.ok()).toBe(true);
  const dealId = ((await deal.json()) as { data: { id: number } }).data.id;
  await other.close();

  await authenticate(page, DEMO.admin);
  await page.goto("/profile/wallet");
  await hydratedWithScripts(page);
  const form = page.getByTestId("topup-form");
  await form.getByLabel("Участник").fill(member.username);
  await form.getByLabel("Сумма пополнения").fill("500");
  await form.getByRole("button", { name: "Пополнить" }).click();
  await page.getByTestId("topup-confirm").getByRole("button", { name: "Подтвердить" }).click();
  await expect(page.getByText(`Баланс ${member.username} пополнен на 500,00 ₽`, { exact: true })).toBeVisible();

  await page.goto("/admin/log");
  await page.getByLabel("Действие").selectOption({ label: "Пополнил баланс" });
  await page.getByLabel("С кем").fill(member.username);
  await page.getByRole("button", { name: "Показать" }).click();
  await expect(page).toHaveURL(/action=money\.topup/);
  const entries = page.getByTestId("audit-entry");
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText(`admin пополнил баланс ${member.username} — 500,00 ₽`);
  await entries.first().getByRole("link", { name: member.username }).click();

  await expect(page.getByRole("heading", { level: 1 })).toContainText(member.username);
  await expect(page.getByTestId("admin-member-audit").getByTestId("audit-entry").first()).toContainText("пополнил баланс");
  const filed = page.getByTestId("member-claims-filed");
  await expect(filed).toContainText(`Претензия №${claimId} против ${DEMO.moderator.username} — 700,00 ₽, на рассмотрении`);
  await expect(page.getByTestId("member-claims-against")).toHaveCount(0);
  await expect(page.getByTestId("admin-member-claims")).toContainText("Претензий против участника нет.");
  const deals = page.getByTestId("member-deals");
  await expect(deals).toContainText(`Сделка №${dealId} — покупатель, продавец ${DEMO.moderator.username}, 1 200,00 ₽, создана`);
  await deals.getByRole("link", { name: `Сделка №${dealId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/services/guarantor/deals/${dealId}$`));
  await page.goBack();
  await page
    .getByTestId("member-claims-filed")
    .getByRole("link", { name: `Претензия №${claimId}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/claims/${claimId}$`));
});

test("statistics: per-day tables for 7, 30 and 90 days, charts with JavaScript", async ({ page }) => {
  await authenticate(page, DEMO.admin);
  await page.goto("/admin/stats");
  await expect(page.getByRole("heading", { level: 1, name: "Статистика" })).toBeVisible();
  const signups = page.getByTestId("admin-stats-signups");
  await expect(signups.getByRole("heading", { name: "Регистрации" })).toBeVisible();
  await expect(signups.getByTestId("stats-table").locator("tbody tr")).toHaveCount(7);
  await expect(page.getByTestId("stats-table")).toHaveCount(8);

  await page.getByRole("navigation", { name: "Период" }).getByRole("link", { name: "30 дней" }).click();
  await expect(page).toHaveURL(/days=30/);
  await expect(signups.getByTestId("stats-table").locator("tbody tr")).toHaveCount(30);
  await page.getByRole("navigation", { name: "Период" }).getByRole("link", { name: "90 дней" }).click();
  await expect(signups.getByTestId("stats-table").locator("tbody tr")).toHaveCount(90);

  if (test.info().project.use.javaScriptEnabled) {
    await expect(signups.getByTestId("stats-chart").locator("svg.recharts-surface")).toBeVisible();
  } else {
    await expect(signups.getByTestId("stats-chart")).toContainText("График появится с JavaScript; цифры — в таблице.");
  }
});
