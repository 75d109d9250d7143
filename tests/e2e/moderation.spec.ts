/**
 * Reports and moderators' content actions (issue 10; docs/product/moderation.md#reports and
 * #content-actions), with JavaScript on and off: a member reports a post (a dialog with
 * JavaScript, a page without) and a moderator deletes it from /admin/reports, the reporter is
 * told; a moderator deletes a comment and restores it; a moderator pins a post on the home
 * feed, the 4th pin refused until one is unpinned.
 */
import type { Page } from "@playwright/test";
// These journeys pick posts by their place in the home feed and delete, pin or close them, which
// shifts the feed under each other (and under moderation-more.spec.ts): @shares:home-feed.
import { authenticate, clickAndSave, DEMO, expect, openContext, registerMember, test } from "./fixtures";

const withJs = () => test.info().project.use.javaScriptEnabled !== false;

/** Opens the first post of the home feed that is not pinned and takes comments; returns its path and title. */
async function openOrdinaryPost(page: Page, skip = 0): Promise<{ path: string; title: string }> {
  await page.goto("/");
  const cards = page.locator('[data-testid="post-card"]:not([data-pinned])');
  const count = await cards.count();
  for (let index = skip; index < count; index++) {
    await page.goto("/");
    const link = cards.nth(index).getByRole("heading", { level: 2 }).getByRole("link");
    const title = (await link.innerText()).trim();
    // Opened by its address: a click landing while the page hydrates could be lost (seen in moderation-more.spec).
    await page.goto((await link.getAttribute("href"))!);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    if ((await page.getByTestId("comments-closed").count()) === 0) return { path: new URL(page.url()).pathname, title };
  }
  throw new Error("no open post on the home feed");
}

/** Waits until the fetcher forms of the page are hydrated (they then carry `via`), so clicks go through them. */
async function hydrated(page: Page) {
  if (withJs()) await expect(page.locator('input[name="via"]').first()).toBeAttached();
}

/** Files a report through the dialog (JavaScript) or the report page (without). */
async function fileReport(page: Page, reason: string, details: string) {
  await page.getByTestId("report-button").first().click();
  const scope = withJs() ? page.getByRole("dialog") : page.getByTestId("report-form");
  await expect(scope.getByRole("radio", { name: new RegExp(reason) })).toBeVisible();
  await scope.getByRole("radio", { name: new RegExp(reason) }).check();
  await scope.getByLabel("Пояснение").fill(details);
  await scope.getByRole("button", { name: "Отправить жалобу" }).click();
}

test("a member reports a post, a moderator deletes it from the queue, the reporter is told", { tag: "@shares:home-feed" }, async ({ page, browser }) => {
  const reporter = await registerMember(page);
  const { path, title } = await openOrdinaryPost(page);
  const postId = Number(path.split("/").pop());
  await hydrated(page);

  await fileReport(page, "Мошенничество", "Просит предоплату на карту, минуя гаранта");
  if (withJs()) {
    await expect(page.getByText("Жалоба отправлена").first()).toBeVisible();
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  } else {
    await expect(page.getByTestId("report-sent")).toContainText("Жалоба отправлена");
    await page.getByRole("link", { name: "← Вернуться" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  }

  // A second report of the same post is refused with a clear message.
  await fileReport(page, "Спам", "Ещё раз");
  await expect(page.getByText("Вы уже пожаловались на это — модераторы рассмотрят жалобу")).toBeVisible();

  // The moderator finds it in the queue, grouped, with the reporter and the reason, and deletes the post.
  const moderator = await openContext(browser);
  await authenticate(moderator.page, DEMO.moderator);
  await moderator.page.goto("/admin/reports");
  const group = moderator.page.locator(`[data-testid="report-group"][data-target="post:${postId}"]`);
  await expect(group).toContainText(title);
  await expect(group).toContainText(reporter.username);
  await expect(group).toContainText("Мошенничество");
  await expect(group.getByTestId("report-count")).toHaveText("1 участник пожаловался");
  await group.getByRole("button", { name: "Удалить пост" }).click();
  await expect(group).toHaveCount(0);
  await moderator.close();

  // The reporter hears the outcome, and the post is gone for them.
  const items = page.getByTestId("notification");
  await expect(async () => {
    await page.goto("/profile/notifications");
    await expect(items.filter({ hasText: "рассмотрел(а) вашу жалобу" })).toHaveCount(1, { timeout: 500 });
  }).toPass();
  await expect(items.filter({ hasText: "рассмотрел(а) вашу жалобу" })).toContainText(DEMO.moderator.username);
  await page.goto(path);
  await expect(page.getByText("Пост удалён модератором")).toBeVisible();
});

test("a moderator deletes a comment and restores it", { tag: "@shares:home-feed" }, async ({ page, browser }) => {
  await registerMember(page);
  const { path } = await openOrdinaryPost(page, 1);
  await hydrated(page);
  const text = `Пишите в телеграм, отдам дешевле ${Date.now()}`;
  await page.getByTestId("comments").getByLabel("Ваш комментарий").fill(text);
  await page.getByTestId("comments").getByRole("button", { name: "Отправить" }).click();
  const mine = page.getByTestId("comment").filter({ hasText: text });
  await expect(mine).toHaveAttribute("id", /^comment-\d+$/);
  const anchor = (await mine.getAttribute("id"))!;

  const moderator = await openContext(browser);
  await authenticate(moderator.page, DEMO.moderator);
  await moderator.page.goto(path);
  await hydrated(moderator.page);
  const comment = moderator.page.locator(`#${anchor}`);
  await clickAndSave(comment.getByRole("button", { name: "Удалить" }));
  await expect(comment.locator(".comment-body")).toHaveText("Удалено модератором");

  await page.goto(path);
  await expect(page.locator(`#${anchor}`).locator(".comment-body")).toHaveText("Удалено модератором");
  await expect(page.getByText(text)).toHaveCount(0);
  await expect(page.locator(`#${anchor}`).getByRole("button", { name: "Восстановить" })).toHaveCount(0);

  await clickAndSave(comment.getByRole("button", { name: "Восстановить" }));
  await expect(comment.locator(".comment-body")).toHaveText(text);
  await moderator.close();

  await page.goto(path);
  await expect(page.locator(`#${anchor}`).locator(".comment-body")).toHaveText(text);
});

test("a moderator pins a post on top of the home feed; a 4th pin is refused until one is unpinned", { tag: "@shares:home-feed" }, async ({ page }) => {
  await authenticate(page, DEMO.moderator);
  await page.goto("/");
  const pinnedCards = page.locator('[data-testid="post-card"][data-pinned="true"]');
  // The demo pins two posts: pin more until the feed holds three.
  for (let pinned = await pinnedCards.count(); pinned < 3; pinned++) {
    await openOrdinaryPost(page);
    await hydrated(page);
    await clickAndSave(page.getByRole("button", { name: "Закрепить на главной" }));
    await expect(page.getByRole("button", { name: "Открепить с главной" })).toBeVisible();
    await page.goto("/");
  }
  await expect(pinnedCards).toHaveCount(3);
  const lastPinned = (await pinnedCards.nth(2).getByRole("heading", { level: 2 }).getByRole("link").getAttribute("href"))!;

  const { path, title } = await openOrdinaryPost(page);
  await hydrated(page);
  // The 4th pin is refused (409): the message is what to wait for, not a saved answer.
  await page.getByRole("button", { name: "Закрепить на главной" }).click();
  await expect(page.getByText("На главной уже закреплено 3 поста: открепите один, чтобы закрепить этот").first()).toBeVisible();

  await page.goto(lastPinned);
  await hydrated(page);
  await clickAndSave(page.getByRole("button", { name: "Открепить с главной" }));
  await expect(page.getByRole("button", { name: "Закрепить на главной" })).toBeVisible();

  await page.goto(path);
  await hydrated(page);
  await clickAndSave(page.getByRole("button", { name: "Закрепить на главной" }));
  await expect(page.getByRole("button", { name: "Открепить с главной" })).toBeVisible();

  await page.goto("/");
  const first = page.getByTestId("post-card").first();
  await expect(first.getByRole("heading", { level: 2 })).toHaveText(title);
  await expect(first).toContainText("Закреплён");
  await expect(pinnedCards).toHaveCount(3);
});
