/**
 * /faq in Chromium (issue 11): questions open and close (details/summary, no script needed), the
 * filter narrows the list as one types (JavaScript) or through «Найти» (?q= on the server), an
 * anchor link opens its question; an admin adds a question at /admin/faq, and one without a
 * question is refused in Russian with nothing saved — with JavaScript on and off.
 */
import { DEMO, expect, authenticate, holdScripts, hydrated, test } from "./fixtures";

// Both journeys count the questions; the second adds one.
test("a reader opens questions, filters them and follows an anchor", { tag: "@shares:faq" }, async ({ page, javaScriptEnabled }) => {
  await page.goto("/faq");
  const entries = page.getByTestId("faq-entry");
  const total = await entries.count();
  expect(total).toBeGreaterThan(15);
  const fee = entries.filter({ hasText: "Сколько стоит гарант?" });
  await fee.getByText("Сколько стоит гарант?").click();
  await expect(fee.getByText("не меньше")).toBeVisible();
  await expect(fee.locator("table")).toBeVisible();

  const filter = page.getByRole("searchbox", { name: "Найти вопрос" });
  await filter.fill("вывести депозит");
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Найти" }).click();
  await expect(page.getByTestId("faq-filter-status")).toContainText(`из ${total}`);
  const shown = await entries.count();
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(total);
  await expect(entries.first()).toHaveAttribute("open", "");
  if (!javaScriptEnabled) expect(page.url()).toContain("q=");

  await page.getByRole("link", { name: "Показать все" }).click();
  await expect(entries).toHaveCount(total);

  await page.goto("/faq#kak-vyvesti-depozit-i-pochemu-eto-zanimaet-14-dnej");
  const withdrawal = page.locator("#kak-vyvesti-depozit-i-pochemu-eto-zanimaet-14-dnej");
  await expect(withdrawal).toBeInViewport();
  if (javaScriptEnabled) await expect(withdrawal.getByText("14 дней").first()).toBeVisible();
});

test("an admin adds a question; one without a question is refused and nothing is saved", { tag: "@shares:faq" }, async ({ page }) => {
  await authenticate(page, DEMO.admin);
  await page.goto("/admin/faq");
  const entries = page.getByTestId("admin-faq-entry");
  const before = await entries.count();
  await page.getByTestId("admin-faq-section").first().getByRole("link", { name: "Добавить вопрос" }).click();
  await expect(page).toHaveURL(/\/admin\/faq\/entries\/new\?section=\d+/);
  await page.getByRole("textbox", { name: "Ответ", exact: true }).fill("Ответ без вопроса");
  await page.getByRole("button", { name: "Добавить вопрос" }).click();
  await expect(page.getByText("Укажите вопрос")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Ответ", exact: true })).toHaveValue("Ответ без вопроса");

  const question = `Есть ли мобильное приложение ${Date.now()}?`;
  await page.getByRole("textbox", { name: "Вопрос", exact: true }).fill(question);
  await page.getByRole("textbox", { name: "Ответ", exact: true }).fill("Сайт работает в браузере телефона и как **мини-приложение Telegram**.");
  await page.getByLabel(/Опубликовать/).check();
  await page.getByRole("button", { name: "Добавить вопрос" }).click();
  await expect(page).toHaveURL(/\/admin\/faq$/);
  await expect(entries).toHaveCount(before + 1);

  await page.goto("/faq");
  const added = page.getByTestId("faq-entry").filter({ hasText: question });
  await added.getByText(question).click();
  await expect(added.locator("strong")).toHaveText("мини-приложение Telegram");
});

test("words typed into the filter before the page's script started filter the list once it starts @js-only", async ({ page }) => {
  const releaseScripts = await holdScripts(page);
  await page.goto("/faq", { waitUntil: "commit" });
  await page.getByRole("searchbox", { name: "Найти вопрос" }).fill("вывести депозит");
  await releaseScripts();
  await hydrated(page);
  await expect(page.getByTestId("faq-filter-status")).toContainText("Найдено");
  await expect(page.getByTestId("faq-entry").filter({ hasText: "Сколько стоит гарант?" })).toHaveCount(0);
});
