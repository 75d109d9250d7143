/**
 * A claim upheld and the member on /blacklist (issue 5 "Done when";
 * docs/product/claims.md#blacklist), with and without JavaScript: a fresh member files a claim against another fresh
 * member from his profile; the demo moderator upholds it (after a refused compensation larger than
 * the deposit); the accused is then on /blacklist with the reason and amount, and his avatar
 * carries the scam mark on his profile.
 */
import { expect, registerMember, test, DEMO, openContext, authenticate, hydratedWithScripts } from "./fixtures";

test("a member files a claim, the moderator upholds it, the accused is on /blacklist with the scam mark", async ({ page, browser }) => {
  const other = await openContext(browser);
  const accused = await registerMember(other.page);

  // The claimant proposes a guarantor deal to the accused, then files a claim about it from the accused's profile.
  await registerMember(page);
  await page.goto("/services/guarantor");
  await hydratedWithScripts(page);
  const dealForm = page.getByTestId("new-deal-form");
  await dealForm.getByLabel("Вторая сторона").fill(accused.username);
  await dealForm.getByLabel("Сумма", { exact: true }).fill("1 500");
  await dealForm.getByLabel("Что продаётся").fill("Аккаунт с редкими скинами");
  await dealForm.getByRole("button", { name: "Создать сделку" }).click();
  await expect(page).toHaveURL(/\/services\/guarantor\/deals\/\d+$/);
  const dealId = new URL(page.url()).pathname.split("/").pop()!;
  await page.goto(`/profile/${accused.id}`);
  await page.getByRole("link", { name: "Подать претензию" }).click();
  await expect(page).toHaveURL(/\/claims\/new\?accused=/);
  await expect(page.getByLabel("На кого претензия")).toHaveValue(accused.username);
  await page.getByLabel("Сумма ущерба").fill("1 234,50");
  await page.getByLabel("Что произошло").fill("Мало");
  await page.getByLabel("Доказательства").fill("https://example.com/proof-1.png\nhttps://example.com/chat");
  await page.getByLabel("Номер сделки (если была)").fill(dealId);
  await page.getByRole("button", { name: "Подать претензию" }).click();
  await expect(page.getByText("Описание — не короче 10 символов")).toBeVisible();
  await page.getByLabel("Что произошло").fill("Оплатил аккаунт, продавец получил деньги и перестал отвечать.");
  await page.getByRole("button", { name: "Подать претензию" }).click();
  await expect(page).toHaveURL(/\/claims\/\d+$/);
  const claimUrl = new URL(page.url()).pathname;
  const claimId = claimUrl.split("/").pop()!;
  await expect(page.getByRole("heading", { name: `Претензия №${claimId}` })).toBeVisible();
  await expect(page.getByTestId("claim-status")).toHaveText("На рассмотрении");
  await expect(page.getByTestId("claim-amount")).toHaveText("1 234,50 ₽");
  // The claimant is a party of the deal, so the claim links to it.
  await expect(page.getByRole("link", { name: `Сделка №${dealId}` })).toHaveAttribute("href", `/services/guarantor/deals/${dealId}`);
  const proof = page.getByRole("link", { name: "https://example.com/proof-1.png" });
  await expect(proof).toHaveAttribute("rel", "nofollow noopener ugc");
  await expect(proof).toHaveAttribute("target", "_blank");
  await page.goto("/claims");
  await expect(page.getByTestId("claim-row").filter({ hasText: accused.username })).toContainText(`Претензия №${claimId}`);

  // While the claim is open the accused cannot ask to withdraw a deposit: the form is disabled and says why.
  await other.page.goto("/profile/deposit");
  await expect(other.page.getByTestId("withdrawal-blocked")).toContainText("Против вас открыта претензия");
  await expect(other.page.getByTestId("withdraw-form").getByRole("button", { name: "Подать заявку на вывод" })).toBeDisabled();
  await expect(other.page.getByTestId("withdraw-form").getByLabel("Сумма к выводу")).toBeDisabled();
  await other.close();

  // A signed-out visitor (the accused on another device, say) is sent to sign in and back, not to a 404.
  const visitor = await openContext(browser);
  await visitor.page.goto(claimUrl);
  await expect(visitor.page).toHaveURL(`/auth/login?redirect=${encodeURIComponent(claimUrl)}`);
  await visitor.close();

  // The moderator upholds it; compensation above the (empty) deposit is refused first.
  const moderatorContext = await openContext(browser);
  const mod = moderatorContext.page;
  await authenticate(mod, DEMO.moderator);
  await mod.goto("/claims");
  await mod
    .getByRole("link", { name: `Претензия №${claimId}` })
    .first()
    .click();
  await expect(mod).toHaveURL(claimUrl);
  await mod.getByLabel(/^Удовлетворить/).check();
  await mod.getByLabel("Причина решения").fill("Переписка подтверждает: деньги получены, аккаунт не передан");
  await mod.getByLabel("Компенсация из депозита").fill("100");
  await mod.getByRole("button", { name: "Вынести решение" }).click();
  await expect(mod.getByText(/^Компенсация больше депозита участника/)).toHaveText(
    "Компенсация больше депозита участника: на депозите 0,00 ₽, а назначено 100,00 ₽",
  );
  await mod.getByLabel(/^Удовлетворить/).check();
  await mod.getByLabel("Причина решения").fill("Переписка подтверждает: деньги получены, аккаунт не передан");
  await mod.getByLabel("Компенсация из депозита").fill("");
  await mod.getByRole("button", { name: "Вынести решение" }).click();
  await expect(mod.getByTestId("claim-decision")).toContainText("Претензия удовлетворена");
  await expect(mod.getByTestId("claim-status")).toHaveText("Удовлетворена");
  await moderatorContext.close();

  // Public: the blacklist shows the accused with the reason, amount and claim link; the profile shows the scam mark.
  await page.goto("/blacklist");
  const entry = page.getByTestId("blacklist-entry").filter({ hasText: accused.username });
  await expect(entry).toContainText("Переписка подтверждает: деньги получены, аккаунт не передан");
  await expect(entry).toContainText("1 234,50 ₽");
  await expect(entry.locator('[data-slot="avatar-overlay"]')).toHaveCount(1);
  await entry.getByRole("link", { name: `Претензия №${claimId}` }).click();
  await expect(page).toHaveURL(claimUrl);
  await expect(page.getByRole("link", { name: `Сделка №${dealId}` })).toBeVisible();

  // The upheld claim is public, but its deal is not: a signed-out visitor sees the claim without the deal link.
  const publicVisitor = await openContext(browser);
  await publicVisitor.page.goto(claimUrl);
  await expect(publicVisitor.page.getByRole("heading", { name: `Претензия №${claimId}` })).toBeVisible();
  await expect(publicVisitor.page.getByTestId("claim-decision")).toContainText("Претензия удовлетворена");
  await expect(publicVisitor.page.getByText(`Сделка №${dealId}`)).toHaveCount(0);
  await publicVisitor.close();
  await page.goto(`/profile/${accused.id}`);
  const header = page.getByTestId("profile-header");
  await expect(header.locator('[data-slot="avatar-overlay"]')).toHaveCount(1);
  await expect(header).toContainText("Мошенник");
});
