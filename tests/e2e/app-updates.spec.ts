/**
 * An open tab and a new deploy (docs/product/routes.md#navigation-behaviour; docs/product/routes.md#navigation-behaviour):
 * the hourly build check offers «Обновить» when the server runs another build, and a failed
 * code-chunk load reloads the page at most once per 10 s. Only a script does either.
 */
import { expect, hydrated, test } from "./fixtures";

test("an hour after loading, a tab learns of a new build and offers to reload", { tag: "@js-only" }, async ({ page }) => {
  await page.clock.install();
  await page.goto("/faq");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The hour is counted from when the page's script started (after the first paint, docs/decisions/0057).
  await hydrated(page);
  // Nothing is said while the server runs the tab's own build.
  await page.clock.runFor(3_600_000);
  await expect(page.getByText("Доступна новая версия сайта", { exact: true })).toHaveCount(0);

  await page.route("**/api/build", (route) => route.fulfill({ json: { version: "a-newer-build" } }));
  await page.clock.runFor(3_600_000);
  await expect(page.getByText("Доступна новая версия сайта", { exact: true })).toBeVisible();
  const reloaded = page.waitForEvent("load");
  await page.getByRole("button", { name: "Обновить" }).click();
  await reloaded;
});

test("a failed chunk load reloads the page, but not twice within 10 s", { tag: "@js-only" }, async ({ page }) => {
  await page.clock.install();
  await page.goto("/faq");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  let loads = 0;
  page.on("load", () => loads++);
  const chunkFails = () => page.evaluate(() => window.dispatchEvent(new Event("vite:preloadError", { cancelable: true })));
  // The guard is installed on hydration, which may come after the server-rendered heading shows
  // (sooner still from the visitor page cache): the failure is signalled until the page reloads.
  const reloadedAfterChunkFailure = async (expected: number) => {
    await expect
      .poll(async () => {
        await chunkFails().catch(() => {
          // The page is reloading: its old document is gone.
        });
        return loads;
      })
      .toBe(expected);
  };

  await reloadedAfterChunkFailure(1);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // Within the guard the page stays as it is.
  await page.clock.runFor(5_000);
  await chunkFails();
  await page.getByRole("searchbox", { name: "Найти вопрос" }).fill("депозит");
  expect(loads).toBe(1);
  await expect(page.getByRole("searchbox", { name: "Найти вопрос" })).toHaveValue("депозит");

  await page.clock.runFor(6_000);
  await reloadedAfterChunkFailure(2);
});
