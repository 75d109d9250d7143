/**
 * Pictures in chat messages over HTTP (issue 14; docs/product/conversations.md#messages): the
 * conversations page's message form posted as a browser without JavaScript posts it (multipart,
 * field `image`). The picture shows for the other member through the image endpoint; a file that
 * is no picture is refused beside the composer with the text kept; the request-body cap lets a
 * picture through on this page (server/index.js) but not past 10 MB.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { MessageDto } from "~/domain/conversations/types";
import { decodeHtml } from "./client";
import { member, personalWith, type Member } from "./members";

let alice: Member;
let bob: Member;
let chatId: number;

beforeAll(async () => {
  [alice, bob] = await Promise.all([member(), member()]);
  chatId = await personalWith(alice, bob.id);
}, 60_000);

/** Posts the message form of the personal conversation as a browser does: multipart, the picture in `image`. */
function sendForm(who: Member, fields: Record<string, string>, image?: { bytes: Uint8Array; name: string; type: string }) {
  const form = new FormData();
  form.set("csrf", who.csrf);
  form.set("intent", "send");
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("image", image ? new Blob([image.bytes as Uint8Array<ArrayBuffer>], { type: image.type }) : new Blob([]), image?.name ?? "");
  return who.client.fetch(`/profile/conversations?personal=${chatId}`, { method: "POST", body: form });
}

async function latestMessages(who: Member): Promise<MessageDto[]> {
  const response = await who.client.fetch(`/api/profile/conversation/personal/${chatId}/messages`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { messages: MessageDto[] } }).data.messages;
}

describe("a picture in a message, without JavaScript", () => {
  it("is sent with the form, reaches the other member and loads through the image endpoint", async () => {
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#ff8800" } })
      .png()
      .toBuffer();
    const sent = await sendForm(alice, { body: "" }, { bytes: png, name: "screenshot.png", type: "image/png" });
    expect(sent.status, await sent.clone().text()).toBe(302);
    expect(sent.headers.get("Location")).toMatch(new RegExp(`^/profile/conversations\\?personal=${chatId}#message-\\d+$`));

    const [message] = (await latestMessages(bob)).slice(-1);
    expect(message).toMatchObject({ author: { id: alice.id }, body: "", image: { width: 640, height: 480 } });
    expect(message!.image!.url).toMatch(new RegExp(`^/uploads/chat/${alice.id}/[0-9a-f]+\\.webp$`));

    const html = decodeHtml(await (await bob.client.fetch(`/profile/conversations?personal=${chatId}`)).text());
    const img = new RegExp(`<img [^>]*src="/api/image\\?url=${encodeURIComponent(message!.image!.url).replace(/[.]/g, "\\.")}&w=320"[^>]*>`).exec(html)?.[0];
    expect(img, "the picture in Bob's page").toBeDefined();
    expect(img).toContain(`alt="Изображение от ${alice.username}"`);
    expect(img).toContain('width="640"');
    expect(img).toContain('height="480"');
    expect(html).toContain(`href="${message!.image!.url}" target="_blank"`);

    const served = await bob.client.fetch(`/api/image?url=${encodeURIComponent(message!.image!.url)}&w=320`);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toMatch(/^image\//);
    const original = await bob.client.fetch(message!.image!.url);
    expect(original.status).toBe(200);
  });

  it("a file that is no picture is refused beside the composer; the typed text stays; 2 MB passes the body cap, 10 MB more does not", async () => {
    const notPicture = new Uint8Array(2 * 1024 * 1024).fill(65);
    const refused = await sendForm(alice, { body: "Текст, который нельзя потерять" }, { bytes: notPicture, name: "notes.png", type: "image/png" });
    expect(refused.status).toBe(400);
    const html = decodeHtml(await refused.text());
    expect(html).toContain("Можно загрузить изображение JPEG, PNG, WebP, GIF или AVIF");
    expect(html).toMatch(/<textarea[^>]*>Текст, который нельзя потерять<\/textarea>/);
    expect((await latestMessages(bob)).some((m) => m.body === "Текст, который нельзя потерять")).toBe(false);

    const huge = await sendForm(alice, { body: "" }, { bytes: new Uint8Array(10 * 1024 * 1024 + 200 * 1024), name: "huge.png", type: "image/png" });
    expect(huge.status).toBe(413);
    // A form that is not multipart keeps the ordinary 1 MiB cap.
    const plain = await alice.client.postForm(`/profile/conversations?personal=${chatId}`, { csrf: alice.csrf, intent: "send", body: "я".repeat(700_000) });
    expect(plain.status).toBe(413);
  });

  it("a message with neither text nor a picture is refused in Russian", async () => {
    const refused = await sendForm(alice, { body: "   " });
    expect(refused.status).toBe(400);
    expect(decodeHtml(await refused.text())).toContain("Напишите сообщение или прикрепите изображение");
  });
});
