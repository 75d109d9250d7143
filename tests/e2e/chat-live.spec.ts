/**
 * The live parts of a conversation (docs/product/conversations.md#typing, #read-receipts, #online,
 * #message-actions): two members in two browser contexts see each other come online, type and
 * read; message actions sit in a «⋯» menu that also opens without JavaScript; times show in the
 * reader's own time zone.
 */
import { devices, type Locator, type Page } from "@playwright/test";
import { expect, registerMember, test, openContext } from "./fixtures";

const message = (page: Page, text: string) => page.getByTestId("message").filter({ has: page.getByTestId("message-body").getByText(text, { exact: true }) });

async function send(page: Page, text: string, javaScriptEnabled = true) {
  const composer = page.getByTestId("composer");
  if (javaScriptEnabled) await expect(composer.locator('input[name="via"]')).toBeAttached();
  await composer.getByLabel("Сообщение").fill(text);
  await composer.getByRole("button", { name: "Отправить" }).click();
}

/** Opens the personal conversation of `page`'s member with member `peerId` from the peer's profile. */
async function openPersonal(page: Page, peerId: number): Promise<string> {
  await page.goto(`/profile/${peerId}`);
  await page.getByRole("button", { name: "Написать", exact: true }).click();
  await expect(page).toHaveURL(/\/profile\/conversations\?personal=\d+$/);
  return page.url();
}

const header = (page: Page): Locator => page.getByTestId("conversation").locator("header");

test("@js-only two members see each other online, typing and reading, live", async ({ page, browser }) => {
  // Two pages, a 5 s typing expiry and a 5 s offline grace: longer than a usual journey.
  test.setTimeout(120_000);
  const alice = await registerMember(page);
  // Bob reads in Vladivostok (UTC+10): the same message shows his own time.
  const second = await openContext(browser, { timezoneId: "Asia/Vladivostok" });
  const pageB = second.page;
  const bob = await registerMember(pageB);

  const url = await openPersonal(page, bob.id);
  const channel = `conversation:personal:${new URL(url).searchParams.get("personal")}`;
  await expect(page.getByTestId("realtime-status")).toHaveAttribute("data-channels", new RegExp(`(^| )${channel}( |$)`));
  await send(page, "Привет! Когда сможешь созвониться?");
  const mine = message(page, "Привет! Когда сможешь созвониться?");
  await expect(mine).toHaveAttribute("data-message-id", /\d+/);
  // Delivered, not read: one tick.
  await expect(mine.getByTestId("message-read")).toHaveAttribute("data-read", "false");
  await expect(mine.getByTestId("message-read")).toHaveAccessibleName("Доставлено");
  // Bob has no page open: no dot.
  await expect(header(page).getByTestId("online-dot")).toHaveCount(0);
  await expect(page.getByTestId("conversation-subtitle")).toHaveText("Личная беседа");

  // Bob opens the site: his dot lights up on Alice's screen without a reload.
  await pageB.goto("/");
  await expect(pageB.getByTestId("realtime-status")).toHaveAttribute("data-status", "open");
  await expect(header(page).getByTestId("online-dot")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("conversation-subtitle")).toHaveText("в сети");

  // Bob opens the conversation: Alice's message turns «Прочитано»; Alice is online in his list and header.
  await pageB.goto(url);
  await expect(mine.getByTestId("message-read")).toHaveAttribute("data-read", "true");
  await expect(mine.getByTestId("message-read")).toHaveAccessibleName("Прочитано");
  await expect(header(pageB).getByTestId("online-dot")).toBeVisible();
  await expect(pageB.getByTestId("conversation-link").filter({ hasText: alice.username }).getByTestId("online-dot")).toBeVisible();
  // Times in Bob's zone: seven hours ahead of Alice's Moscow.
  const [hA, mA] = (await mine.locator("time").textContent())!.split(":").map(Number) as [number, number];
  const inVladivostok = `${String((hA + 7) % 24).padStart(2, "0")}:${String(mA).padStart(2, "0")}`;
  await expect(message(pageB, "Привет! Когда сможешь созвониться?").locator("time")).toHaveText(inVladivostok);
  await expect(pageB.getByText("Сегодня", { exact: true })).toBeVisible();

  // Bob types: Alice sees it; the frame is not stored, so it goes when he sends.
  await expect(pageB.getByTestId("realtime-status")).toHaveAttribute("data-channels", new RegExp(`(^| )${channel}( |$)`));
  const composerB = pageB.getByTestId("composer");
  await expect(composerB.locator('input[name="via"]')).toBeAttached();
  await composerB.getByLabel("Сообщение").pressSequentially("Давай завтра", { delay: 30 });
  await expect(page.getByTestId("typing")).toHaveText(`${bob.username} печатает…`);
  await composerB.getByRole("button", { name: "Отправить" }).click();
  await expect(message(page, "Давай завтра")).toBeVisible();
  await expect(page.getByTestId("typing")).toHaveCount(0);
  // A typing frame with no message after it fades after 5 s.
  await composerB.getByLabel("Сообщение").pressSequentially("И ещё", { delay: 30 });
  await expect(page.getByTestId("typing")).toBeVisible();
  await expect(page.getByTestId("typing")).toHaveCount(0, { timeout: 9_000 });

  // Bob leaves the site: his dot goes out (after the 5 s grace).
  await second.close();
  await expect(header(page).getByTestId("online-dot")).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId("conversation-subtitle")).toHaveText("Личная беседа");
});

test("a message's actions sit in its «⋯» menu, which opens with and without JavaScript", async ({ page, browser, javaScriptEnabled }) => {
  await registerMember(page);
  const second = await openContext(browser);
  const bob = await registerMember(second.page);
  await second.close();
  await openPersonal(page, bob.id);
  await send(page, "Сообщение с меню", javaScriptEnabled);
  const item = message(page, "Сообщение с меню");
  await expect(item).toHaveAttribute("data-message-id", /\d+/);
  // No row of actions under the message: they wait in the menu.
  await expect(item.getByRole("link", { name: "Ответить" })).toBeHidden();
  await expect(item.getByRole("button", { name: "Удалить" })).toBeHidden();
  await item.hover();
  await item.getByLabel("Действия с сообщением").click();
  await expect(item.getByRole("link", { name: "Ответить" })).toBeVisible();
  await expect(item.getByRole("link", { name: "Изменить" })).toBeVisible();
  if (javaScriptEnabled) {
    await page.keyboard.press("Escape");
    await expect(item.getByRole("link", { name: "Ответить" })).toBeHidden();
    await item.getByLabel("Действия с сообщением").click();
  }
  await item.getByRole("link", { name: "Ответить" }).click();
  await expect(page.getByTestId("composer-context")).toContainText("Сообщение с меню");
  await send(page, "Ответ из меню", javaScriptEnabled);
  await expect(message(page, "Ответ из меню").getByTestId("message-quote")).toContainText("Сообщение с меню");
  const answer = message(page, "Ответ из меню");
  await answer.hover();
  await answer.getByLabel("Действия с сообщением").click();
  await answer.getByRole("button", { name: "Удалить" }).click();
  await expect(page.getByTestId("message").last()).toContainText("Сообщение удалено");
});

test("@js-only on a touch screen the «⋯» stays visible and a long press on the bubble opens the menu", async ({ page, browser }) => {
  const alice = await registerMember(page);
  const use = test.info().project.use;
  const context = await browser.newContext({ ...devices["Pixel 7"], baseURL: use.baseURL, locale: use.locale, timezoneId: use.timezoneId });
  try {
    const phone = await context.newPage();
    await registerMember(phone);
    await openPersonal(phone, alice.id);
    await send(phone, "Сообщение с телефона");
    const item = message(phone, "Сообщение с телефона");
    await expect(item).toHaveAttribute("data-message-id", /\d+/);
    // No hover on a touch screen: the «⋯» shows without it.
    await expect(item.getByLabel("Действия с сообщением")).toHaveCSS("opacity", "0.6");
    // A finger's target: at least 44 px each way.
    const box = await item.getByLabel("Действия с сообщением").boundingBox();
    expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
    await expect(item.getByRole("link", { name: "Ответить" })).toBeHidden();
    // A finger rests on the bubble: the menu opens while it is still down.
    await item.getByTestId("message-body").dispatchEvent("pointerdown", { pointerType: "touch", isPrimary: true });
    await expect(item.getByRole("link", { name: "Ответить" })).toBeVisible();
    await item.getByTestId("message-body").dispatchEvent("pointerup", { pointerType: "touch", isPrimary: true });
    await item.getByRole("link", { name: "Изменить" }).click();
    await expect(phone.getByTestId("composer-context")).toContainText("Редактирование");
  } finally {
    await context.close();
  }
});
