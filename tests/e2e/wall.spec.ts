/** Wall and follow journeys (issue 3 items 3 and 4), run with JavaScript on and off. */
import type { Locator } from "@playwright/test";
import { authenticate, clickAndSave, expect, registerMember, signOut, test } from "./fixtures";

/** With JavaScript, waits until `form` is hydrated (it then carries via=fetcher), so the fetcher path is what runs. */
async function hydrated(form: Locator, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await expect(form.locator('input[name="via"]')).toBeAttached();
}

test("a member writes on another member's wall; the owner pins it and it shows on top", async ({ page, javaScriptEnabled }) => {
  const owner = await registerMember(page);
  await page.goto("/");
  await signOut(page);

  // A visitor sees the wall but is asked to sign in to write.
  await page.goto(`/profile/${owner.id}`);
  const wall = page.getByTestId("wall");
  await expect(wall.getByText("На стене пока нет записей.")).toBeVisible();
  await expect(wall.getByRole("link", { name: "войдите" })).toBeVisible();
  await expect(wall.getByLabel("Новая запись")).toHaveCount(0);

  const writer = await registerMember(page);
  await page.goto(`/profile/${owner.id}`);
  const text = `Спасибо за сделку, @${owner.username}! Всё **честно**.`;
  const form = wall.locator("form").filter({ has: page.getByLabel("Новая запись") });
  await hydrated(form, javaScriptEnabled);
  await wall.getByLabel("Новая запись").fill(text);
  await wall.getByRole("button", { name: "Написать на стене" }).click();
  const entries = wall.getByTestId("wall-entry");
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText(`Спасибо за сделку, @${owner.username}! Всё честно.`);
  await expect(entries.first().locator("strong")).toHaveText("честно");
  await expect(entries.first().getByRole("link", { name: `@${owner.username}` })).toHaveAttribute("href", `/profile/${owner.id}`);
  await expect(entries.first().getByText(writer.username, { exact: true })).toHaveAttribute("href", `/profile/${writer.id}`);
  await expect(wall.getByLabel("Новая запись")).toHaveValue("");
  // Only the owner pins; the author may delete their entry.
  await expect(entries.first().getByRole("button", { name: "Закрепить" })).toHaveCount(0);
  await expect(entries.first().getByRole("button", { name: "Удалить" })).toBeVisible();
  await signOut(page);

  await authenticate(page, owner);
  await page.goto(`/profile/${owner.id}`);
  await hydrated(form, javaScriptEnabled);
  await wall.getByLabel("Новая запись").fill("Моя новая запись: продаю аккаунт");
  await wall.getByRole("button", { name: "Написать на стене" }).click();
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText("Моя новая запись");

  const writersEntry = entries.filter({ hasText: "Спасибо за сделку" });
  await hydrated(writersEntry.locator("form").filter({ has: page.getByRole("button", { name: "Закрепить" }) }), javaScriptEnabled);
  await clickAndSave(writersEntry.getByRole("button", { name: "Закрепить" }));
  await expect(entries.first()).toContainText("Спасибо за сделку");
  await expect(entries.first()).toContainText("Закреплено");
  await expect(entries.first().getByRole("button", { name: "Открепить" })).toBeVisible();
  await expect(entries.nth(1)).toContainText("Моя новая запись");

  // A visitor sees the pinned entry on top too.
  await signOut(page);
  await page.goto(`/profile/${owner.id}`);
  await expect(entries.first()).toContainText("Спасибо за сделку");
  await expect(entries.first()).toContainText("Закреплено");
});

test("a member follows another member and sees the follower count change", async ({ page, javaScriptEnabled }) => {
  const star = await registerMember(page);
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Подписаться" })).toHaveCount(0);
  await page.goto(`/profile/${star.id}`);
  // Nothing to press on one's own profile.
  await expect(page.getByRole("button", { name: "Подписаться" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Заблокировать" })).toHaveCount(0);
  await signOut(page);

  const fan = await registerMember(page);
  await page.goto(`/profile/${star.id}`);
  const header = page.getByTestId("profile-header");
  await expect(header.getByTestId("followers-count")).toHaveText("0");
  await hydrated(header.locator("form").filter({ has: page.getByRole("button", { name: "Подписаться" }) }), javaScriptEnabled);
  await clickAndSave(header.getByRole("button", { name: "Подписаться" }));
  await expect(header.getByTestId("followers-count")).toHaveText("1");
  await expect(header.getByRole("button", { name: "Отписаться" })).toBeVisible();
  await header.getByTestId("followers").locator("summary").click();
  await expect(header.getByTestId("followers").getByRole("link", { name: fan.username })).toBeVisible();

  // The fan's own profile counts the follow too.
  await page.goto(`/profile/${fan.id}`);
  await expect(page.getByTestId("following-count")).toHaveText("1");

  await page.goto(`/profile/${star.id}`);
  await hydrated(header.locator("form").filter({ has: page.getByRole("button", { name: "Отписаться" }) }), javaScriptEnabled);
  await header.getByRole("button", { name: "Отписаться" }).click();
  await expect(header.getByTestId("followers-count")).toHaveText("0");
  await expect(header.getByRole("button", { name: "Подписаться" })).toBeVisible();
});
