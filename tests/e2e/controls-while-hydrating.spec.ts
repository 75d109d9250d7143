/**
 * The header's controls, its bell and the online list's links stay the very elements the server
 * sent while the page hydrates and the hints' and the bell menu's code arrives (docs/product/interface.md#tooltips-and-hover-cards,
 * docs/decisions/0041-hints-are-attributes-one-host-reads.md). A CI run lost presses on «Выйти» and on an online member's
 * avatar: they used to be swapped for tooltip-wrapped copies just then, so a press or a keyboard
 * focus landing on the old element went nowhere. The page's scripts are held back by the test
 * until the focus is placed, so the swap, if any, happens under it. The scripts themselves are
 * asked for only after the page's first paint (docs/decisions/0057).
 */
import { expect, holdScripts, hydrated, registerMember, test } from "./fixtures";

test("the focus stays on «Выйти» while the page hydrates; the hints name the controls, and a press then signs out", { tag: "@js-only" }, async ({ page }) => {
  const member = await registerMember(page);
  const release = await holdScripts(page);
  await page.goto("/", { waitUntil: "commit" });
  const signOut = page.getByRole("button", { name: "Выйти" });
  const mine = page.getByTestId("online-members").getByRole("link", { name: `Профиль: ${member.username}` });
  await signOut.focus();
  const button = await signOut.elementHandle();
  const link = await mine.elementHandle();
  await release();

  // The hints open on hovering once the page has hydrated and their code has come: until then the
  // pointer is moved off and on again, as a person would.
  const tooltip = page.getByRole("tooltip");
  await expect(async () => {
    await page.mouse.move(0, 0);
    await mine.hover();
    await expect(tooltip).toHaveText(member.username, { timeout: 2_000 });
  }).toPass();
  await signOut.hover();
  await expect(tooltip).toHaveText("Выйти");

  expect(await link!.evaluate((element) => element.isConnected), "the online list's link is the server's element").toBe(true);
  expect(
    await button!.evaluate((element) => element.isConnected && document.activeElement === element),
    "«Выйти» is the server's element and keeps the focus",
  ).toBe(true);
  // From the keyboard its hint shows at once; pressed, the button leaves the page and its hint with it.
  await page.mouse.move(0, 0);
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(signOut).toBeFocused();
  await expect(tooltip).toHaveText("Выйти");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("link", { name: "Войти" })).toBeVisible();
  await expect(tooltip).toHaveCount(0);
});

test("the focus stays on the bell while the page hydrates; Enter then opens its menu and Escape comes back to it", { tag: "@js-only" }, async ({ page }) => {
  await registerMember(page);
  const release = await holdScripts(page);
  await page.goto("/", { waitUntil: "commit" });
  const bell = page.getByRole("link", { name: "Уведомления" });
  await bell.focus();
  const server = await bell.elementHandle();
  await release();

  // Hydrated, the link says it opens a menu.
  await expect(bell).toHaveAttribute("aria-haspopup", "menu");
  expect(
    await server!.evaluate((element) => element.isConnected && document.activeElement === element),
    "the bell is the server's link and keeps the focus",
  ).toBe(true);
  await page.keyboard.press("Enter");
  const menu = page.getByTestId("notifications-menu");
  await expect(menu.getByTestId("notifications-menu-empty")).toHaveText("Уведомлений пока нет");
  await expect(bell).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  expect(await server!.evaluate((element) => element.isConnected && document.activeElement === element), "the focus is back on the same bell").toBe(true);
});

test("the page is painted before its scripts are asked for, then hydrates (docs/decisions/0057)", { tag: "@js-only" }, async ({ page }) => {
  for (const path of ["/", "/post/1"]) {
    await page.goto(path);
    await hydrated(page);
    const timing = await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName("first-paint")[0]?.startTime,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => /\/assets\/[^?]+\.js$/.test(entry.name))
        .map((entry) => ({ name: entry.name, startTime: entry.startTime })),
    }));
    expect(timing.firstPaint, `${path}'s first paint`).toBeGreaterThan(0);
    expect(timing.scripts.length, `${path}'s scripts`).toBeGreaterThan(5);
    expect(
      timing.scripts.filter((script) => script.startTime < timing.firstPaint!),
      `${path}'s scripts asked for before the first paint`,
    ).toEqual([]);
  }
});
