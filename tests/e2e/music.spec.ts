/**
 * /music in Chromium (issue 11). With JavaScript: a track started on /music keeps playing in the
 * root layout's player while the visitor moves through three pages client-side (the same <audio>
 * element, its time advancing), seeking goes through range requests, the volume starts at 0.5 and
 * is remembered, Media Session knows the track, and the play is counted. Without JavaScript: every
 * track has the browser's own player on an audio URL that answers ranges. The admin uploads a track
 * and is refused a file that is not audio, with JavaScript on and off.
 */
import path from "node:path";
import type { Response } from "@playwright/test";
import { DEMO, expect, authenticate, test } from "./fixtures";

const TRACK = "Гарант спит спокойно";

test("a track keeps playing across client-side navigation; seek, volume, Media Session and the play count", async ({ page, javaScriptEnabled }) => {
  await page.goto("/music");
  const row = page.getByTestId("music-track").filter({ hasText: TRACK });
  if (!javaScriptEnabled) {
    const src = await row.locator("audio[controls]").getAttribute("src");
    expect(src).toMatch(/^\/api\/music\/\d+\/audio$/);
    const part = await page.request.get(src!, { headers: { Range: "bytes=0-1023" } });
    expect(part.status()).toBe(206);
    expect(part.headers()["content-range"]).toMatch(/^bytes 0-1023\/\d+$/);
    return;
  }
  const ranges: number[] = [];
  const plays: Response[] = [];
  page.on("response", (response) => {
    if (/\/api\/music\/\d+\/audio/.test(response.url())) ranges.push(response.status());
    if (/\/api\/music\/\d+\/plays$/.test(response.url()) && response.request().method() === "POST") plays.push(response);
  });
  await page.getByRole("button", { name: `Слушать: ${TRACK}` }).click();
  const player = page.getByTestId("music-player");
  await expect(player.getByTestId("player-title")).toHaveText(TRACK);
  await expect.poll(() => page.evaluate(() => document.querySelector<HTMLAudioElement>("[data-testid=music-audio]")!.currentTime)).toBeGreaterThan(0.3);
  const start = await page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>("[data-testid=music-audio]")!;
    (window as unknown as { playing: HTMLAudioElement }).playing = audio;
    return { time: audio.currentTime, volume: audio.volume };
  });
  expect(start.volume).toBe(0.5);
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe(TRACK);
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.artist)).toBe("Восьмибитный Кот");

  for (const [link, url] of [
    ["Лидеры", /\/leaderboard$/],
    ["Статьи", /\/articles$/],
    ["Главная", /\/$/],
  ] as const) {
    await page.getByRole("navigation", { name: "Разделы" }).getByRole("link", { name: link, exact: true }).click();
    await expect(page).toHaveURL(url);
    await expect(player).toBeVisible();
  }
  const after = await page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>("[data-testid=music-audio]")!;
    return { same: audio === (window as unknown as { playing: HTMLAudioElement }).playing, paused: audio.paused, time: audio.currentTime };
  });
  expect(after.same).toBe(true);
  expect(after.paused).toBe(false);
  expect(after.time).toBeGreaterThan(start.time);

  // Seeking far ahead: the audio is fetched in ranges (206).
  await player.getByTestId("player-seek").fill("20");
  await expect.poll(() => page.evaluate(() => document.querySelector<HTMLAudioElement>("[data-testid=music-audio]")!.currentTime)).toBeGreaterThanOrEqual(20);
  expect(ranges).toContain(206);

  // The volume is remembered in this browser.
  await player.getByTestId("player-volume").fill("0.8");
  expect(await page.evaluate(() => localStorage.getItem("musicVolume"))).toBe("0.8");
  await player.getByRole("button", { name: "Пауза" }).click();
  expect(await page.evaluate(() => document.querySelector<HTMLAudioElement>("[data-testid=music-audio]")!.paused)).toBe(true);
  await player.getByRole("button", { name: "Играть" }).click();

  // Next and previous move through the playlist (previous restarts a track played over 3 s first).
  await player.getByRole("button", { name: "Следующий трек" }).click();
  await expect(player.getByTestId("player-title")).toHaveText("Депозит на 14 дней");
  await expect.poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe("Депозит на 14 дней");
  await player.getByRole("button", { name: "Предыдущий трек" }).click();
  await expect(player.getByTestId("player-title")).toHaveText(TRACK);

  // 10 seconds of listening count a play: during the first listening if the steps above were
  // slow, else once the first track has played 10 seconds again. The first answer counts it.
  await expect.poll(() => plays.length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect((await plays[0]!.json()).data).toMatchObject({ counted: true });
  await page.goto("/music");
  await page.getByRole("button", { name: "Слушать: Депозит на 14 дней" }).click();
  await expect.poll(() => page.evaluate(() => document.querySelector<HTMLAudioElement>("[data-testid=music-audio]")!.volume)).toBe(0.8);
  await page.getByTestId("music-player").getByRole("button", { name: "Закрыть плеер" }).click();
  await expect(page.getByTestId("music-player")).toHaveCount(0);
});

test("on a phone the player sits above the bottom bar, which stays usable while a track plays @js-only", async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 860 });
  await page.goto("/music");
  await page.getByRole("button", { name: `Слушать: ${TRACK}` }).click();
  const player = page.getByTestId("music-player");
  await expect(player.getByTestId("player-title")).toHaveText(TRACK);
  const bar = page.getByTestId("bottom-nav");
  const [playerBox, barBox] = [(await player.boundingBox())!, (await bar.boundingBox())!];
  expect(playerBox.y + playerBox.height).toBeLessThanOrEqual(barBox.y + 1);
  await bar.getByRole("link", { name: "Главная" }).click({ timeout: 5_000 });
  await expect(page).toHaveURL(/\/$/);
  await expect(player).toBeVisible();
});

// It counts the tracks: the same journey in the other project must not add one meanwhile.
test("an admin uploads a track; a file that is not audio is refused in Russian and nothing is saved", { tag: "@shares:music-tracks" }, async ({ page }) => {
  await authenticate(page, DEMO.admin);
  await page.goto("/admin/music");
  const tracks = page.getByTestId("admin-track");
  const before = await tracks.count();
  const form = page.getByTestId("upload-form");
  await form.getByLabel("Аудиофайл").setInputFiles({ name: "notes.mp3", mimeType: "audio/mpeg", buffer: Buffer.from("Это текст, а не музыка. ".repeat(200)) });
  await form.getByRole("button", { name: "Загрузить" }).click();
  await expect(page.getByText("Это не аудиофайл: загрузите MP3, OGG, M4A или FLAC")).toBeVisible();
  await expect(tracks).toHaveCount(before);

  await page.getByTestId("upload-form").getByLabel("Аудиофайл").setInputFiles(path.resolve("app/db/seed/music/rassvet-nad-barakholkoj.mp3"));
  await page.getByTestId("upload-form").getByLabel("Название").fill("Утро на рынке");
  await page.getByTestId("upload-form").getByRole("button", { name: "Загрузить" }).click();
  await expect(tracks).toHaveCount(before + 1);
  await expect(tracks.last()).toContainText("Утро на рынке");
  await expect(tracks.last()).toContainText("Сходка Бэнд");

  await page.goto("/music");
  await expect(page.getByTestId("music-track").last()).toContainText("Утро на рынке");
});
