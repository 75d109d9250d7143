/**
 * The scam overlay and the trust card (docs/product/interface.md#trust-card): a member whose claim
 * was upheld (the seeded Sanya_Trader) carries the overlay on every avatar — on their profile's
 * post cards too, with JavaScript or without — a member opening one of their posts sees the
 * warning banner, and hovering a name opens their trust card.
 */
import type { Locator } from "@playwright/test";
import { authenticate, DEMO, expect, openContext, registerMember, test, hydrated } from "./fixtures";

test("a member opening a post by the scammer sees the warning banner above it", async ({ page }) => {
  await registerMember(page);
  await page.goto("/blacklist");
  await page.getByRole("link", { name: "Sanya_Trader" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Sanya_Trader" })).toBeVisible();
  const card = page.getByTestId("post-card").first();
  const title = await card.getByRole("heading", { level: 2 }).innerText();
  await card.getByRole("heading", { level: 2 }).getByRole("link").click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const warning = page.getByTestId("scam-warning").first();
  await expect(warning).toBeVisible();
  await expect(warning).toContainText("Sanya_Trader — мошенник.");
  await expect(warning).toContainText("Не переводите деньги напрямую и не проводите сделки вне гаранта.");
});

test("a scammer's post cards carry the scam overlay", async ({ page }) => {
  await page.goto("/blacklist");
  await page.getByRole("link", { name: "Sanya_Trader" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Sanya_Trader" })).toBeVisible();
  const card = page.getByTestId("post-card").first();
  await expect(card).toBeVisible();
  await expect(card.locator('[data-slot="avatar-overlay"]')).toContainText("Мошенник");
});

test("hovering a member's name opens their trust card with deposit, deals and claims", { tag: "@js-only" }, async ({ page }) => {
  await page.goto("/blacklist");
  await page.getByRole("link", { name: "Sanya_Trader" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Sanya_Trader" })).toBeVisible();
  // A pointer that came to rest before the page's script started sends no new enter event: wait for it.
  await hydrated(page);
  const name = page.getByTestId("post-card").first().getByRole("link", { name: "Sanya_Trader", exact: true });
  await name.hover();
  const trustCard = page.getByTestId("trust-card");
  await expect(trustCard).toBeVisible();
  await expect(trustCard.getByTestId("scam-warning")).toContainText("мошенник");
  const figures = trustCard.getByTestId("trust-card-figures");
  await expect(figures).toContainText("Депозит");
  await expect(figures).toContainText("признано");
  // Leaving closes it after 300 ms.
  await page.mouse.move(0, 0);
  await expect(trustCard).toHaveCount(0);
});

test("focusing a member's name from the keyboard opens their trust card, and Escape closes it", { tag: "@js-only" }, async ({ page }) => {
  await page.goto("/blacklist");
  await page.getByRole("link", { name: "Sanya_Trader" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Sanya_Trader" })).toBeVisible();
  await hydrated(page);
  const name = page.getByTestId("post-card").first().getByRole("link", { name: "Sanya_Trader", exact: true });
  const trustCard = page.getByTestId("trust-card");
  // The card's first load may land after this focus has ended: the focus is given again until it shows.
  await expect(async () => {
    await name.blur();
    await name.focus();
    await expect(trustCard.getByTestId("trust-card-figures")).toContainText("Депозит", { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(name).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(trustCard).toHaveCount(0);
  await expect(name).toBeFocused();
});

test("a trust card that fails to load says so inside the card, and the page stays", { tag: "@js-only" }, async ({ page }) => {
  // Its request failing (a limit's 429) went to the route's error boundary: the whole page became the error page.
  await page.route(/\/api\/profiles\/\d+\/trust-card/, (route) =>
    route.fulfill({
      status: 429,
      contentType: "application/json",
      headers: { "Retry-After": "60" },
      body: JSON.stringify({ success: false, errors: { code: "rate_limited", message: "Слишком много запросов" } }),
    }),
  );
  await page.goto("/blacklist");
  await page.getByRole("link", { name: "Sanya_Trader" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Sanya_Trader" })).toBeVisible();
  await hydrated(page);
  await page.getByTestId("post-card").first().getByRole("link", { name: "Sanya_Trader", exact: true }).hover();
  const trustCard = page.getByTestId("trust-card");
  await expect(trustCard).toContainText("Не удалось загрузить данные участника.");
  await expect(page.getByRole("heading", { level: 1, name: "Sanya_Trader" })).toBeVisible();
});

test("the scammer's trust card opens from the people search, one's following list and the conversation list", { tag: "@js-only" }, async ({ page }) => {
  const me = await registerMember(page);
  /** Hovers the scam-marked avatar in `place`: the card opens with the warning, and closes on leaving. */
  async function cardOpensFrom(place: ReturnType<typeof page.getByTestId>) {
    const overlay = place.locator('[data-slot="avatar-overlay"]').first();
    await expect(overlay).toContainText("Мошенник");
    await overlay.hover();
    const trustCard = page.getByTestId("trust-card");
    await expect(trustCard.getByTestId("scam-warning")).toContainText("мошенник");
    await expect(trustCard.getByTestId("trust-card-figures")).toContainText("Депозит");
    await page.mouse.move(0, 0);
    await expect(trustCard).toHaveCount(0);
  }

  await page.goto("/search?q=Sanya_Trader");
  await hydrated(page);
  await cardOpensFrom(page.getByTestId("people-matches"));

  // Following the scammer: the follow is saved (the server's answer) before the member's own profile lists it.
  await page
    .getByTestId("people-matches")
    .getByRole("link", { name: /Sanya_Trader/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Sanya_Trader" })).toBeVisible();
  const followed = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/follow"));
  await page.getByRole("button", { name: "Подписаться" }).click();
  expect((await followed).status()).toBeLessThan(400);
  await page.goto(`/profile/${me.id}`);
  await hydrated(page);
  const following = page.getByTestId("following");
  await following.locator("summary").click();
  await cardOpensFrom(following);

  // A personal conversation with him: his avatar in the conversation list opens the card too.
  await page.goto("/search?q=Sanya_Trader");
  await page
    .getByTestId("people-matches")
    .getByRole("link", { name: /Sanya_Trader/ })
    .click();
  await page.getByRole("button", { name: "Написать", exact: true }).click();
  await expect(page).toHaveURL(/\/profile\/conversations\?personal=\d+/);
  const composer = page.getByTestId("composer");
  await expect(composer.locator('input[name="via"]')).toBeAttached();
  await composer.getByLabel("Сообщение").fill("Здравствуйте, товар ещё продаётся?");
  await composer.getByRole("button", { name: "Отправить" }).click();
  await expect(page.getByTestId("message").filter({ hasText: "Здравствуйте, товар ещё продаётся?" })).not.toHaveAttribute("data-pending");
  await page.reload();
  await hydrated(page);
  await cardOpensFrom(page.getByTestId("conversation-link").filter({ hasText: "Sanya_Trader" }));
});

test(
  "the scammer's avatar in one's holds, balance log and deals list carries the overlay and opens his trust card",
  { tag: "@js-only" },
  async ({ page, browser }) => {
    const payer = await registerMember(page);
    const scammer = "Sanya_Trader";
    /** In `row`, the scammer's avatar shows the overlay; hovering it opens his card with the warning; leaving closes it. */
    async function cardOpensFrom(row: Locator) {
      const overlay = row.locator('[data-slot="avatar-overlay"]').first();
      await expect(overlay).toContainText("Мошенник");
      await overlay.hover();
      const trustCard = page.getByTestId("trust-card");
      await expect(trustCard.getByTestId("scam-warning")).toContainText("мошенник");
      await expect(trustCard.getByTestId("trust-card-figures")).toContainText("признано");
      await page.mouse.move(0, 0);
      await expect(trustCard).toHaveCount(0);
    }

    // The admin tops the new member up; he sends the scammer a held transfer.
    const admin = await openContext(browser);
    await authenticate(admin.page, DEMO.admin);
    await admin.page.goto("/profile/wallet");
    await hydrated(admin.page);
    const topUp = admin.page.getByTestId("topup-form");
    await topUp.getByLabel("Участник").fill(payer.username);
    await topUp.getByLabel("Сумма пополнения").fill("500");
    await topUp.getByRole("button", { name: "Пополнить" }).click();
    await admin.page.getByTestId("topup-confirm").getByRole("button", { name: "Подтвердить" }).click();
    await expect(admin.page.getByText(`Баланс ${payer.username} пополнен на 500,00 ₽`).first()).toBeVisible();
    await admin.close();

    await page.goto("/profile/wallet");
    await hydrated(page);
    const transfer = page.getByTestId("transfer-form");
    await transfer.getByLabel("Получатель").fill(scammer);
    await transfer.getByLabel("Сумма").fill("100");
    await transfer.getByLabel("Удержание, часов").fill("24");
    await transfer.getByRole("button", { name: "Продолжить" }).click();
    await page.getByTestId("transfer-confirm").getByRole("button", { name: "Подтвердить" }).click();
    await expect(page.getByText(`Переведено 100,00 ₽ участнику ${scammer}`).first()).toBeVisible();

    const hold = page.getByTestId("outgoing-holds").getByTestId("hold");
    await expect(hold).toContainText(`100,00 ₽ для ${scammer}`);
    await cardOpensFrom(hold);
    const logged = page.getByTestId("balance-log").getByTestId("log-entry").filter({ hasText: scammer });
    await expect(logged).toHaveCount(1);
    await cardOpensFrom(logged);
    // The name in the log opens the card too.
    await logged.getByRole("link", { name: scammer, exact: true }).hover();
    await expect(page.getByTestId("trust-card").getByTestId("scam-warning")).toBeVisible();
    await page.mouse.move(0, 0);

    // A deal proposed to him: his avatar in «Мои сделки».
    await page.goto("/services/guarantor");
    await hydrated(page);
    const dealForm = page.getByTestId("new-deal-form");
    await dealForm.getByLabel("Вторая сторона").fill(scammer);
    await dealForm.getByLabel("Сумма", { exact: true }).fill("1 500");
    await dealForm.getByLabel("Что продаётся").fill("Аккаунт с редкими скинами");
    await dealForm.getByRole("button", { name: "Создать сделку" }).click();
    await expect(page).toHaveURL(/\/services\/guarantor\/deals\/\d+$/);
    await page.goto("/services/guarantor");
    await hydrated(page);
    const dealRow = page.getByTestId("my-deals").getByTestId("deal-row");
    await expect(dealRow).toContainText(`Покупаю у ${scammer}`);
    await cardOpensFrom(dealRow);
  },
);
