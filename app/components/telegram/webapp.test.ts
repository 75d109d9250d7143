import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeMockInitData, hexToRgb, INIT_DATA_POLL, isTelegramLaunch, looksPercentEncoded, TELEGRAM_MARK_SCRIPT, waitForInitData } from "./webapp";

const plain = "query_id=AAE&user=%7B%22id%22%3A1%7D&auth_date=1700000000&hash=ab";

describe("mock initData decoding (docs/product/accounts.md#telegram-mini-app)", () => {
  it("leaves initData that is already a query string alone (its user JSON stays encoded)", () => {
    expect(decodeMockInitData(plain)).toBe(plain);
  });

  it("decodes once- and twice-encoded initData back to the query string", () => {
    const once = encodeURIComponent(plain);
    const twice = encodeURIComponent(once);
    expect(looksPercentEncoded(once)).toBe(true);
    expect(decodeMockInitData(once)).toBe(plain);
    expect(decodeMockInitData(twice)).toBe(plain);
  });

  it("stops after 2 rounds", () => {
    const thrice = encodeURIComponent(encodeURIComponent(encodeURIComponent(plain)));
    expect(decodeMockInitData(thrice)).toBe(encodeURIComponent(plain));
  });

  it("keeps a value that cannot be decoded", () => {
    expect(decodeMockInitData("%E0%A4%A")).toBe("%E0%A4%A");
  });
});

describe("waitForInitData (docs/product/accounts.md#telegram-mini-app: 100 ms, 50 attempts)", () => {
  it("polls until initData appears", async () => {
    let reads = 0;
    const value = await waitForInitData(() => (++reads >= 3 ? "query_id=1" : ""), { intervalMs: 1, attempts: 50 });
    expect(value).toBe("query_id=1");
    expect(reads).toBe(3);
  });

  it("gives up after the configured attempts", async () => {
    let reads = 0;
    expect(await waitForInitData(() => (reads++, undefined), { intervalMs: 1, attempts: 5 })).toBeNull();
    expect(reads).toBe(5);
    expect(INIT_DATA_POLL).toEqual({ intervalMs: 100, attempts: 50 });
  });
});

describe("hexToRgb", () => {
  it("reads Telegram's theme colours", () => {
    expect(hexToRgb("#2481cc")).toEqual([36, 129, 204]);
    expect(hexToRgb("#fff")).toEqual([255, 255, 255]);
    expect(hexToRgb("red")).toBeNull();
    expect(hexToRgb(undefined)).toBeNull();
  });
});

describe("the head's Mini App mark agrees with isTelegramLaunch (docs/product/interface.md#phones)", () => {
  afterEach(() => vi.unstubAllGlobals());
  it.each([
    ["a plain visit", "", {}, null],
    ["Telegram's launch fragment", "#tgWebAppData=abc&tgWebAppPlatform=ios", {}, null],
    ["a platform-only fragment", "#x=1&tgWebAppPlatform=android", {}, null],
    ["the mobile webview bridge", "", { TelegramWebviewProxy: {} }, null],
    ["a WebApp object", "", { Telegram: { WebApp: {} } }, null],
    ["a reload with the saved launch", "", {}, "{}"],
  ] as const)("%s", (name, hash, extra, saved) => {
    const attributes = new Map<string, string>();
    const window = { location: { hash }, sessionStorage: { getItem: () => saved }, ...extra };
    vi.stubGlobal("window", window);
    vi.stubGlobal("location", window.location);
    vi.stubGlobal("sessionStorage", window.sessionStorage);
    vi.stubGlobal("document", { documentElement: { setAttribute: (name: string, value: string) => attributes.set(name, value) } });
    new Function(TELEGRAM_MARK_SCRIPT)();
    expect(isTelegramLaunch()).toBe(name !== "a plain visit");
    expect(attributes.has("data-telegram")).toBe(isTelegramLaunch());
  });
});
