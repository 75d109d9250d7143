/**
 * /music over HTTP (issue 11): the demo playlist, audio with range requests, counted plays, and
 * the admin upload page's guards and refusals (not audio, over 30 MB: a Russian message, nothing saved).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Client, csrfFromHtml } from "./client";

const demoTrack = readFileSync(path.resolve("app/db/seed/music/garant-spit-spokojno.mp3"));
let admin: Client;
let adminCsrf: string;

/** The track ids the playlist page shows, from their audio URLs. */
async function trackIds(client = new Client()): Promise<number[]> {
  const html = await (await client.fetch("/music")).text();
  return [...new Set([...html.matchAll(/\/api\/music\/(\d+)\/audio/g)].map((m) => Number(m[1])))];
}

function upload(file: Blob, name: string, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.set("csrf", adminCsrf);
  form.set("intent", "upload");
  form.set("audio", file, name);
  for (const [key, value] of Object.entries(extra)) form.set(key, value);
  return admin.fetch("/admin/music", { method: "POST", body: form });
}

beforeAll(async () => {
  admin = new Client();
  expect((await admin.signIn("admin@shodka.local", "admin12345")).status).toBeLessThan(400);
  adminCsrf = csrfFromHtml(await (await admin.fetch("/admin/music")).text());
});

describe("the playlist and its audio", () => {
  it("/music lists the demo tracks with their tags, for visitors too", async () => {
    const html = await (await new Client().fetch("/music")).text();
    expect(html).toContain("Гарант спит спокойно");
    expect(html).toContain("Восьмибитный Кот");
    expect(html).not.toContain("Раздел скоро появится");
    expect((await trackIds()).length).toBeGreaterThanOrEqual(3);
  });

  it("serves audio whole, in ranges (206), and refuses ranges past the end (416)", async () => {
    const [id] = await trackIds();
    const client = new Client();
    const whole = await client.fetch(`/api/music/${id}/audio`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(whole.headers.get("Content-Type")).toBe("audio/mpeg");
    const size = (await whole.arrayBuffer()).byteLength;
    expect(Number(whole.headers.get("Content-Length"))).toBe(size);

    const part = await client.fetch(`/api/music/${id}/audio`, { headers: { Range: "bytes=100-1123" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 100-1123/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(1024);

    const tail = await client.fetch(`/api/music/${id}/audio`, { headers: { Range: "bytes=-10" } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("Content-Range")).toBe(`bytes ${size - 10}-${size - 1}/${size}`);

    const beyond = await client.fetch(`/api/music/${id}/audio`, { headers: { Range: `bytes=${size}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("Content-Range")).toBe(`bytes */${size}`);

    const head = await client.fetch(`/api/music/${id}/audio`, { method: "HEAD", headers: { Range: "bytes=0-99" } });
    expect(head.status).toBe(206);
    expect(head.headers.get("Content-Length")).toBe("100");

    const stale = await client.fetch(`/api/music/${id}/audio`, { headers: { Range: "bytes=0-99", "If-Range": '"another"' } });
    expect(stale.status).toBe(200);
  });

  it("an unknown track answers 404 with a stable code", async () => {
    const response = await new Client().fetch("/api/music/999999/audio");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, errors: { code: "track_not_found" } });
    expect((await new Client().fetch("/api/music/abc/audio")).status).toBe(404);
  });

  it("counts a play once per listener per half hour, and needs the CSRF token", async () => {
    const [id] = await trackIds();
    const listener = new Client();
    const csrf = await listener.csrfToken();
    expect((await listener.fetch(`/api/music/${id}/plays`, { method: "POST" })).status).toBe(403);
    const first = await listener.fetch(`/api/music/${id}/plays`, { method: "POST", headers: { "X-CSRF-Token": csrf } });
    expect(first.status).toBe(200);
    const { data } = (await first.json()) as { data: { counted: boolean; playCount: number } };
    expect(data.counted).toBe(true);
    const again = (await (await listener.fetch(`/api/music/${id}/plays`, { method: "POST", headers: { "X-CSRF-Token": csrf } })).json()) as {
      data: { counted: boolean; playCount: number };
    };
    expect(again.data).toEqual({ counted: false, playCount: data.playCount });
  });
});

describe("/admin/music", () => {
  it("sends a visitor to sign in and refuses a member who is not an admin", async () => {
    const visitor = await new Client().fetch("/admin/music");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent("/admin/music")}`);
    const member = new Client();
    await member.register();
    expect((await member.fetch("/admin/music")).status).toBe(403);
    expect((await member.fetch("/admin/music/1")).status).toBe(403);
  });

  it("an admin uploads an MP3: the tags fill the title and artist, the form may replace them", async () => {
    const before = await trackIds();
    const response = await upload(new Blob([demoTrack], { type: "audio/mpeg" }), "track.mp3", { title: "Загружено тестом" });
    expect(response.status).toBe(302);
    const after = await trackIds();
    expect(after.length).toBe(before.length + 1);
    const html = await (await new Client().fetch("/music")).text();
    expect(html).toContain("Загружено тестом");
  });

  it("a file that is not audio gets a Russian message beside the field and nothing is saved", async () => {
    const before = await trackIds();
    const response = await upload(new Blob(["<html>это не музыка</html>".repeat(100)], { type: "audio/mpeg" }), "fake.mp3");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Это не аудиофайл: загрузите MP3, OGG, M4A или FLAC");
    expect(await trackIds()).toEqual(before);
  });

  it("a file over 30 MB gets a Russian message and nothing is saved", async () => {
    const before = await trackIds();
    const response = await upload(new Blob([new Uint8Array(30 * 1024 * 1024 + 1)], { type: "audio/mpeg" }), "big.mp3");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Файл слишком большой: не больше 30 МБ");
    expect(await trackIds()).toEqual(before);
  });

  it("edits a track's title and artist", async () => {
    const [id] = await trackIds();
    const form = new FormData();
    form.set("csrf", adminCsrf);
    form.set("intent", "edit");
    form.set("title", "Новое название трека");
    form.set("artist", "Новый исполнитель");
    const response = await admin.fetch(`/admin/music/${id}`, { method: "POST", body: form });
    expect(response.status).toBe(302);
    const html = await (await new Client().fetch("/music")).text();
    expect(html).toContain("Новое название трека");
    expect(html).toContain("Новый исполнитель");
  });
});
