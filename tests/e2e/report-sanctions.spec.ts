/**
 * Sanctions from the report queue (issue 10; docs/product/moderation.md#reports), with JavaScript
 * on and off: a member reports another's profile; a moderator sees on the card that the member has
 * no sanction, puts them in read-only mode from the card with a reason and a period, and the card
 * leaves the queue; the reporter is told. A new report's card shows the mute and its end; a
 * suspension from the member's page settles that report too, and the reporter is told again.
 */
import type { Page } from "@playwright/test";
import { authenticate, DEMO, expect, openContext, registerMember, test } from "./fixtures";

const withJs = () => test.info().project.use.javaScriptEnabled !== false;

/** Reports the profile at `/profile/{id}` through the dialog (JavaScript) or the report page (without). */
async function reportProfile(page: Page, memberId: number, details: string) {
  await page.goto(`/profile/${memberId}`);
  if (withJs()) await expect(page.locator('input[name="via"]').first()).toBeAttached();
  await page.getByTestId("report-button").first().click();
  const scope = withJs() ? page.getByRole("dialog") : page.getByTestId("report-form");
  await scope.getByRole("radio", { name: /Оскорбления/ }).check();
  await scope.getByLabel("Пояснение").fill(details);
  await scope.getByRole("button", { name: "Отправить жалобу" }).click();
  if (withJs()) await expect(page.getByText("Жалоба отправлена").first()).toBeVisible();
  else await expect(page.getByTestId("report-sent")).toContainText("Жалоба отправлена");
}

/** Waits until the reporter's notifications list `count` handled reports. */
async function handledReports(page: Page, count: number) {
  const handled = page.getByTestId("notification").filter({ hasText: "рассмотрел(а) вашу жалобу" });
  await expect(async () => {
    await page.goto("/profile/notifications");
    await expect(handled).toHaveCount(count, { timeout: 500 });
  }).toPass();
}

test("a moderator mutes a reported member from the queue; the card shows the sanction; a suspension settles the next report", async ({ page, browser }) => {
  const reporter = await registerMember(page);
  const offender = await openContext(browser);
  const rude = await registerMember(offender.page);
  await offender.close();

  await reportProfile(page, rude.id, "Оскорбляет в личных сообщениях");

  const moderator = await openContext(browser);
  await authenticate(moderator.page, DEMO.moderator);
  const queue = moderator.page;
  const card = queue.locator(`[data-testid="report-group"][data-target="profile:${rude.id}"]`);
  await queue.goto("/admin/reports");
  await expect(card).toContainText(reporter.username);
  await expect(card.getByTestId("report-member-sanctions")).toHaveText(/Ограничения участника:\s*нет/);

  // A mute needs a reason: the card says so and nothing happens.
  await card.getByRole("button", { name: "Только чтение" }).click();
  await expect(card.getByText("Укажите причину: её увидит участник")).toBeVisible();

  await card.getByLabel("Комментарий модератора или причина ограничения").fill("Оскорбления участников");
  await card.getByLabel("Срок", { exact: true }).selectOption("3d");
  await card.getByRole("button", { name: "Только чтение" }).click();
  await expect(queue.getByText("Решение принято: участник переведён в режим «только чтение»").first()).toBeVisible();
  await expect(card).toHaveCount(0);
  await handledReports(page, 1);

  // A new report: the card now shows the mute in force and its end.
  await reportProfile(page, rude.id, "Продолжает грубить");
  await queue.goto("/admin/reports");
  await expect(card.getByTestId("report-member-sanctions")).toContainText(/Только чтение до \d+/);

  // A suspension from the member's page settles the open report: the card leaves, the reporter is told.
  await queue.goto(`/admin/members/${rude.id}`);
  const form = queue.getByTestId("sanction-form");
  await form.getByLabel("Что сделать").selectOption("suspend");
  await form.getByLabel("Срок", { exact: true }).selectOption("7d");
  await form.getByLabel(/^Причина/).fill("Систематические оскорбления");
  await form.getByRole("button", { name: "Применить" }).click();
  await expect(queue.getByText("Участник заблокирован", { exact: true }).first()).toBeVisible();
  await queue.goto("/admin/reports");
  await expect(queue.getByRole("heading", { level: 1, name: "Жалобы" })).toBeVisible();
  await expect(card).toHaveCount(0);
  await moderator.close();
  await handledReports(page, 2);
});
