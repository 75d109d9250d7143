/**
 * The post editor (docs/product/content.md#post-editor): the Markdown toolbar, pictures pasted,
 * dropped and picked, the live preview and autosaved drafts need JavaScript (@js-only); publishing
 * and deleting one's own post work in both projects.
 */
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, holdScripts, hydrated, openContext, registerMember, test } from "./fixtures";

const picture = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#c0392b" } })
    .png()
    .toBuffer();

/** Puts `files` on the textarea as the browser does for a paste (`paste`) or a drop (`drop`). */
async function sendFiles(page: Page, how: "paste" | "drop", files: { name: string; type: string; base64: string }[]) {
  const textarea = page.getByLabel("Текст");
  const dataTransfer = await page.evaluateHandle((files) => {
    const transfer = new DataTransfer();
    for (const file of files) {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: file.type }));
    }
    return transfer;
  }, files);
  if (how === "drop") {
    await textarea.dispatchEvent("dragover", { dataTransfer });
    await textarea.dispatchEvent("drop", { dataTransfer });
  } else {
    await textarea.evaluate((element, clipboardData) => {
      element.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
    }, dataTransfer);
  }
}

const UPLOADED = /!\[\]\(\/uploads\/posts\/\d+\/[0-9a-f]{24}\.webp\)/g;

test("the toolbar and its shortcuts write Markdown, and the preview beside the text renders it @js-only", async ({ page }) => {
  await registerMember(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/posts/new");
  const body = page.getByLabel("Текст");
  await body.fill("Цена договорная");
  await body.press("ControlOrMeta+a");
  await page.getByRole("button", { name: "Жирный" }).click();
  await expect(body).toHaveValue("**Цена договорная**");
  const preview = page.getByRole("region", { name: "Просмотр" });
  await expect(preview.locator("strong")).toHaveText("Цена договорная");

  await body.press("End");
  await body.press("Enter");
  await page.getByRole("button", { name: "Список" }).click();
  await body.pressSequentially("торг уместен");
  await body.press("Control+i");
  await expect(body).toHaveValue("**Цена договорная**\n- торг уместен*курсив*");
  await body.pressSequentially("срочно");
  await page.getByRole("button", { name: "Раздел" }).click();
  await expect(body).toHaveValue("**Цена договорная**\n## торг уместен*срочно*");
  await expect(preview.getByRole("heading", { level: 2 })).toHaveText("торг уместенсрочно");

  // Ctrl+Z takes a toolbar edit back, as any typing.
  await body.press("ControlOrMeta+z");
  await expect(body).toHaveValue("**Цена договорная**\n- торг уместен*срочно*");

  // Tooltips name each button (Radix opens one only once the pointer has left the button last clicked).
  await page.getByRole("button", { name: "Жирный" }).hover();
  await expect(page.getByRole("tooltip")).toHaveText("Жирный (Ctrl+B)");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("tooltip")).toHaveCount(0);
  await page.getByRole("button", { name: "Раздел" }).hover();
  await expect(page.getByRole("tooltip")).toHaveText("Заголовок раздела");
});

test("on a phone the text and the preview are tabs, and the toolbar's buttons are 44 px @js-only", async ({ page }) => {
  await registerMember(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/posts/new");
  await page.getByLabel("Текст").fill("## Привет");
  const preview = page.getByRole("region", { name: "Просмотр" });
  await expect(preview).toBeHidden();
  const bold = await page.getByRole("button", { name: "Жирный" }).boundingBox();
  expect(bold?.height).toBeGreaterThanOrEqual(44);
  expect(bold?.width).toBeGreaterThanOrEqual(44);
  await page.getByRole("tab", { name: "Просмотр" }).click();
  await expect(preview.getByRole("heading", { name: "Привет" })).toBeVisible();
  await expect(page.getByLabel("Текст")).toBeHidden();
  await page.getByRole("tab", { name: "Текст" }).click();
  await expect(page.getByLabel("Текст")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("a pasted and a dropped picture upload with «Загрузка…» meanwhile and end up in the published post @js-only", async ({ page }) => {
  await registerMember(page);
  await page.goto("/posts/new");
  // A paste is the page's script's to handle, which starts after the first paint (docs/decisions/0057).
  await hydrated(page);
  await page.getByLabel("Заголовок").fill("Пост с картинками");
  await page.getByLabel("Категория").selectOption({ label: "Оффтоп" });
  const body = page.getByLabel("Текст");
  await body.fill("Смотрите:");
  const base64 = (await picture()).toString("base64");

  // Hold the first upload to see the placeholder.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/uploads/images", async (route) => {
    await held;
    await route.continue();
  });
  await sendFiles(page, "paste", [{ name: "screenshot.png", type: "image/png", base64 }]);
  await expect(body).toHaveValue(/Смотрите:\n!\[Загрузка… \d+\]\(\)/);
  await expect(page.getByText("Загрузка изображения…")).toBeVisible();
  release();
  await expect(body).toHaveValue(/^Смотрите:\n!\[\]\(\/uploads\/posts\/\d+\/[0-9a-f]{24}\.webp\)$/);
  await page.unroute("**/api/uploads/images");

  await sendFiles(page, "drop", [{ name: "photo.png", type: "image/png", base64 }]);
  await expect.poll(async () => (await body.inputValue()).match(UPLOADED)?.length).toBe(2);
  // The cursor stays after the pictures: typing goes on below them.
  await body.press("End");
  await body.pressSequentially(" ");
  await body.press("Enter");
  await body.pressSequentially("Конец.");
  await expect(body).toHaveValue(/^Смотрите:\n!\[\]\([^)]+\)\n!\[\]\([^)]+\) \nКонец\.$/);
  await expect(page.getByRole("region", { name: "Просмотр" }).locator("img")).toHaveCount(2);

  await page.getByRole("button", { name: "Опубликовать" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  const images = page.getByTestId("post-body").locator("img");
  await expect(images).toHaveCount(2);
  await expect(images.first()).toHaveAttribute("src", /\/api\/image\?url=%2Fuploads%2Fposts%2F/);
  await expect.poll(() => images.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
});

test("a picture the server refuses leaves no placeholder and says why in Russian @js-only", async ({ page }) => {
  await registerMember(page);
  await page.goto("/posts/new");
  await page.getByLabel("Текст").fill("Текст");
  await page.getByTestId("image-upload-input").setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("это не картинка") });
  const reason = "Можно загрузить изображение JPEG, PNG, WebP, GIF или AVIF не больше 50 мегапикселей и 8192 точек по каждой стороне";
  await expect(page.getByRole("alert")).toHaveText(reason);
  // The API's refusal is also a toast titled «Ошибка!» (docs/product/routes.md#reply-envelope).
  const toast = page.locator('[data-slot="toast"]').filter({ hasText: "Ошибка!" });
  await expect(toast).toContainText(reason);
  await expect(page.getByLabel("Текст")).toHaveValue("Текст");
});

test("a draft is kept while typing, restored on return, deleted on demand and gone after publishing @js-only", async ({ page }) => {
  await registerMember(page);
  await page.goto("/posts/new");
  // Drafts are kept by the page's script, which starts after the first paint (docs/decisions/0057).
  await hydrated(page);
  await page.getByLabel("Заголовок").fill("Черновик о продаже");
  await page.getByLabel("Категория").selectOption({ label: "Торговля" });
  await page.getByLabel("Текст").fill("Продаю **ноутбук**");
  const draft = () => page.evaluate(() => localStorage.getItem("post-draft:new"));
  await expect.poll(draft).toContain("Продаю **ноутбук**");

  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "Восстановлен черновик" })).toBeVisible();
  await expect(page.getByLabel("Заголовок")).toHaveValue("Черновик о продаже");
  await expect(page.getByLabel("Категория")).toHaveValue("1");
  await expect(page.getByLabel("Текст")).toHaveValue("Продаю **ноутбук**");
  await expect(page.getByRole("region", { name: "Просмотр" }).locator("strong")).toHaveText("ноутбук");

  await page.getByRole("button", { name: "Удалить черновик" }).click();
  await expect(page.getByLabel("Заголовок")).toHaveValue("");
  await expect(page.getByLabel("Текст")).toHaveValue("");
  await expect.poll(draft).toBeNull();

  await page.getByLabel("Заголовок").fill("Продаю ноутбук");
  await page.getByLabel("Категория").selectOption({ label: "Торговля" });
  await page.getByLabel("Текст").fill("Почти новый.");
  await expect.poll(draft).toContain("Почти новый.");
  await page.getByRole("button", { name: "Опубликовать" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect.poll(draft).toBeNull();
  await page.goto("/posts/new");
  await expect(page.getByLabel("Текст")).toHaveValue("");
  await expect(page.getByText("Восстановлен черновик")).toHaveCount(0);
});

test("what was typed before the page's script started is kept as a draft too @js-only", async ({ page }) => {
  await registerMember(page);
  const releaseScripts = await holdScripts(page);
  await page.goto("/posts/new", { waitUntil: "commit" });
  await page.getByLabel("Заголовок").fill("Набрано до скриптов");
  await page.getByLabel("Текст").fill("Продаю клавиатуру");
  await releaseScripts();
  await hydrated(page);
  await expect(page.getByLabel("Текст")).toHaveValue("Продаю клавиатуру");
  // Saved without another keystroke, as if the tab were closed or crashed next.
  const draft = () => page.evaluate(() => localStorage.getItem("post-draft:new"));
  await expect.poll(draft).toContain("Продаю клавиатуру");

  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "Восстановлен черновик" })).toBeVisible();
  await expect(page.getByLabel("Заголовок")).toHaveValue("Набрано до скриптов");
  await expect(page.getByLabel("Текст")).toHaveValue("Продаю клавиатуру");
  // «Удалить черновик» puts the form back as the server sent it: empty.
  await page.getByRole("button", { name: "Удалить черновик" }).click();
  await expect(page.getByLabel("Текст")).toHaveValue("");
});

test("an author publishes and deletes their own post after confirming; others may not delete it", async ({ page, browser }) => {
  await registerMember(page);
  await page.goto("/posts/new");
  const title = `Удалю потом ${Date.now()}`;
  await page.getByLabel("Заголовок").fill(title);
  await page.getByLabel("Категория").selectOption({ label: "Оффтоп" });
  await page.getByLabel("Текст").fill("Этот пост будет удалён.");
  await page.getByRole("button", { name: "Опубликовать" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  const postPath = new URL(page.url()).pathname;

  const other = await openContext(browser);
  await registerMember(other.page);
  await other.page.goto(postPath);
  await expect(other.page.getByRole("link", { name: "Удалить" })).toHaveCount(0);
  const refused = await other.page.goto(`${postPath}/delete`);
  expect(refused?.status()).toBe(403);
  await expect(other.page.getByTestId("error-message")).toHaveText("Удалить пост может только его автор");
  await other.close();

  await page.getByRole("link", { name: "Удалить" }).click();
  // Without JavaScript the question is a page of its own; with it, it opens in place.
  if (test.info().project.name === "no-js") await expect(page).toHaveURL(`${postPath}/delete`);
  else await expect(page).toHaveURL(postPath);
  await expect(page.getByText(`Удалить пост «${title}»?`)).toBeVisible();
  await expect(page.getByText("Восстановить его будет нельзя.")).toBeVisible();
  await page.getByRole("button", { name: "Удалить пост" }).click();
  await expect(page).toHaveURL("/profile/posts");
  await expect(page.getByText("Пост удалён", { exact: true })).toBeVisible();
  await expect(page.getByText(title)).toHaveCount(0);

  const gone = await page.goto(postPath);
  expect(gone?.status()).toBe(404);
  await expect(page.getByTestId("error-message")).toHaveText("Пост удалён автором");
});

test("a picture chosen with the button ends up in the published post, with or without JavaScript", async ({ page, javaScriptEnabled }) => {
  await registerMember(page);
  await page.goto("/posts/new");
  await page.getByLabel("Заголовок").fill("Пост с фотографией");
  await page.getByLabel("Категория").selectOption({ label: "Оффтоп" });
  await page.getByLabel("Текст").fill("Фото ниже.");
  const file = { name: "photo.png", mimeType: "image/png", buffer: await picture() };
  // Pasting or dropping a picture on the text needs JavaScript: the field's hint offers it only then.
  await expect(page.getByLabel("Текст")).toHaveAttribute("placeholder", javaScriptEnabled ? /перетащить сюда/ : "Расскажите подробнее…");
  if (javaScriptEnabled) {
    // The toolbar uploads at once; the form's own file field is only for pages without JavaScript.
    await expect(page.getByLabel("Изображение", { exact: true })).toHaveCount(0);
    await page.getByTestId("image-upload-input").setInputFiles(file);
    await expect(page.getByLabel("Текст")).toHaveValue(/^Фото ниже\.\n!\[\]\(\/uploads\/posts\/\d+\/[0-9a-f]{24}\.webp\)$/);
    await expect(page.locator('[data-slot="toast"]').filter({ hasText: "Успех!" })).toContainText("Изображение загружено");
  } else {
    await expect(page.getByRole("toolbar")).toHaveCount(0);
    await page.getByLabel("Изображение", { exact: true }).setInputFiles(file);
  }
  await page.getByRole("button", { name: "Опубликовать" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByTestId("post-body")).toContainText("Фото ниже.");
  const image = page.getByTestId("post-body").locator("img");
  await expect(image).toHaveAttribute("src", /\/api\/image\?url=%2Fuploads%2Fposts%2F/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
});
