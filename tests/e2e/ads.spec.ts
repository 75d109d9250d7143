/**
 * /ads in Chromium (issue 11; docs/product/pages.md#ads), with JavaScript on and off: a new member
 * is topped up by the admin, is refused a `javascript:` link and a file that is not a picture
 * (nothing held), then requests a feed banner with a picture, confirms the price on the second
 * step, and the price is held. The admin
 * approves it on /admin/ads; the home feed shows it labelled «Реклама» with rel="sponsored
 * noopener" through the click counter; a click is counted and the advertiser sees the
 * impressions and the click on /ads, and the notification.
 */
import sharp from "sharp";
import { authenticate, DEMO, expect, openContext, registerMember, test, hydratedWithScripts } from "./fixtures";

test("request an ad → the admin approves → it runs in the feed labelled «Реклама» → a click is counted", async ({ page, browser }) => {
  const title = `Скины CS2 ${Date.now().toString(36)}`;
  const member = await registerMember(page);

  const admin = await openContext(browser);
  await authenticate(admin.page, DEMO.admin);
  await admin.page.goto("/profile/wallet");
  await hydratedWithScripts(admin.page);
  const topUp = admin.page.getByTestId("topup-form");
  await topUp.getByLabel("Участник").fill(member.username);
  await topUp.getByLabel("Сумма пополнения").fill("1 000");
  await topUp.getByRole("button", { name: "Пополнить" }).click();
  await admin.page.getByTestId("topup-confirm").getByRole("button", { name: "Подтвердить" }).click();
  await expect(admin.page.getByText(`Баланс ${member.username} пополнен на 1 000,00 ₽`, { exact: true })).toBeVisible();

  await page.goto("/ads");
  await hydratedWithScripts(page);
  await expect(page.getByTestId("ad-slots")).toContainText("Баннер в ленте");
  const form = page.getByTestId("ad-request-form");
  await form.getByLabel("Место").selectOption({ label: "Баннер в ленте — 300,00 ₽ в день" });
  await form.getByLabel("Срок, дней").fill("2");
  await form.getByLabel("Заголовок").fill(title);
  await form.getByLabel("Текст").fill("Дёшево, быстро, через гаранта");
  await form.getByLabel("Ссылка").fill("javascript:alert(1)");
  await form.getByRole("button", { name: "Продолжить" }).click();
  await expect(page.getByText("Ссылка должна начинаться с http:// или https:// и вести на сайт")).toBeVisible();

  // A file that is not a picture is refused by the server, whatever its name says.
  await page.getByTestId("ad-request-form").getByLabel("Ссылка").fill("https://example.com/skins");
  await page.getByTestId("ad-request-form").getByLabel("Заголовок").fill(title);
  await page.getByTestId("ad-request-form").getByLabel("Текст").fill("Дёшево, быстро, через гаранта");
  await page.getByTestId("ad-request-form").getByLabel("Срок, дней").fill("2");
  await page
    .getByTestId("ad-request-form")
    .getByLabel("Картинка")
    .setInputFiles({ name: "banner.png", mimeType: "image/png", buffer: Buffer.from("<html>не картинка</html>") });
  await page.getByTestId("ad-request-form").getByRole("button", { name: "Продолжить" }).click();
  await expect(page.getByText("Картинка должна быть изображением JPEG, PNG, WebP, GIF или AVIF")).toBeVisible();
  await expect(page.getByText("Заявок пока нет.")).toBeVisible();
  await expect(page.getByText("Доступно на балансе: 1 000,00 ₽")).toBeVisible();

  const png = await sharp({ create: { width: 600, height: 300, channels: 3, background: "#7c3aed" } })
    .png()
    .toBuffer();
  const again = page.getByTestId("ad-request-form");
  await again.getByLabel("Ссылка").fill("https://example.com/skins");
  await again.getByLabel("Заголовок").fill(title);
  await again.getByLabel("Текст").fill("Дёшево, быстро, через гаранта");
  await again.getByLabel("Срок, дней").fill("2");
  await again.getByLabel("Картинка").setInputFiles({ name: "banner.png", mimeType: "image/png", buffer: png });
  await again.getByRole("button", { name: "Продолжить" }).click();
  // The confirmation step: the ad as it will look, the price and the balance after; nothing held yet.
  const confirm = page.getByTestId("ad-confirm");
  await expect(confirm.getByTestId("ad")).toContainText(title);
  await expect(confirm.getByTestId("ad").locator("img")).toHaveAttribute("src", /^data:image\/webp;base64,/);
  await expect(confirm.getByTestId("confirm-amount")).toContainText("600,00 ₽");
  await expect(confirm).toContainText("400,00 ₽");
  await expect(page.getByText("Заявок пока нет.")).toBeVisible();
  await confirm.getByRole("button", { name: "Подтвердить и оплатить" }).click();
  await expect(page.getByText(/^Заявка №\d+ отправлена на проверку$/)).toBeVisible();
  const mine = page.getByTestId("my-ad").filter({ hasText: title });
  await expect(mine).toContainText("На проверке");
  await expect(mine).toContainText("600,00 ₽");
  await expect(page.getByText("Доступно на балансе: 400,00 ₽")).toBeVisible();

  // The admin approves it.
  await admin.page.goto("/admin/ads");
  await hydratedWithScripts(admin.page);
  const pending = admin.page.getByTestId("pending-ad").filter({ hasText: title });
  await expect(pending).toContainText(member.username);
  await pending.getByRole("button", { name: "Одобрить" }).click();
  await expect(admin.page.getByText(/^Заявка №\d+ одобрена$/)).toBeVisible();
  await admin.close();

  // It runs in the home feed, labelled, through the click counter.
  await page.goto("/");
  const ad = page.getByTestId("ads-feed").getByTestId("ad").filter({ hasText: title });
  await expect(ad).toContainText("Реклама");
  await expect(ad).toContainText("example.com");
  const link = ad.getByRole("link", { name: title });
  await expect(link).toHaveAttribute("rel", "sponsored noopener");
  await expect(link).toHaveAttribute("href", /^\/ads\/\d+\/click$/);
  await expect(ad.locator("img")).toHaveAttribute("src", /^\/uploads\/ads\/[0-9a-f]+\.webp$/);

  // The counter sends the browser on to the advertiser's address. Playwright's routes do not see a
  // redirect's target, and the advertiser's site may not be reachable from the test machine, so the
  // browser's request for it is what is checked.
  const toAdvertiser = page.waitForRequest((request) => request.isNavigationRequest() && request.url() === "https://example.com/skins");
  await link.click();
  const redirected = await toAdvertiser;
  expect(new URL(redirected.redirectedFrom()!.url()).pathname).toMatch(/^\/ads\/\d+\/click$/);

  await page.goto("/ads");
  const running = page.getByTestId("my-ad").filter({ hasText: title });
  await expect(running).toContainText("Показывается");
  await expect(running.getByTestId("ad-stats")).toContainText("Переходов: 1");
  await expect(running.getByTestId("ad-stats")).toContainText(/Показов: [1-9]/);

  await page.goto("/profile/notifications");
  await expect(page.getByText("admin одобрил(а) вашу рекламу").first()).toBeVisible();
});

test("an admin adds an ad slot, members can request it on /ads, then the admin takes it off sale", async ({ page, browser }) => {
  const name = `Боковой баннер ${Date.now().toString(36)}`;
  await registerMember(page);
  const admin = await openContext(browser);
  await authenticate(admin.page, DEMO.admin);
  await admin.page.goto("/admin/ads");
  await admin.page.getByRole("link", { name: "Добавить место" }).click();
  await expect(admin.page).toHaveURL(/\/admin\/ads\/slots\/new$/);
  await hydratedWithScripts(admin.page);
  const form = admin.page.getByTestId("slot-save-form");
  await form.getByLabel("Название").fill(name);
  await form.getByLabel("Где показывать").selectOption({ label: "Блок рядом с лентой на главной" });
  await form.getByLabel("Цена за день, ₽").fill("бесплатно");
  await form.getByLabel("Объявлений одновременно").fill("2");
  await form.getByRole("button", { name: "Добавить место" }).click();
  // Refused in Russian; what was typed stays.
  await expect(admin.page.getByText("Цена за день — от 1 до 1 000 000 ₽")).toBeVisible();
  await expect(form.getByLabel("Название")).toHaveValue(name);
  await form.getByLabel("Цена за день, ₽").fill("1 250,50");
  await form.getByRole("button", { name: "Добавить место" }).click();
  await expect(admin.page).toHaveURL(/\/admin\/ads$/);
  await expect(admin.page.getByText(`Место «${name}» добавлено`).first()).toBeVisible();
  const slot = admin.page.getByTestId("ad-slot").filter({ hasText: name });
  await expect(slot).toContainText("1 250,50 ₽ в день");
  await expect(slot).toContainText("Открыто для заявок");

  await page.goto("/ads");
  await expect(page.getByTestId("ad-slots")).toContainText(name);

  await slot.getByRole("link", { name }).click();
  await hydratedWithScripts(admin.page);
  await admin.page.getByLabel("Открыто для заявок").uncheck();
  await admin.page.getByRole("button", { name: "Сохранить" }).click();
  await expect(admin.page).toHaveURL(/\/admin\/ads$/);
  await expect(admin.page.getByTestId("ad-slot").filter({ hasText: name })).toContainText("Снято с продажи");
  await page.reload();
  await expect(page.getByTestId("ad-slots")).not.toContainText(name);
  await admin.close();
});
