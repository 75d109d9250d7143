/**
 * The interface's delays on the page's own clock (docs/product/interface.md#tooltips-and-hover-cards):
 * a trust card opens after 700 ms of hovering and closes 300 ms after the pointer leaves; a hint
 * opens after 700 ms, and at once within 300 ms of another closing; the
 * conversation list's scrollbar hides 600 ms after scrolling is seen to stop. The clock is Playwright's fake
 * one, moved by hand, so the figures are exact whatever the machine's load.
 */
import type { Page } from "@playwright/test";
import { authenticate, DEMO, expect, test } from "./fixtures";

/** Stops the page's clock (installed before the page loaded) once the page has hydrated, so only `runFor` moves it. */
async function pauseClockWhenHydrated(page: Page) {
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1_000);
}

/**
 * Lets the page run the tasks React scheduled (a render, then its effects): they go through
 * MessageChannel, which the fake clock does not hold, in the order they were posted.
 */
async function runScheduledTasks(page: Page) {
  await page.evaluate(async () => {
    for (let round = 0; round < 3; round++) {
      await new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      });
    }
  });
}

test("a trust card opens after 700 ms of hovering and closes 300 ms after the pointer leaves", { tag: "@js-only" }, async ({ page }) => {
  await page.clock.install();
  await page.goto("/blacklist");
  await page.getByRole("link", { name: "Sanya_Trader" }).first().click();
  const name = page.getByTestId("post-card").first().getByRole("link", { name: "Sanya_Trader", exact: true });
  await expect(name).toBeVisible();
  await pauseClockWhenHydrated(page);
  const trustCard = page.getByTestId("trust-card");

  await name.hover();
  await page.clock.runFor(650);
  await expect(trustCard).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(trustCard).toBeVisible();
  await expect(trustCard.getByTestId("trust-card-figures")).toContainText("Депозит");

  await page.mouse.move(0, 0);
  await page.clock.runFor(250);
  await expect(trustCard).toBeVisible();
  await page.clock.runFor(100);
  await expect(trustCard).toHaveCount(0);
});

test(
  "moving from one member's name to another's closes the first card 300 ms after leaving it; the second opens 700 ms later",
  { tag: "@js-only" },
  async ({ page }) => {
    await page.clock.install();
    await page.goto("/");
    const names = page.getByTestId("post-card").locator(".member-name");
    await expect(names.first()).toBeVisible();
    // Two authors; the lower one first, so its card (below it) never covers the upper one.
    const upper = names.first();
    const upperName = (await upper.textContent())!.trim();
    const lower = names.filter({ hasNotText: upperName }).first();
    const lowerName = (await lower.textContent())!.trim();
    await pauseClockWhenHydrated(page);
    const trustCard = page.getByTestId("trust-card");

    await lower.hover();
    await page.clock.runFor(750);
    await expect(trustCard).toContainText(lowerName);
    await upper.hover();
    await page.clock.runFor(350);
    await expect(trustCard).toHaveCount(0);
    await page.clock.runFor(400);
    await expect(trustCard).toContainText(upperName);
  },
);

test("the conversation list's scrollbar shows while scrolling and hides 600 ms after it stops", { tag: "@js-only" }, async ({ page }) => {
  // A short window, so the demo member's conversations (seeded: the public chat, two groups, personal ones) overflow the list.
  await page.setViewportSize({ width: 1280, height: 360 });
  await authenticate(page, DEMO.member);
  await page.clock.install();
  await page.goto("/profile/conversations");
  const area = page.getByTestId("conversation-scroll-area");
  await expect(area).toBeVisible();
  await pauseClockWhenHydrated(page);
  const scrollbar = area.locator('[data-slot="scroll-area-scrollbar"]');
  await expect(scrollbar).toHaveCount(0);

  await area.locator('[data-slot="scroll-area-viewport"]').evaluate((viewport) => viewport.scrollBy(0, 80));
  await expect(scrollbar).toHaveAttribute("data-state", "visible");
  // Scrolling is seen to stop 100 ms after the last scroll event (Radix's debounce); the bar hides 600 ms later.
  await page.clock.runFor(100);
  // The 600 ms timer is set by an effect once React has rendered the stop: a loaded machine can
  // still be rendering when the next `runFor` starts, so the page catches up first.
  await runScheduledTasks(page);
  await page.clock.runFor(550);
  await expect(scrollbar).toHaveAttribute("data-state", "visible");
  await page.clock.runFor(100);
  await expect(scrollbar).toHaveCount(0);
});

test("a hint opens after 700 ms of hovering; within 300 ms of one closing the next opens at once", { tag: "@js-only" }, async ({ page }) => {
  await authenticate(page, DEMO.member);
  await page.clock.install();
  await page.goto("/");
  const conversations = page.getByRole("banner").getByRole("link", { name: /^Беседы/ });
  const signOut = page.getByRole("banner").getByRole("button", { name: "Выйти" });
  await expect(signOut).toBeVisible();
  await pauseClockWhenHydrated(page);
  const tooltip = page.getByRole("tooltip");
  // Once the page's one hint host listens (its effect runs after hydrating), a hover shows the hint.
  await expect(async () => {
    await page.mouse.move(0, 0);
    await page.clock.runFor(400);
    await conversations.hover();
    await page.clock.runFor(750);
    await expect(tooltip).toHaveText("Беседы", { timeout: 1_000 });
  }).toPass();
  await page.mouse.move(0, 0);
  await expect(tooltip).toHaveCount(0);
  await page.clock.runFor(400);

  await conversations.hover();
  await page.clock.runFor(650);
  await expect(tooltip).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(tooltip).toHaveText("Беседы");
  // From one hint straight to the next: at once.
  await signOut.hover();
  await expect(tooltip).toHaveText("Выйти");
  // Leaving closes it at once; back within 300 ms, the next opens at once too.
  await page.mouse.move(0, 0);
  await expect(tooltip).toHaveCount(0);
  await page.clock.runFor(250);
  await conversations.hover();
  await expect(tooltip).toHaveText("Беседы");
  // Later than that, the 700 ms again.
  await page.mouse.move(0, 0);
  await page.clock.runFor(350);
  await signOut.hover();
  await page.clock.runFor(650);
  await expect(tooltip).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(tooltip).toHaveText("Выйти");
});
