/**
 * Pictures in chat messages (issue 14; docs/product/conversations.md#messages): a message holds
 * text, a picture or both; the picture is processed like post pictures, stored under
 * chat/{memberId}/, counted against the image-upload limit, refused to muted members, carried by
 * the realtime frame and gone when its message is deleted.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { messages, rateLimits } from "~/db/schema";
import { eventBus } from "~/lib/events.server";
import { consumeLimit } from "~/lib/rate-limit.server";
import type { RealtimeFrame } from "~/lib/realtime/frames";
import { realtimeHub, type RealtimeConnection } from "~/lib/realtime/hub.server";
import { LocalStorage } from "~/lib/storage/local.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { groupWith } from "../../../tests/setup/domain";
import { makeUser } from "../../../tests/setup/factories";
import { makeMember } from "../../../tests/setup/moderation";
import { waitFor } from "../../../tests/setup/wait";
import { muteMember } from "../moderation/sanctions.server";
import { getOrCreatePersonalConversation, getPublicConversationId, listConversations } from "./conversations.server";
import { IMAGE_EXCERPT } from "./excerpt";
import { deleteMessage, listMessages, sendMessage } from "./messages.server";
import { registerConversationRealtime } from "./realtime.server";
import type { ConversationFrameData } from "./types";

let t: TestDatabase;
let dataDir: string;
let storage: LocalStorage;

beforeAll(async () => {
  t = await createTestDatabase();
  registerConversationRealtime(t.db);
  realtimeHub(t.db);
  await t.pubsub.ready();
  dataDir = await mkdtemp(path.join(tmpdir(), "chat-images-test-"));
  storage = new LocalStorage(dataDir);
});
afterAll(async () => {
  await t.destroy();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.db.delete(rateLimits);
});

/** A real PNG of `width`×`height`. */
async function png(width = 800, height = 400): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: "#3366ff" } })
      .png()
      .toBuffer(),
  );
}

/** The stored file behind a picture URL (/uploads/{key}). */
async function storedFile(url: string) {
  expect(url.startsWith("/uploads/")).toBe(true);
  return storage.get(url.slice("/uploads/".length));
}

async function personalChat() {
  const [me, friend] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
  const chat = await getOrCreatePersonalConversation(t.db, me.id, friend.id);
  return { me, friend, chat };
}

async function refusal(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    const e = error as { status?: number; code?: string; message: string; fieldErrors?: Record<string, string[]> };
    return { status: e.status, code: e.code, message: e.message, fieldErrors: e.fieldErrors };
  }
  throw new Error("expected a refusal");
}

describe(`pictures in messages on ${engine}`, () => {
  it("a picture alone is a message: stored as WebP under chat/{member}/, its size in the message, shown to the other member", async () => {
    const { me, friend, chat } = await personalChat();
    const sent = await sendMessage(t.db, me.id, "personal", chat.id, { body: "   ", image: { bytes: await png(800, 400), storage } });
    expect(sent.body).toBe("");
    expect(sent.image).toEqual({ url: expect.stringMatching(new RegExp(`^/uploads/chat/${me.id}/[0-9a-f]{24}\\.webp$`)), width: 800, height: 400 });
    const file = await storedFile(sent.image!.url);
    expect(file?.contentType).toBe("image/webp");
    expect(await sharp(file!.bytes).metadata()).toMatchObject({ format: "webp", width: 800, height: 400 });

    const history = await listMessages(t.db, friend.id, "personal", chat.id);
    expect(history.messages).toEqual([expect.objectContaining({ id: sent.id, body: "", image: sent.image })]);
    // The conversation list shows it as the latest message; a reply quotes it as «Изображение».
    const list = await listConversations(t.db, friend.id, "personal", { page: 1, perPage: 10 });
    expect(list.items[0]?.lastMessage).toMatchObject({ id: sent.id, image: sent.image });
    const reply = await sendMessage(t.db, friend.id, "personal", chat.id, { body: "Красиво!", replyToId: sent.id });
    expect(reply.replyTo).toEqual({ id: sent.id, author: me.username, excerpt: IMAGE_EXCERPT, deleted: false });
  });

  it("text and a picture together; a large picture is shrunk to 3072 px a side", async () => {
    const { me, chat } = await personalChat();
    const sent = await sendMessage(t.db, me.id, "personal", chat.id, { body: "  Вот скриншот сделки  ", image: { bytes: await png(4000, 1000), storage } });
    expect(sent).toMatchObject({ body: "Вот скриншот сделки", image: { width: 3072, height: 768 } });
    expect(await sharp((await storedFile(sent.image!.url))!.bytes).metadata()).toMatchObject({ width: 3072, height: 768 });
  });

  it("a message with neither text nor a picture is refused, and so is a file that is not a picture (with its code)", async () => {
    const { me, chat } = await personalChat();
    expect(await refusal(() => sendMessage(t.db, me.id, "personal", chat.id, { body: "  " }))).toMatchObject({ status: 400, code: "invalid_input" });
    expect(
      await refusal(() =>
        sendMessage(t.db, me.id, "personal", chat.id, { body: "Смотри", image: { bytes: new TextEncoder().encode("%PDF-1.4 not a picture"), storage } }),
      ),
    ).toEqual({
      status: 400,
      code: "image_unsupported_type",
      message: "Можно загрузить изображение JPEG, PNG, WebP, GIF или AVIF не больше 50 мегапикселей и 8192 точек по каждой стороне",
      fieldErrors: { image: ["Можно загрузить изображение JPEG, PNG, WebP, GIF или AVIF не больше 50 мегапикселей и 8192 точек по каждой стороне"] },
    });
    const tooLarge = new Uint8Array(10 * 1024 * 1024 + 1);
    expect(await refusal(() => sendMessage(t.db, me.id, "personal", chat.id, { body: "", image: { bytes: tooLarge, storage } }))).toMatchObject({
      status: 400,
      code: "image_too_large",
      message: "Файл слишком большой: не больше 10 МБ",
    });
    // Nothing was written, and the refused files counted against no limit.
    expect(await t.db.select().from(messages).where(eq(messages.conversationId, chat.id))).toEqual([]);
    const counted = (await t.db.select().from(rateLimits)).map((row) => row.key);
    expect(counted.filter((key) => key.includes("messages") || key.includes("imageUploads"))).toEqual([]);
  });

  it("a muted member cannot send a picture", async () => {
    const moderator = await makeMember(t.db, "moderator");
    const { me, chat } = await personalChat();
    await muteMember(t.db, moderator.id, me.id, { reason: "Флуд", endsAt: null });
    expect(await refusal(async () => sendMessage(t.db, me.id, "personal", chat.id, { body: "", image: { bytes: await png(), storage } }))).toMatchObject({
      status: 403,
      code: "member_muted",
    });
    expect(await t.db.select().from(messages).where(eq(messages.conversationId, chat.id))).toEqual([]);
  });

  it("pictures count against the image-upload limit (60 an hour)", async () => {
    const { me, chat } = await personalChat();
    // Post pictures and chat pictures share the limit: 60 post pictures use it up.
    for (let i = 0; i < 60; i++) await consumeLimit(t.db, "imageUploads", String(me.id));
    expect(await refusal(async () => sendMessage(t.db, me.id, "personal", chat.id, { body: "", image: { bytes: await png(), storage } }))).toMatchObject({
      status: 429,
      code: "rate_limited",
      message: "Слишком много изображений подряд. Попробуйте позже.",
    });
  });

  it("the author's delete takes the picture away: gone from the message and from storage", async () => {
    const { me, friend, chat } = await personalChat();
    const sent = await sendMessage(t.db, me.id, "personal", chat.id, { body: "Удалю", image: { bytes: await png(), storage } });
    expect(await storedFile(sent.image!.url)).not.toBeNull();
    await deleteMessage(t.db, me.id, sent.id, storage);
    const [seen] = (await listMessages(t.db, friend.id, "personal", chat.id)).messages;
    expect(seen).toMatchObject({ id: sent.id, deleted: true, body: "", image: null });
    const [row] = await t.db.select().from(messages).where(eq(messages.id, sent.id));
    expect(row).toMatchObject({ imageUrl: null, imageWidth: null, imageHeight: null });
    expect(await storedFile(sent.image!.url)).toBeNull();
  });

  it("the other member's realtime frame carries the picture; the public chat takes pictures too", async () => {
    const [owner, member] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [member], "Скриншоты");
    const frames: RealtimeFrame<ConversationFrameData>[] = [];
    const connection: RealtimeConnection = {
      userId: member.id,
      send: (frame) => void frames.push(frame as RealtimeFrame<ConversationFrameData>),
      revoke: () => {},
      lose: () => {},
    };
    const off = realtimeHub(t.db).subscribe(connection, { kind: "group", conversationId: group.id });
    try {
      const sent = await sendMessage(t.db, owner.id, "group", group.id, { body: "", image: { bytes: await png(300, 600), storage } });
      await eventBus(t.db).drain();
      await waitFor(() => frames.length === 1, "the message.created frame", 5_000);
      expect(frames[0]?.data).toEqual({ type: "message.created", message: sent });
      expect(sent.image).toMatchObject({ width: 300, height: 600 });
    } finally {
      off();
    }
    const publicId = await getPublicConversationId(t.db);
    const inPublic = await sendMessage(t.db, member.id, "group", publicId, { body: "Всем", image: { bytes: await png(), storage } });
    expect(inPublic.image?.url).toMatch(new RegExp(`^/uploads/chat/${member.id}/`));
  });
});
