/**
 * The blacklist search (issue 14; docs/product/claims.md#blacklist-search), with and without
 * JavaScript: a GET form with ?q= finds members by name and by words of the reason, says
 * «Ничего не найдено» when nothing matches, and its pages keep the query.
 */
import { randomUUID } from "node:crypto";
import type { Browser } from "@playwright/test";
import { authenticate, DEMO, expect, openContext, registerMember, test } from "./fixtures";

/** A fresh member blacklisted by the demo moderator with `note` as the reason, through the JSON API; returns their username. */
async function blacklisted(browser: Browser, note: string): Promise<string> {
  const accused = await openContext(browser);
  const { username } = await registerMember(accused.page);
  await accused.close();
  const claimant = await openContext(browser);
  await registerMember(claimant.page);
  await claimant.page.goto("/claims/new");
  const filed = await claimant.page.request.post("/api/claims", {
    data: { accused: username, amount: 150_000, description: "Получил оплату за аккаунт и перестал отвечать на сообщения.", evidence: [] },
    headers: { "X-CSRF-Token": await claimant.page.locator('input[name="csrf"]').first().inputValue(), "Idempotency-Key": randomUUID() },
  });
  expect(filed.status()).toBe(201);
  const claimId = ((await filed.json()) as { data: { id: number } }).data.id;
  await claimant.close();
  const moderator = await openContext(browser);
  await authenticate(moderator.page, DEMO.moderator);
  await moderator.page.goto(`/claims/${claimId}`);
  const decided = await moderator.page.request.post(`/api/claims/${claimId}/decision`, {
    data: { decision: "uphold", note },
    headers: { "X-CSRF-Token": await moderator.page.locator('input[name="csrf"]').first().inputValue(), "Idempotency-Key": randomUUID() },
  });
  expect(decided.status()).toBe(200);
  await moderator.close();
  return username;
}

test("a visitor searches the blacklist by name and by reason; nothing found says so; pages keep the query", async ({ page, browser }) => {
  const tag = `метка${Date.now().toString(36)}`;
  const first = await blacklisted(browser, `Взял предоплату и пропал (${tag})`);
  const second = await blacklisted(browser, `Подделал чек перевода (${tag})`);

  await page.goto("/blacklist");
  const search = page.getByRole("search");
  const entries = page.getByTestId("blacklist-entry");

  // By a word of the reason: both, newest first.
  await search.getByLabel("Поиск по чёрному списку").fill(tag.toUpperCase());
  await search.getByRole("button", { name: "Найти" }).click();
  await expect(page).toHaveURL(`/blacklist?q=${encodeURIComponent(tag.toUpperCase())}`);
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText(second);
  await expect(entries.last()).toContainText(first);
  await expect(page.getByTestId("blacklist-found")).toContainText("найдены 2 записи");
  await expect(search.getByLabel("Поиск по чёрному списку")).toHaveValue(tag.toUpperCase());

  // By the name, with the «@» people type.
  await search.getByLabel("Поиск по чёрному списку").fill(`@${first}`);
  await search.getByRole("button", { name: "Найти" }).click();
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText(first);
  await expect(entries.first()).toContainText("Взял предоплату и пропал");

  // Nothing found.
  await search.getByLabel("Поиск по чёрному списку").fill(`${tag} нет такого`);
  await search.getByRole("button", { name: "Найти" }).click();
  await expect(page.getByTestId("blacklist-empty")).toContainText("Ничего не найдено");
  await expect(entries).toHaveCount(0);

  // Pages keep the query: one a page, the second page still searches.
  await page.goto(`/blacklist?q=${encodeURIComponent(tag)}&perPage=1`);
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText(second);
  await page.getByRole("navigation", { name: "Страницы" }).getByRole("link", { name: "Страница 2" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === tag && url.searchParams.get("page") === "2");
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText(first);

  // «Показать весь список» clears the search.
  await page.getByRole("link", { name: "Показать весь список" }).click();
  await expect(page).toHaveURL("/blacklist");
  await expect(page.getByTestId("blacklist-found")).toHaveCount(0);
});
