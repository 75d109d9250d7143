/**
 * The Telegram Mini App (docs/product/accounts.md#telegram-mini-app, issue 6): a mocked window.Telegram.WebApp carrying initData
 * signed for the e2e server's test bot token (playwright.config.ts) signs the visitor in, lands
 * on `/` with the flag telegram_auth_sent set, and a second load does not post again. Without
 * JavaScript nothing of this runs: the page simply stays signed out.
 */
import { sign } from "@telegram-apps/init-data-node";
import type { Page } from "@playwright/test";
import { expect, registerMember, test } from "./fixtures";
import { smallTapTargets } from "./tap-targets";

/** TELEGRAM_BOT_TOKEN of the e2e webServer in playwright.config.ts (a test-only value). */
const BOT_TOKEN = "7000002:e2e-test-token";
const SCRIPT_URL = "https://telegram.org/js/telegram-web-app.js";

/** Installs a Telegram WebApp mock whose initData appears after 300 ms (so the client has to poll). */
async function mockTelegram(page: Page, initData: string) {
  await page.route(SCRIPT_URL, (route) => route.fulfill({ status: 200, contentType: "application/javascript", body: "" }));
  await page.addInitScript((data) => {
    const state = { initData: "", reads: 0, ready: false };
    (window as unknown as { __tg: typeof state }).__tg = state;
    setTimeout(() => (state.initData = data), 300);
    const noop = () => {};
    (window as unknown as { Telegram: unknown }).Telegram = {
      WebApp: {
        get initData() {
          state.reads += 1;
          return state.initData;
        },
        platform: "tdesktop",
        version: "8.0",
        colorScheme: "light",
        themeParams: { bg_color: "#ffffff", text_color: "#000000", button_color: "#2481cc", button_text_color: "#ffffff", secondary_bg_color: "#f1f1f1" },
        ready: () => (state.ready = true),
        expand: noop,
        BackButton: { show: noop, hide: noop, onClick: noop, offClick: noop },
      },
    };
  }, initData);
}

test("inside Telegram the Mini App signs in once per browser session and lands on /", async ({ page, javaScriptEnabled }) => {
  const telegramId = 9_000_000 + Math.floor(Math.random() * 1_000_000);
  const username = `tg_e2e_${telegramId}`;
  const initData = sign({ user: { id: telegramId, first_name: "Е2Е", username }, query_id: `E2E${telegramId}` }, BOT_TOKEN, new Date());
  await mockTelegram(page, initData);
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/auth/telegram") posts.push(request.url());
  });

  await page.goto("/leaderboard");
  if (!javaScriptEnabled) {
    // Without JavaScript there is no Mini App client: the visitor stays on the page, signed out.
    await expect(page.getByRole("link", { name: "Войти" }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/leaderboard$/);
    expect(posts).toEqual([]);
    return;
  }

  // Hydration, Telegram's script, the initData poll, the sign-in, the revalidation and the member's
  // home page follow one another: on a loaded 2-core CI machine the chain has taken over 10 s.
  await expect(page.getByTestId("header-profile")).toContainText(username, { timeout: 30_000 });
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => sessionStorage.getItem("telegram_auth_sent"))).toBe("1");
  expect(posts).toHaveLength(1);
  // Telegram's button colour became the site's primary colour (no own theme chosen).
  expect(await page.evaluate(() => document.documentElement.style.getPropertyValue("--primary"))).toBe("207 70% 47%");

  // A second load in the same browser session: the script loads and the app gets ready, but
  // with the flag set it neither reads initData nor posts it again.
  await page.reload();
  await page.waitForFunction(() => (window as unknown as { __tg: { ready: boolean } }).__tg.ready);
  expect(await page.evaluate(() => (window as unknown as { __tg: { reads: number } }).__tg.reads)).toBe(0);
  await expect(page.getByTestId("header-profile")).toContainText(username);
  expect(posts).toHaveLength(1);
});

test("a member already signed in who opens the Mini App stays themselves: no automatic sign-in", async ({ page }) => {
  const member = await registerMember(page);
  const telegramId = 8_000_000 + Math.floor(Math.random() * 1_000_000);
  await mockTelegram(page, sign({ user: { id: telegramId, first_name: "Другой", username: `tg_other_${telegramId}` } }, BOT_TOKEN, new Date()));
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/auth/telegram") posts.push(request.url());
  });
  await page.goto("/leaderboard");
  // The client got ready (with JavaScript), yet the header still names the member and nothing was posted.
  if (test.info().project.use.javaScriptEnabled) await page.waitForFunction(() => (window as unknown as { __tg: { ready: boolean } }).__tg.ready);
  await expect(page.getByTestId("header-profile")).toContainText(member.username);
  await expect(page).toHaveURL(/\/leaderboard$/);
  expect(posts).toEqual([]);
});

test("on a phone inside Telegram the header is one slim row, its sections and buttons still there to tap", async ({ page, javaScriptEnabled }) => {
  await registerMember(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const header = page.locator("header").first();
  const sections = header.getByRole("navigation", { name: "Разделы (мобильная версия)" });
  // Outside Telegram: the name and buttons in one row, the sections strip under it.
  await page.goto("/leaderboard");
  expect((await header.boundingBox())!.height).toBeGreaterThan(100);

  await mockTelegram(page, sign({ user: { id: 7_000_000 + Math.floor(Math.random() * 1_000_000), first_name: "Тг" } }, BOT_TOKEN, new Date()));
  await page.goto("/leaderboard");
  if (!javaScriptEnabled) {
    // Without JavaScript nothing tells the page it is inside Telegram: the usual header.
    expect((await header.boundingBox())!.height).toBeGreaterThan(100);
    return;
  }
  await expect(page.locator("html")).toHaveAttribute("data-telegram", "");
  const box = (await header.boundingBox())!;
  expect(box.height, "one slim row").toBeLessThanOrEqual(50);
  // The strip sits in that row between the name and the buttons, and still scrolls to every section.
  const strip = (await sections.boundingBox())!;
  expect(strip.y).toBeGreaterThanOrEqual(box.y);
  expect(strip.y + strip.height).toBeLessThanOrEqual(box.y + box.height + 1);
  expect(strip.width).toBeGreaterThan(120);
  await sections.getByRole("link", { name: "Чёрный список" }).click();
  await expect(page).toHaveURL(/\/blacklist$/);
  await expect(page.getByRole("heading", { level: 1, name: "Чёрный список" })).toBeVisible();
  // Opened afresh, the current section is scrolled into the narrow strip's view, not left past its edge.
  await page.goto("/blacklist");
  const current = sections.getByRole("link", { name: "Чёрный список" });
  await expect(current).toHaveAttribute("aria-current", "page");
  await expect
    .poll(async () => {
      const [link, row] = [(await current.boundingBox())!, (await sections.boundingBox())!];
      return link.x >= row.x - 1 && link.x + link.width <= row.x + row.width + 1;
    })
    .toBe(true);
  expect(await smallTapTargets(page, "header")).toEqual([]);
  await page.screenshot({ path: "tests/.tmp/look/telegram-phone-header.png" });
});

test("/debug/tg shows the diagnostics and the server's verdict on initData", async ({ page, javaScriptEnabled }) => {
  const initData = sign({ user: { id: 9_999_001, first_name: "Диагностика", username: "tg_debug_check" } }, BOT_TOKEN, new Date());
  await mockTelegram(page, initData);
  await page.goto("/debug/tg");
  await expect(page.getByRole("heading", { name: "Диагностика Telegram Mini App" })).toBeVisible();
  const diagnostics = page.getByTestId("tg-diagnostics");
  await expect(diagnostics).toContainText("настроен, данные действуют 24 ч");
  if (!javaScriptEnabled) {
    await expect(diagnostics).toContainText("Остальная диагностика работает с включённым JavaScript.");
    return;
  }
  await expect(diagnostics).toContainText("tdesktop");
  await expect(page.getByTestId("tg-verdict")).toContainText("прошла: Telegram id 9999001 (@tg_debug_check)");
});
