/** Likes and bookmarks journeys (issue 3 items 2 and 5), run with JavaScript on and off. */
import type { Locator, Page } from "@playwright/test";
import { clickAndSave, expect, registerMember, test } from "./fixtures";

/**
 * Opens the `index`-th post of the «Игры» feed written by a demo member (never by the new one, nor
 * by a journey running beside this one, whose author would get notifications it does not expect;
 * journeys publish elsewhere, and late in a run theirs fill the first page of the home feed);
 * returns its title.
 */
async function openFeedPost(page: Page, index: number) {
  await page.goto("/?category=2");
  const link = page.getByTestId("post-card").filter({ hasNotText: "e2e_" }).nth(index).getByRole("heading", { level: 2 }).getByRole("link");
  const title = (await link.textContent())!.trim();
  await link.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  return title;
}

/**
 * With JavaScript, waits until the forms of `scope` are hydrated (they then carry the fetcher
 * mark), so the journey tests the fetcher and not the plain form.
 */
async function hydrated(scope: Locator, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await expect(scope.locator('input[name="via"][value="fetcher"]').first()).toBeAttached();
}

/**
 * Clicks a like or bookmark button and, with JavaScript, waits for the fetcher's answer: the
 * button flips at once, and leaving the page earlier would cancel the request.
 */
async function clickAndSettle(page: Page, button: Locator, javaScriptEnabled: boolean) {
  const answered = javaScriptEnabled ? page.waitForResponse((r) => /\/(likes|bookmarks)\.data/.test(r.url()) && r.request().method() === "POST") : null;
  await button.click();
  if (answered) expect((await answered).status()).toBe(200);
}

async function countOf(button: Locator) {
  return Number((await button.getByTestId("like-count").textContent())!.replace(/\s/g, ""));
}

// The count is the post's: the same journey in the other project must not like it meanwhile.
test("a member likes a post and takes the like back; the count follows", { tag: "@shares:demo-post-likes" }, async ({ page, javaScriptEnabled }) => {
  await registerMember(page);
  await openFeedPost(page, 0);
  const actions = page.getByTestId("post-actions");
  await hydrated(actions, javaScriptEnabled);
  const like = actions.getByRole("button", { name: "Нравится", exact: true });
  await expect(like).toHaveAttribute("aria-pressed", "false");
  const before = await countOf(like);

  // With JavaScript the button flips before the server answers: hold the request until it has.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  if (javaScriptEnabled) await page.route("**/likes.data*", async (route) => held.then(() => route.continue()));
  const answered = javaScriptEnabled ? page.waitForResponse((r) => r.url().includes("/likes.data") && r.request().method() === "POST") : null;
  await like.click();
  const unlike = actions.getByRole("button", { name: "Больше не нравится", exact: true });
  await expect(unlike).toHaveAttribute("aria-pressed", "true");
  await expect(unlike.getByTestId("like-count")).toHaveText(String(before + 1));
  release();
  expect((await answered)?.status() ?? 200).toBe(200);
  // Without JavaScript the form redirected back to the button; with it the page stayed put.
  if (javaScriptEnabled) expect(new URL(page.url()).hash).toBe("");
  else await expect(page).toHaveURL(/#like-post-\d+$/);

  // The like is stored, not only shown.
  await page.reload();
  await hydrated(actions, javaScriptEnabled);
  await expect(unlike).toHaveAttribute("aria-pressed", "true");
  await expect(unlike.getByTestId("like-count")).toHaveText(String(before + 1));

  await clickAndSettle(page, unlike, javaScriptEnabled);
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await expect(like.getByTestId("like-count")).toHaveText(String(before));
  await page.reload();
  await expect(like.getByTestId("like-count")).toHaveText(String(before));
});

test("a visitor is asked to sign in to like or bookmark", async ({ page }) => {
  await openFeedPost(page, 0);
  const path = new URL(page.url()).pathname;
  const loginUrl = `/auth/login?redirect=${encodeURIComponent(path)}`;
  await expect(page.getByTestId("post-actions").getByRole("link", { name: "В закладки" })).toHaveAttribute("href", loginUrl);
  await page.getByTestId("post-actions").getByRole("link", { name: "Войдите, чтобы оценить" }).click();
  await expect(page).toHaveURL(loginUrl);
});

test("a member bookmarks posts, finds them on /profile/bookmarks newest first, and removes them", async ({ page, javaScriptEnabled }) => {
  await registerMember(page);
  await page.goto("/profile/bookmarks");
  await expect(page.getByText("В закладках пока пусто")).toBeVisible();

  const first = await openFeedPost(page, 1);
  await hydrated(page.getByTestId("post-actions"), javaScriptEnabled);
  await clickAndSettle(page, page.getByTestId("post-actions").getByRole("button", { name: "В закладки" }), javaScriptEnabled);
  await expect(page.getByTestId("post-actions").getByRole("button", { name: "Убрать из закладок" })).toHaveAttribute("aria-pressed", "true");
  const firstUrl = page.url();

  const second = await openFeedPost(page, 2);
  await hydrated(page.getByTestId("post-actions"), javaScriptEnabled);
  await clickAndSettle(page, page.getByTestId("post-actions").getByRole("button", { name: "В закладки" }), javaScriptEnabled);
  await expect(page.getByTestId("post-actions").getByRole("button", { name: "Убрать из закладок" })).toBeVisible();

  await page.goto("/profile/bookmarks");
  await expect(page).toHaveTitle(/^Закладки \|/);
  const cards = page.getByTestId("post-card");
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText(second);
  await expect(cards.nth(1)).toContainText(first);
  await expect(page.getByText("2 поста в закладках")).toBeVisible();

  // Un-bookmark from the list…
  await hydrated(page.getByTestId("post-card").first(), javaScriptEnabled);
  await clickAndSave(cards.filter({ hasText: second }).getByRole("button", { name: "Убрать из закладок" }));
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(first);

  // …and from the post page.
  await page.goto(firstUrl);
  await hydrated(page.getByTestId("post-actions"), javaScriptEnabled);
  await clickAndSettle(page, page.getByTestId("post-actions").getByRole("button", { name: "Убрать из закладок" }), javaScriptEnabled);
  await expect(page.getByTestId("post-actions").getByRole("button", { name: "В закладки" })).toHaveAttribute("aria-pressed", "false");
  await page.goto("/profile/bookmarks");
  await expect(page.getByText("В закладках пока пусто")).toBeVisible();
});
