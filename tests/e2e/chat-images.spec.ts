/**
 * Pictures in chat messages (issue 14; docs/product/conversations.md#messages), with and without
 * JavaScript: Alice attaches a picture with «Прикрепить изображение» and sends it; it shows in
 * her conversation and in Bob's (live, without reloading, with JavaScript). A file that is no
 * picture is refused in Russian beside the composer, the typed text kept; with JavaScript the
 * chosen picture shows as a preview that can be removed, a pasted picture is attached the same
 * way, and a file over 10 MB is refused before it is sent.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, openContext, registerMember, test } from "./fixtures";

/** Opens the personal conversation of `page`'s member with member `peerId` from the peer's profile. */
async function openPersonal(page: Page, peerId: number): Promise<string> {
  await page.goto(`/profile/${peerId}`);
  await page.getByRole("button", { name: "Написать", exact: true }).click();
  await expect(page).toHaveURL(/\/profile\/conversations\?personal=\d+$/);
  return page.url();
}

async function composerOf(page: Page, javaScriptEnabled: boolean): Promise<Locator> {
  const composer = page.getByTestId("composer");
  // With JavaScript, wait until the form is hydrated (it then carries via=fetcher).
  if (javaScriptEnabled) await expect(composer.locator('input[name="via"]')).toBeAttached();
  return composer;
}

/** A picture `page` shows, loaded: the browser decoded it (through the image endpoint). */
async function expectLoaded(picture: Locator) {
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 15_000 }).toBe(true);
}

const UNSUPPORTED = "Можно загрузить изображение JPEG, PNG, WebP, GIF или AVIF не больше 50 мегапикселей и 8192 точек по каждой стороне";

test("a member sends a picture in a personal conversation; the other sees it; a file that is no picture is refused", async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  const alice = await registerMember(page);
  const second = await openContext(browser);
  const pageB = second.page;
  const bob = await registerMember(pageB);
  const png = await sharp({ create: { width: 480, height: 360, channels: 3, background: "#2e86de" } })
    .png()
    .toBuffer();

  const url = await openPersonal(page, bob.id);
  if (javaScriptEnabled) {
    // Bob has the conversation open and listens on its channel before Alice sends.
    await pageB.goto(url);
    await expect(pageB.getByTestId("realtime-status")).toHaveAttribute(
      "data-channels",
      new RegExp(`(^| )conversation:personal:${new URL(url).searchParams.get("personal")}( |$)`),
    );
  }

  let composer = await composerOf(page, javaScriptEnabled);
  const attach = composer.getByLabel("Прикрепить изображение");
  await expect(attach).toHaveAttribute("type", "file");
  await expect(attach).toHaveAttribute("accept", "image/*");
  // The button around the field is a 44 px tap target.
  const button = (await attach.locator("xpath=..").boundingBox())!;
  expect(Math.min(button.width, button.height)).toBeGreaterThanOrEqual(44);

  // A text file dressed as a picture: refused in Russian beside the composer, the text kept.
  await composer.getByLabel("Сообщение").fill("Скриншот сделки");
  await attach.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("это не картинка, а текст") });
  await composer.getByRole("button", { name: "Отправить" }).click();
  composer = page.getByTestId("composer");
  await expect(composer.getByText(UNSUPPORTED)).toBeVisible();
  await expect(composer.getByLabel("Сообщение")).toHaveValue("Скриншот сделки");
  await expect(page.getByTestId("message")).toHaveCount(0);

  if (javaScriptEnabled) {
    // The chosen file shows as a preview that can be removed.
    await expect(composer.getByTestId("composer-preview")).toContainText("notes.png");
    await composer.getByRole("button", { name: "Убрать изображение" }).click();
    await expect(composer.getByTestId("composer-preview")).toHaveCount(0);
    // A file over 10 MB is refused before it leaves.
    await composer
      .getByLabel("Прикрепить изображение")
      .setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(10 * 1024 * 1024 + 1024) });
    await composer.getByRole("button", { name: "Отправить" }).click();
    await expect(composer.getByText("Файл слишком большой: не больше 10 МБ")).toBeVisible();
    await composer.getByRole("button", { name: "Убрать изображение" }).click();
    // A picture pasted into the text field is attached.
    await composer.getByLabel("Сообщение").evaluate(
      (field, bytes) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], "pasted.png", { type: "image/png" }));
        field.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
      },
      [...png],
    );
    await expect(composer.getByTestId("composer-preview")).toContainText("pasted.png");
    await expect(composer.getByTestId("composer-preview").getByRole("img", { name: "Выбранное изображение" })).toBeVisible();
    await composer.getByRole("button", { name: "Убрать изображение" }).click();
  }

  // The real picture goes, with the text.
  await composer.getByLabel("Прикрепить изображение").setInputFiles({ name: "deal.png", mimeType: "image/png", buffer: png });
  await composer.getByRole("button", { name: "Отправить" }).click();
  const sent = page.getByTestId("message").filter({ has: page.getByTestId("message-body").getByText("Скриншот сделки", { exact: true }) });
  await expect(sent).toHaveAttribute("data-message-id", /\d+/);
  const picture = sent.getByRole("img", { name: `Изображение от ${alice.username}` });
  await expectLoaded(picture);
  await expect(picture).toHaveAttribute("src", /^\/api\/image\?url=%2Fuploads%2Fchat%2F/);
  await expect(picture).toHaveAttribute("width", "480");
  await expect(picture).toHaveAttribute("height", "360");
  // At most 320 CSS px wide in the bubble.
  expect((await picture.boundingBox())!.width).toBeLessThanOrEqual(321);
  await expect(sent.getByTestId("message-image")).toHaveAttribute("target", "_blank");
  await expect(page.getByTestId("composer").getByText(UNSUPPORTED)).toHaveCount(0);
  if (javaScriptEnabled) await expect(page.getByTestId("composer-preview")).toHaveCount(0);

  // Bob sees it: live with JavaScript (no reload), on opening the conversation without.
  if (!javaScriptEnabled) await pageB.goto(url);
  const received = pageB.getByTestId("message").filter({ hasText: "Скриншот сделки" });
  await expectLoaded(received.getByRole("img", { name: `Изображение от ${alice.username}` }));

  // The full size opens from the link.
  const full = await pageB.context().request.get((await received.getByTestId("message-image").getAttribute("href"))!);
  expect(full.status()).toBe(200);
  expect(full.headers()["content-type"]).toBe("image/webp");

  // Bob answers with a picture alone: Alice's list reads «Изображение».
  const composerB = await composerOf(pageB, javaScriptEnabled);
  await composerB.getByLabel("Прикрепить изображение").setInputFiles({ name: "reply.png", mimeType: "image/png", buffer: png });
  await composerB.getByRole("button", { name: "Отправить" }).click();
  await expectLoaded(pageB.getByRole("img", { name: `Изображение от ${bob.username}` }));
  await page.goto("/profile/conversations");
  await expect(page.getByTestId("conversation-link").filter({ hasText: bob.username })).toContainText(`${bob.username}: Изображение`);
  if (javaScriptEnabled) {
    // The open conversation with its pictures and the composer: no serious accessibility problem.
    await page.goto(url);
    await expectLoaded(page.getByRole("img", { name: `Изображение от ${bob.username}` }));
    const results = await new AxeBuilder({ page }).include('[data-testid="conversation"]').withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    const serious = results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes[0]?.target.join(" ")} ${v.nodes[0]?.failureSummary ?? ""}`);
    expect(serious).toEqual([]);
  }
  await second.close();
});
