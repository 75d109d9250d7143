/**
 * The interface's delays on the page's own clock (docs/product/interface.md#tooltips-and-hover-cards):
 * a trust card opens after 700 ms of hovering and closes 300 ms after the pointer leaves; a hint
 * opens after 700 ms, and at once within 300 ms of another closing; the
 * conversation list's scrollbar hides 600 ms after scrolling is seen to stop. The clock is Playwright's fake
 * one, moved by hand, so the figures are exact whatever the machine's load.
 */
import type { Locator, Page } from "@playwright/test";
import { authenticate, DEMO, expect, registerMember, test, hydrated } from "./fixtures";

/** Stops the page's clock (installed before the page loaded) once the page has hydrated, so only `runFor` moves it. */
async function pauseClockWhenHydrated(page: Page) {
  await hydrated(page);
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

/**
 * Waits until the page's one hint host listens (its effect runs after hydrating): hovers `control`
 * until its hint `label` shows, then moves the pointer away and lets the 300 ms pass.
 */
async function untilHintsListen(page: Page, control: Locator, label: string) {
  const tooltip = page.getByRole("tooltip");
  await expect(async () => {
    await page.mouse.move(0, 0);
    await page.clock.runFor(400);
    await control.hover();
    await page.clock.runFor(750);
    await expect(tooltip).toHaveText(label, { timeout: 1_000 });
  }).toPass();
  await page.mouse.move(0, 0);
}

test("a hint opens after 700 ms of hovering; within 300 ms of one closing the next opens at once", { tag: "@js-only" }, async ({ page }) => {
  await authenticate(page, DEMO.member);
  await page.clock.install();
  await page.goto("/");
  const conversations = page.getByRole("banner").getByRole("link", { name: /^Беседы/ });
  const signOut = page.getByRole("banner").getByRole("button", { name: "Выйти" });
  await expect(signOut).toBeVisible();
  await pauseClockWhenHydrated(page);
  const tooltip = page.getByRole("tooltip");
  await untilHintsListen(page, conversations, "Беседы");
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

test("a hint waiting its 700 ms for a control that leaves the page never opens", { tag: "@js-only" }, async ({ page }) => {
  await registerMember(page);
  await page.clock.install();
  await page.goto("/");
  const signOut = page.getByRole("banner").getByRole("button", { name: "Выйти" });
  await expect(signOut).toBeVisible();
  await pauseClockWhenHydrated(page);
  // Focused without the keyboard (no hint from the focus), then hovered: its hint waits 700 ms.
  await page.mouse.click(1, 300);
  await signOut.focus();
  await signOut.hover();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("link", { name: "Войти" })).toBeVisible();
  await page.clock.runFor(750);
  await expect(page.getByRole("tooltip")).toHaveCount(0);
});

test("the keyboard's focus moving between other controls leaves a hovered control's hint waiting its 700 ms", { tag: "@js-only" }, async ({ page }) => {
  await authenticate(page, DEMO.member);
  await page.clock.install();
  await page.goto("/");
  const conversations = page.getByRole("banner").getByRole("link", { name: /^Беседы/ });
  await expect(conversations).toBeVisible();
  await pauseClockWhenHydrated(page);
  await untilHintsListen(page, conversations, "Беседы");
  await page.clock.runFor(400);
  const tooltip = page.getByRole("tooltip");

  await conversations.hover();
  // The skip link, then the site's name: neither has a hint.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.clock.runFor(650);
  await expect(tooltip).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(tooltip).toHaveText("Беседы");
});
