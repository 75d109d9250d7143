/**
 * /profile/settings journeys of issue 6 item 4 (js and no-js): upload an avatar and see it
 * resized to 256×256 in the header, pick theme colours and see them applied after a reload,
 * change the password and see another browser signed out while this one stays, name and bio,
 * and (with JavaScript, inside a mocked Telegram Mini App) link Telegram.
 */
import { sign } from "@telegram-apps/init-data-node";
import sharp from "sharp";
import { authenticate, expect, openContext, registerMember, signIn, test } from "./fixtures";

/** TELEGRAM_BOT_TOKEN of the e2e webServer in playwright.config.ts (a test-only value). */
const BOT_TOKEN = "7000002:e2e-test-token";

test("upload an avatar: it is square-cropped to 256×256 and shows in the header; then remove it", async ({ page }) => {
  const member = await registerMember(page);
  await page.goto("/profile/settings");
  const wide = await sharp({ create: { width: 900, height: 500, channels: 3, background: { r: 20, g: 160, b: 90 } } })
    .png()
    .toBuffer();
  await page.getByLabel("Новый аватар").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: wide });
  await page.getByRole("button", { name: "Загрузить" }).click();
  await expect(page.getByText("Аватар обновлён", { exact: true })).toBeVisible();

  const headerImage = page.getByTestId("header-profile").locator("img");
  await expect(headerImage).toHaveAttribute("src", new RegExp(`^/uploads/avatars/${member.id}/[0-9a-f]+\\.webp$`));
  // The served picture itself is 256×256 (the browser's natural size of the loaded image).
  const src = (await headerImage.getAttribute("src"))!;
  const served = await page.request.get(src);
  expect(served.headers()["content-type"]).toBe("image/webp");
  expect(await sharp(await served.body()).metadata()).toMatchObject({ width: 256, height: 256 });
  if (test.info().project.use.javaScriptEnabled) {
    await expect.poll(() => headerImage.evaluate((img: HTMLImageElement) => (img.complete ? `${img.naturalWidth}×${img.naturalHeight}` : ""))).toBe("256×256");
  }

  await page.getByRole("button", { name: "Удалить аватар" }).click();
  await expect(page.getByText("Аватар удалён", { exact: true })).toBeVisible();
  // The default picture again: no uploaded <img>, the avatar named by the username.
  await expect(headerImage).toHaveCount(0);
  await expect(page.getByTestId("header-profile").getByRole("img", { name: member.username })).toBeVisible();
  expect((await page.request.get(src)).status()).toBe(404);
});

test("a file that is not an image is refused with a Russian message beside the field", async ({ page }) => {
  await registerMember(page);
  await page.goto("/profile/settings");
  await page.getByLabel("Новый аватар").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some text, not a picture") });
  await page.getByRole("button", { name: "Загрузить" }).click();
  await expect(page.getByTestId("avatar-form")).toContainText("Аватар должен быть изображением JPEG, PNG, WebP, GIF или AVIF");
});

test("a file over 10 MB is refused with a clear message, never an error page", async ({ page, javaScriptEnabled }) => {
  await registerMember(page);
  await page.goto("/profile/settings");
  await page.getByLabel("Новый аватар").setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(11 * 1024 * 1024, 1) });
  await page.getByRole("button", { name: "Загрузить" }).click();
  // With JavaScript the form refuses before sending; without it the server answers 413 with the reason.
  if (javaScriptEnabled) await expect(page.getByTestId("avatar-form")).toContainText("Файл слишком большой: не больше 10 МБ");
  else await expect(page.getByText("Файл слишком большой: не больше 10 МБ.")).toBeVisible();
});

test("pick theme colours: they are applied on every page after a reload, and «Сбросить» removes them", async ({ page, javaScriptEnabled }) => {
  await registerMember(page);
  await page.goto("/profile/settings");
  await page.getByLabel("Основной цвет").fill("#ff0000");
  await page.getByLabel("Дополнительный цвет").fill("#00ff00");
  await page.getByLabel("Фон").fill("#0000ff");
  await page.getByRole("button", { name: "Сохранить тему" }).click();
  await expect(page.getByText("Тема сохранена", { exact: true })).toBeVisible();

  await page.goto("/leaderboard");
  await page.reload();
  const variable = (name: string) => page.evaluate((n) => document.documentElement.style.getPropertyValue(n), name);
  expect(await variable("--primary")).toBe("0 100% 50%");
  expect(await variable("--secondary")).toBe("120 100% 50%");
  expect(await variable("--background")).toBe("240 100% 50%");
  // A primary button takes the colour.
  await page.goto("/profile/settings");
  expect(await page.getByRole("button", { name: "Сохранить тему" }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(255, 0, 0)");
  await expect(page.getByLabel("Основной цвет")).toHaveValue("#ff0000");
  if (javaScriptEnabled) {
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem("userTheme")))!)).toEqual({
      primary: [255, 0, 0],
      secondary: [0, 255, 0],
      background: [0, 0, 255],
    });
  }

  await page.getByRole("button", { name: "Сбросить" }).click();
  await expect(page.getByText("Тема сброшена", { exact: true })).toBeVisible();
  await page.reload();
  expect(await variable("--primary")).toBe("");
  if (javaScriptEnabled) expect(await page.evaluate(() => localStorage.getItem("userTheme"))).toBeNull();
});

test("change the password: another browser is signed out, this one stays, the new password signs in", async ({ page, browser }) => {
  const member = await registerMember(page);
  const phone = await openContext(browser);
  await authenticate(phone.page, member);

  await page.goto("/profile/settings");
  const newPassword = "совсем-новый-пароль";
  await page.getByLabel("Текущий пароль").fill("не-тот-пароль");
  await page.getByLabel("Новый пароль", { exact: true }).fill(newPassword);
  await page.getByLabel("Новый пароль ещё раз").fill(newPassword);
  await page.getByRole("button", { name: "Сменить пароль" }).click();
  await expect(page.getByText("Неверный текущий пароль")).toBeVisible();
  // The typed passwords are not sent back into the page.
  await expect(page.getByLabel("Текущий пароль")).toHaveValue("");

  await page.getByLabel("Текущий пароль").fill(member.password);
  await page.getByLabel("Новый пароль", { exact: true }).fill(newPassword);
  await page.getByLabel("Новый пароль ещё раз").fill(newPassword);
  await page.getByRole("button", { name: "Сменить пароль" }).click();
  await expect(page.getByText("Пароль изменён", { exact: true })).toBeVisible();
  await expect(page.getByText("Вы вышли на других устройствах", { exact: true })).toBeVisible();

  await page.goto("/profile");
  await expect(page.getByTestId("header-profile")).toContainText(member.username);
  await phone.page.goto("/profile");
  await expect(phone.page).toHaveURL(/\/auth\/login\?redirect=%2Fprofile$/);
  await signIn(phone.page, { ...member, password: newPassword });
  await phone.close();
});

test("name and bio are saved and shown on the profile; an overlong name is refused", async ({ page }) => {
  const member = await registerMember(page);
  await page.goto("/profile/settings");
  await page.getByLabel("Отображаемое имя").fill("x".repeat(65));
  await page.getByRole("button", { name: "Сохранить", exact: true }).click();
  await expect(page.getByText("Имя — не длиннее 64 символов")).toBeVisible();
  await page.getByLabel("Отображаемое имя").fill("Анна Петрова");
  await page.getByLabel("О себе").fill("Продаю игровые аккаунты с 2015 года.");
  await page.getByRole("button", { name: "Сохранить", exact: true }).click();
  await expect(page.getByText("Профиль сохранён", { exact: true })).toBeVisible();
  await page.goto(`/profile/${member.id}`);
  await expect(page.getByText("Анна Петрова")).toBeVisible();
  await expect(page.getByText("Продаю игровые аккаунты с 2015 года.")).toBeVisible();
});

test("inside Telegram «Привязать Telegram» links the account; outside, the page says how", async ({ page, javaScriptEnabled }) => {
  await registerMember(page);
  await page.goto("/profile/settings");
  await expect(page.getByTestId("telegram-how-to-link")).toContainText("откройте сайт из нашего Telegram-бота");
  // Linking reads Telegram's initData in the browser: without JavaScript the page only explains.
  if (!javaScriptEnabled) return;

  const telegramId = 8_000_000 + Math.floor(Math.random() * 1_000_000);
  const initData = sign({ user: { id: telegramId, first_name: "Анна", username: `anna_${telegramId}` } }, BOT_TOKEN, new Date());
  await page.route("https://telegram.org/js/telegram-web-app.js", (route) => route.fulfill({ status: 200, contentType: "application/javascript", body: "" }));
  await page.addInitScript((data) => {
    // Already signed in with a password: the Mini App's automatic sign-in must not switch accounts.
    sessionStorage.setItem("telegram_auth_sent", "1");
    const noop = () => {};
    (window as unknown as { Telegram: unknown }).Telegram = {
      WebApp: {
        initData: data,
        platform: "tdesktop",
        version: "8.0",
        themeParams: {},
        ready: noop,
        expand: noop,
        BackButton: { show: noop, hide: noop, onClick: noop, offClick: noop },
      },
    };
  }, initData);
  await page.reload();
  await page.getByRole("button", { name: "Привязать Telegram" }).click();
  await expect(page.getByText("Telegram привязан", { exact: true })).toBeVisible();
  await expect(page.getByTestId("telegram-linked")).toContainText(`@anna_${telegramId}`);
  await page.getByRole("button", { name: "Отвязать" }).click();
  await expect(page.getByText("Telegram отвязан", { exact: true })).toBeVisible();
  await expect(page.getByTestId("telegram-linked")).toHaveCount(0);
});
