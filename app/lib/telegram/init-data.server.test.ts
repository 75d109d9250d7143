import { sign } from "@telegram-apps/init-data-node";
import { describe, expect, it } from "vitest";
import { checkInitData, initDataFromAuthorization } from "./init-data.server";

const BOT_TOKEN = "123456:TEST-bot-token";
const DAY_S = 24 * 60 * 60;
const user = { id: 777001, first_name: "Иван", last_name: "Петров", username: "ivan_tg" };

/** initData signed by the library itself, as Telegram would sign it for BOT_TOKEN. */
function signed(authDate = new Date(), data: Parameters<typeof sign>[0] = { user, query_id: "AAE1" }, token = BOT_TOKEN): string {
  return sign(data, token, authDate);
}

describe("checkInitData (issue 6 Telegram sign-in)", () => {
  it("accepts initData signed with the bot token and reads the Telegram user", () => {
    const result = checkInitData(signed(), BOT_TOKEN, DAY_S);
    expect(result).toEqual({
      ok: true,
      identity: { id: 777001, username: "ivan_tg", firstName: "Иван", lastName: "Петров", authDate: expect.any(Date) },
    });
  });

  it("refuses a tampered hash", () => {
    const data = signed();
    const hash = /hash=([0-9a-f]+)/.exec(data)![1]!;
    const forged = data.replace(`hash=${hash}`, `hash=${hash.slice(0, -1)}${hash.endsWith("0") ? "1" : "0"}`);
    expect(checkInitData(forged, BOT_TOKEN, DAY_S)).toEqual({ ok: false, reason: "init_data_invalid" });
  });

  it("refuses a tampered field (another user id under the original hash)", () => {
    const data = signed();
    const forged = data.replace(encodeURIComponent('"id":777001'), encodeURIComponent('"id":1'));
    expect(forged).not.toBe(data);
    expect(checkInitData(forged, BOT_TOKEN, DAY_S)).toEqual({ ok: false, reason: "init_data_invalid" });
  });

  it("refuses data signed with another bot's token", () => {
    expect(checkInitData(signed(new Date(), { user }, "999:OTHER"), BOT_TOKEN, DAY_S)).toEqual({ ok: false, reason: "init_data_invalid" });
  });

  it("refuses stale data: auth_date older than the max age", () => {
    const now = new Date();
    const old = signed(new Date(now.getTime() - (DAY_S + 60) * 1000));
    expect(checkInitData(old, BOT_TOKEN, DAY_S, now)).toEqual({ ok: false, reason: "init_data_stale" });
    // The same data is fresh under a longer configured max age.
    expect(checkInitData(old, BOT_TOKEN, 2 * DAY_S, now).ok).toBe(true);
  });

  it("refuses initData signed in the future beyond the allowed clock skew (60 s by default)", () => {
    const now = new Date();
    const ahead = signed(new Date(now.getTime() + 10 * 60 * 1000));
    expect(checkInitData(ahead, BOT_TOKEN, DAY_S, now)).toEqual({ ok: false, reason: "init_data_future" });
    // A clock a little ahead of ours is tolerated, and the skew is configurable.
    expect(checkInitData(signed(new Date(now.getTime() + 30 * 1000)), BOT_TOKEN, DAY_S, now).ok).toBe(true);
    expect(checkInitData(ahead, BOT_TOKEN, DAY_S, now, 15 * 60).ok).toBe(true);
  });

  it("refuses missing, empty, non-string and hash-less data", () => {
    for (const value of [undefined, null, "", "   ", 42, { initData: "x" }, "x".repeat(9000)]) {
      expect(checkInitData(value, BOT_TOKEN, DAY_S)).toEqual({ ok: false, reason: "init_data_missing" });
    }
    const withoutHash = signed().replace(/&hash=[0-9a-f]+/, "");
    expect(checkInitData(withoutHash, BOT_TOKEN, DAY_S)).toEqual({ ok: false, reason: "init_data_invalid" });
    expect(checkInitData("user=%7B&auth_date=1&hash=00", BOT_TOKEN, DAY_S)).toEqual({ ok: false, reason: "init_data_invalid" });
  });

  it("refuses everything while no bot token is configured", () => {
    expect(checkInitData(signed(), undefined, DAY_S)).toEqual({ ok: false, reason: "telegram_not_configured" });
  });

  it("refuses signed data without a user", () => {
    expect(checkInitData(signed(new Date(), { query_id: "AAE1" }), BOT_TOKEN, DAY_S)).toEqual({ ok: false, reason: "init_data_no_user" });
  });

  it("accepts a replay of fresh data for the same Telegram user (documented in the endpoint)", () => {
    const data = signed();
    const first = checkInitData(data, BOT_TOKEN, DAY_S);
    const again = checkInitData(data, BOT_TOKEN, DAY_S);
    expect(first.ok && again.ok && again.identity.id).toBe(777001);
  });
});

describe("initDataFromAuthorization", () => {
  const withAuthorization = (value?: string) => new Request("http://localhost/", { headers: value ? { Authorization: value } : {} });
  it("reads the tma scheme only", () => {
    expect(initDataFromAuthorization(withAuthorization("tma query_id=1&hash=ab"))).toBe("query_id=1&hash=ab");
    expect(initDataFromAuthorization(withAuthorization("Bearer abc"))).toBeNull();
    expect(initDataFromAuthorization(withAuthorization())).toBeNull();
  });
});

describe("Telegram configuration", () => {
  it("reads TELEGRAM_BOT_TOKEN and TELEGRAM_INIT_DATA_MAX_AGE (24 h by default), refusing a bad max age", async () => {
    const { getConfig } = await import("~/lib/config.server");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const DATA_DIR = mkdtempSync(`${tmpdir()}/tg-config-`);
    expect(getConfig({ DATA_DIR })).toMatchObject({ telegramBotToken: undefined, telegramInitDataMaxAgeS: DAY_S });
    expect(getConfig({ DATA_DIR, TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_INIT_DATA_MAX_AGE: "3600" })).toMatchObject({
      telegramBotToken: BOT_TOKEN,
      telegramInitDataMaxAgeS: 3600,
    });
    expect(() => getConfig({ DATA_DIR, TELEGRAM_INIT_DATA_MAX_AGE: "soon" })).toThrow(/TELEGRAM_INIT_DATA_MAX_AGE/);
    rmSync(DATA_DIR, { recursive: true, force: true });
  });
});
