/**
 * Look and feel (docs/product/interface.md#dark-mode, #phones): no key page scrolls sideways on a
 * phone or a desktop, the phone's bottom bar navigates, and the colour-scheme toggle works with
 * and without JavaScript, rendered by the server. Screenshots of both schemes at both sizes land
 * in tests/.tmp/look/ for a person to look at.
 */
import type { Locator, Page } from "@playwright/test";
import { textContrast } from "./contrast";
import { authenticate, DEMO, expect, openContext, registerMember, test } from "./fixtures";
import { sidewaysOverflow } from "./overflow";
import { smallTapTargets } from "./tap-targets";

const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 320, height: 640 };
const DESKTOP = { width: 1440, height: 900 };
const KEY_PAGES = ["/", "/post/1", "/services/guarantor", "/leaderboard", "/profile/conversations"];

/** The document is no wider than the window: nothing makes it scroll sideways. */
async function expectNoSidewaysScroll(page: Page, path: string) {
  const { scrollWidth, clientWidth, culprits } = await sidewaysOverflow(page);
  expect(scrollWidth, `${path} scrolls sideways: ${culprits.join(" | ")}`).toBeLessThanOrEqual(clientWidth);
}

/** The page's background luminance (0 … 1) as the browser paints it. */
function bodyLuminance(page: Page) {
  return page.evaluate(() => {
    const match = /rgba?\((\d+), (\d+), (\d+)/.exec(getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = (match ? match.slice(1, 4) : ["255", "255", "255"]).map(Number) as [number, number, number];
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  });
}

for (const [name, size] of [
  ["phone", PHONE],
  ["small-phone", SMALL_PHONE],
  ["desktop", DESKTOP],
] as const) {
  test(`key pages fit a ${name} (${size.width}×${size.height}) in both schemes`, async ({ page }, testInfo) => {
    await authenticate(page, DEMO.admin);
    await page.setViewportSize(size);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of KEY_PAGES) {
        await page.goto(path);
        await expect(page.locator("main#main")).toBeVisible();
        await expectNoSidewaysScroll(page, path);
        if (path === "/leaderboard") {
          // The table's box must not hide its figures behind a sideways scroll either.
          const hidden = await page.getByTestId("leaderboard").evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth);
          expect(hidden, "the leaderboard's figures are cut off").toBeLessThanOrEqual(1);
        }
        if (scheme === "dark") expect(await bodyLuminance(page), `${path} is dark`).toBeLessThan(0.2);
        else expect(await bodyLuminance(page), `${path} is light`).toBeGreaterThan(0.8);
        const file = `${name}-${scheme}-${path === "/" ? "home" : path.slice(1).replaceAll("/", "_")}-${testInfo.project.name}.png`;
        await page.screenshot({ path: `tests/.tmp/look/${file}`, fullPage: false });
      }
    }
  });
}

test("on a phone every link and button of the key pages is big enough to tap (44 px)", async ({ page }) => {
  await authenticate(page, DEMO.admin);
  await page.setViewportSize(PHONE);
  const small: string[] = [];
  for (const path of ["/", "/?page=2", "/post/1", "/search?q=%D0%BF%D1%80%D0%BE%D0%B4%D0%B0%D0%BC", "/blacklist", "/leaderboard", "/articles"]) {
    await page.goto(path);
    await expect(page.locator("main#main")).toBeVisible();
    for (const line of await smallTapTargets(page, "main#main")) small.push(`${path}: ${line}`);
  }
  expect(small, `too small to tap:\n${small.join("\n")}`).toEqual([]);
});

test("on a phone the message field keeps most of a conversation's composer, with or without JavaScript", async ({ page, javaScriptEnabled }) => {
  await authenticate(page, DEMO.admin);
  await page.setViewportSize(PHONE);
  await page.goto("/profile/conversations");
  await page.getByTestId("conversation-link").filter({ hasText: "Общий чат" }).click();
  const composer = page.getByTestId("composer");
  // Hydrated, the picture field is an icon; without JavaScript the browser's own file field shows.
  if (javaScriptEnabled) await expect(composer.locator('input[name="via"]')).toBeAttached();
  const field = await composer.getByLabel("Сообщение").boundingBox();
  const whole = await composer.boundingBox();
  expect(field!.width, "the message field's width against the composer's").toBeGreaterThanOrEqual(0.6 * whole!.width);
  await expect(composer.getByLabel("Прикрепить изображение")).toBeVisible();
});

test("a member's own colours keep text readable: the text on the primary button and the error text reach 4.5:1", async ({ page }) => {
  await registerMember(page);
  await page.goto("/profile/settings");
  // A bright yellow primary (white text on it would read at 1.3:1) on a near-black page (the site's red reads at 3.4:1 there).
  await page.getByLabel("Основной цвет").fill("#ffd400");
  await page.getByLabel("Дополнительный цвет").fill("#202030");
  await page.getByLabel("Фон").fill("#101018");
  await page.getByRole("button", { name: "Сохранить тему" }).click();
  await expect(page.getByText("Тема сохранена", { exact: true }).first()).toBeVisible();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/profile/settings");
    const save = page.getByRole("button", { name: "Сохранить тему" });
    // The chosen yellow (the HSL variable rounds it by a unit or so).
    expect(await save.evaluate((button) => getComputedStyle(button).backgroundColor)).toMatch(/^rgb\(255, 21\d, 0\)$/);
    expect(await textContrast(save), `${scheme}: the text on the primary button`).toBeGreaterThanOrEqual(4.5);
    await page.getByLabel("Текущий пароль").fill("не-тот-пароль");
    await page.getByLabel("Новый пароль", { exact: true }).fill("совсем-новый-пароль");
    await page.getByLabel("Новый пароль ещё раз").fill("совсем-новый-пароль");
    await page.getByRole("button", { name: "Сменить пароль" }).click();
    const error = page.getByText("Неверный текущий пароль").first();
    await expect(error).toBeVisible();
    expect(await textContrast(error), `${scheme}: the error text on the page`).toBeGreaterThanOrEqual(4.5);
  }
});

test("the phone's bottom bar goes to search, chats, notifications and the profile", async ({ page }) => {
  await authenticate(page, DEMO.admin);
  await page.setViewportSize(PHONE);
  await page.goto("/");
  const bar = page.getByTestId("bottom-nav");
  await expect(bar).toBeVisible();
  for (const [label, path] of [
    ["Поиск", "/search"],
    ["Чаты", "/profile/conversations"],
    ["Уведомления", "/profile/notifications"],
    ["Профиль", "/profile"],
    ["Главная", "/"],
  ] as const) {
    await bar.getByRole("link", { name: label }).click();
    await expect(page).toHaveURL((url) => url.pathname === path);
    await expect(bar.getByRole("link", { name: label })).toHaveClass(/text-primary/);
  }
  // The bar's links are tall enough to tap (44 px).
  const box = await bar.getByRole("link", { name: "Поиск" }).boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
  await page.setViewportSize(DESKTOP);
  await expect(bar).toBeHidden();
});

test("the scheme toggle steps system → light → dark → system, and the server renders the choice", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/leaderboard");
  const html = page.locator("html");
  const toggle = page.getByTestId("color-scheme-toggle");
  // System: no class, the system's dark preference applies.
  await expect(toggle).toHaveAttribute("data-scheme", "system");
  await expect(html).not.toHaveClass(/\b(light|dark)\b/);
  await expect.poll(() => bodyLuminance(page)).toBeLessThan(0.2);

  await toggle.getByRole("button").click();
  await expect(toggle).toHaveAttribute("data-scheme", "light");
  await expect(html).toHaveClass(/\blight\b/);
  await expect(page).toHaveURL(/\/leaderboard$/);
  await expect.poll(() => bodyLuminance(page)).toBeGreaterThan(0.8);

  // The page switches at once (optimistic); the reload below must wait for the cookie's answer.
  const stored = page.waitForResponse(
    (response) => response.request().method() === "POST" && /^\/settings\/color-scheme(\.data)?$/.test(new URL(response.url()).pathname),
  );
  await toggle.getByRole("button").click();
  await stored;
  await expect(toggle).toHaveAttribute("data-scheme", "dark");
  await expect(html).toHaveClass(/\bdark\b/);
  // The cookie holds the choice: the server renders it, whatever the system prefers.
  await page.emulateMedia({ colorScheme: "light" });
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect.poll(() => bodyLuminance(page)).toBeLessThan(0.2);

  await toggle.getByRole("button").click();
  await expect(toggle).toHaveAttribute("data-scheme", "system");
  await expect(html).not.toHaveClass(/\b(light|dark)\b/);
  await expect.poll(() => bodyLuminance(page)).toBeGreaterThan(0.8);
});

test("the skip link leads to the page and the sign-in pages have a heading", async ({ page }) => {
  await page.goto("/auth/login");
  await expect(page.getByRole("heading", { level: 1, name: "Вход" })).toBeVisible();
  await page.goto("/auth/register");
  await expect(page.getByRole("heading", { level: 1, name: "Регистрация" })).toBeVisible();
  await page.goto("/leaderboard");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Перейти к содержимому" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await skip.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});

/** The fonts the browser drew `selector`'s text with (Chromium's own account, over CDP), by family. */
async function fontsDrawing(page: Page, selector: string): Promise<{ familyName: string; isCustomFont: boolean; glyphCount: number }[]> {
  await page.evaluate(() => document.fonts.ready);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
  const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
  await cdp.detach();
  return fonts;
}

test("the rouble sign is drawn in the site's fonts, as the figures beside it, in headings and in text", async ({ page }) => {
  await authenticate(page, DEMO.member);
  /** Asserts that `sum` is drawn in the site's fonts only, `font` among them. */
  async function expectSiteFonts(sum: Locator, font: RegExp) {
    await expect(sum).toContainText("₽");
    await sum.evaluate((element) => element.setAttribute("data-rouble-check", ""));
    const fonts = await fontsDrawing(page, "[data-rouble-check]");
    await sum.evaluate((element) => element.removeAttribute("data-rouble-check"));
    expect(fonts.map((f) => f.familyName).join(", ")).toMatch(font);
    expect(
      fonts.filter((f) => !f.isCustomFont),
      `drawn partly in a system font: ${JSON.stringify(fonts)}`,
    ).toEqual([]);
  }
  // The balances are figures in the heading font (Montserrat); the balance under the ad form is text (Inter).
  await page.goto("/profile/wallet");
  await expectSiteFonts(page.getByTestId("balance-available").locator("dd").first(), /Montserrat/);
  await page.goto("/ads");
  await expectSiteFonts(page.getByText("Доступно на балансе:").locator("span"), /Inter/);
});

test("a post's date reads in Moscow time from the server and, with JavaScript, in the reader's own zone", async ({ browser, javaScriptEnabled }) => {
  const reader = await openContext(browser, { timezoneId: "Asia/Vladivostok" });
  await reader.page.goto("/");
  const time = reader.page.getByTestId("post-card").first().locator("time").first();
  const iso = (await time.getAttribute("datetime"))!;
  const inZone = (timeZone: string) =>
    new Intl.DateTimeFormat("ru-RU", { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone }).format(new Date(iso));
  if (javaScriptEnabled) {
    // Vladivostok is seven hours ahead of Moscow: the same moment, another clock, no «МСК».
    await expect(time).toHaveAttribute("title", inZone("Asia/Vladivostok"));
    await expect(time).not.toContainText("МСК");
  } else {
    await expect(time).toHaveAttribute("title", `${inZone("Europe/Moscow")} МСК`);
  }
  await reader.close();
});
