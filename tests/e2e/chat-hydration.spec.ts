/**
 * A conversation link clicked right after a reload, before the page has hydrated (a reported
 * glitch: «the click did nothing»). Not reproduced: before the scripts run the link is a plain
 * link and the browser loads the conversation; while they arrive and hydrate, the click is either
 * that plain navigation or React Router's. These journeys keep it so: the page's scripts are held
 * back by the test (not slept on) until the click has been made.
 */
import type { Page } from "@playwright/test";
import { expect, holdScripts, hydrated, openContext, registerMember, test } from "./fixtures";

/** A member with a personal conversation with another member, on the public chat of /profile/conversations. */
async function withConversation(page: Page, browser: Parameters<typeof openContext>[0]) {
  const other = await openContext(browser);
  const peer = await registerMember(other.page);
  await other.close();
  await registerMember(page);
  await page.goto(`/profile/${peer.id}`);
  await page.getByRole("button", { name: "Написать", exact: true }).click();
  await expect(page).toHaveURL(/\/profile\/conversations\?personal=\d+$/);
  const composer = page.getByTestId("composer");
  await expect(composer.locator('input[name="via"]')).toBeAttached();
  await composer.getByLabel("Сообщение").fill("Добрый день");
  await composer.getByRole("button", { name: "Отправить" }).click();
  await expect(page.getByTestId("message").filter({ hasText: "Добрый день" })).not.toHaveAttribute("data-pending");
  await page.getByTestId("conversation-link").filter({ hasText: "Общий чат" }).click();
  await expect(page.getByTestId("conversation-link").filter({ hasText: "Общий чат" })).toHaveAttribute("aria-current", "page");
  return peer;
}

test("a conversation link clicked after a reload, before any script ran, opens the conversation", { tag: "@js-only" }, async ({ page, browser }) => {
  const peer = await withConversation(page, browser);
  const release = await holdScripts(page);
  await page.reload({ waitUntil: "commit" });
  const link = page.getByTestId("conversation-link").filter({ hasText: peer.username });
  await link.click();
  await expect(page).toHaveURL(/\/profile\/conversations\?personal=\d+$/);
  await release();
  await hydrated(page);
  await expect(page.getByTestId("conversation-link").filter({ hasText: peer.username })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("conversation").locator("header")).toContainText(peer.username);
  await expect(page.getByTestId("message").filter({ hasText: "Добрый день" })).toBeVisible();
});

test("a conversation link clicked as the scripts arrive and hydrate opens the conversation", { tag: "@js-only" }, async ({ page, browser }) => {
  const peer = await withConversation(page, browser);
  const release = await holdScripts(page);
  await page.reload({ waitUntil: "commit" });
  const link = page.getByTestId("conversation-link").filter({ hasText: peer.username });
  await expect(link).toBeVisible();
  await release();
  await link.click();
  await expect(page).toHaveURL(/\/profile\/conversations\?personal=\d+$/);
  await expect(page.getByTestId("conversation-link").filter({ hasText: peer.username })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("conversation").locator("header")).toContainText(peer.username);
  await expect(page.getByTestId("message").filter({ hasText: "Добрый день" })).toBeVisible();
});
