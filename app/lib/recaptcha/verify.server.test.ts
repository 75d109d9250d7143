import { afterEach, describe, expect, it, vi } from "vitest";
import { getConfig } from "../config.server";
import { AppError } from "../errors";
import { checkRecaptcha, recaptchaStatus, RECAPTCHA_FIELD } from "./check.server";
import { clearRecaptchaOutcomes, OUTCOME_LIMIT, recentRecaptchaOutcomes, recordRecaptchaOutcome } from "./outcomes.server";
import { verifyRecaptchaToken } from "./verify.server";

/** A fetch answering siteverify with `body` (and remembering what it was sent). */
function stubFetch(body: unknown, status = 200) {
  const calls: { url: string; form: URLSearchParams }[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), form: new URLSearchParams(init?.body as URLSearchParams) });
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const base = { expectedAction: "login", secret: "s3cret", minScore: 0.5, verifyUrl: "https://verify.test/siteverify" };

describe("verifyRecaptchaToken", () => {
  it("accepts a successful token for the action with a good score, posting secret, token and IP", async () => {
    const { fetch, calls } = stubFetch({ success: true, score: 0.9, action: "login" });
    const verdict = await verifyRecaptchaToken({ ...base, token: "tok", remoteIp: "203.0.113.9", fetch });
    expect(verdict).toEqual({ success: true, reason: "ok", score: 0.9, action: "login", errorCodes: [] });
    expect(calls[0]!.url).toBe(base.verifyUrl);
    expect(Object.fromEntries(calls[0]!.form)).toEqual({ secret: "s3cret", response: "tok", remoteip: "203.0.113.9" });
  });

  it("refuses a score below the minimum", async () => {
    const { fetch } = stubFetch({ success: true, score: 0.3, action: "login" });
    expect(await verifyRecaptchaToken({ ...base, token: "tok", fetch })).toMatchObject({ success: false, reason: "low_score", score: 0.3 });
  });

  it("refuses a token minted for another action", async () => {
    const { fetch } = stubFetch({ success: true, score: 0.9, action: "register" });
    expect(await verifyRecaptchaToken({ ...base, token: "tok", fetch })).toMatchObject({ success: false, reason: "wrong_action", action: "register" });
  });

  it("refuses what Google rejects, keeping its error codes", async () => {
    const { fetch } = stubFetch({ success: false, "error-codes": ["invalid-input-response", "timeout-or-duplicate"] });
    expect(await verifyRecaptchaToken({ ...base, token: "tok", fetch })).toMatchObject({
      success: false,
      reason: "rejected",
      errorCodes: ["invalid-input-response", "timeout-or-duplicate"],
    });
  });

  it("refuses a missing token without asking Google", async () => {
    const { fetch, calls } = stubFetch({ success: true, score: 1, action: "login" });
    expect(await verifyRecaptchaToken({ ...base, token: "  ", fetch })).toMatchObject({ success: false, reason: "missing_token" });
    expect(calls).toHaveLength(0);
  });

  it("reports a timeout, a network error, an HTTP error and garbage as unavailable", async () => {
    const hanging = ((_url: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)))) as typeof globalThis.fetch;
    expect(await verifyRecaptchaToken({ ...base, token: "tok", fetch: hanging, timeoutMs: 20 })).toMatchObject({
      reason: "unavailable",
      errorCodes: ["timeout"],
    });
    const failing = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof globalThis.fetch;
    expect(await verifyRecaptchaToken({ ...base, token: "tok", fetch: failing })).toMatchObject({ reason: "unavailable", errorCodes: ["network-error"] });
    expect(await verifyRecaptchaToken({ ...base, token: "tok", fetch: stubFetch({}, 502).fetch })).toMatchObject({
      reason: "unavailable",
      errorCodes: ["http-502"],
    });
    expect(await verifyRecaptchaToken({ ...base, token: "tok", fetch: stubFetch("<html>").fetch })).toMatchObject({ success: false, reason: "unavailable" });
  });
});

describe("checkRecaptcha", () => {
  const configured = { ...getConfig({ ...process.env }), recaptchaSiteKey: "site", recaptchaSecretKey: "secret", recaptchaMinScore: 0.5 };
  const form = (token?: string) => {
    const data = new FormData();
    if (token !== undefined) data.set(RECAPTCHA_FIELD, token);
    return data;
  };
  afterEach(() => {
    clearRecaptchaOutcomes();
    vi.restoreAllMocks();
  });

  it("does nothing when the keys are not configured", async () => {
    const { fetch, calls } = stubFetch({ success: false });
    const off = { ...configured, recaptchaSiteKey: undefined, recaptchaSecretKey: undefined };
    expect(await checkRecaptcha(form(), "login", undefined, { config: off, fetch })).toBeNull();
    expect(calls).toHaveLength(0);
    expect(recentRecaptchaOutcomes()).toHaveLength(0);
  });

  it("warns once and stays off when only the secret is set", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const half = { ...configured, recaptchaSiteKey: undefined };
    expect(recaptchaStatus(half)).toMatchObject({ enabled: false, siteKeyPresent: false, secretKeyPresent: true, siteKey: null });
    recaptchaStatus(half);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain("RECAPTCHA_SITE_KEY");
  });

  it("refuses a missing token with the JavaScript message and a bad one with captcha_failed, recording both", async () => {
    const { fetch } = stubFetch({ success: true, score: 0.1, action: "register" });
    await expect(checkRecaptcha(form(), "register", undefined, { config: configured, fetch })).rejects.toMatchObject({
      code: "captcha_required",
      status: 400,
      message: expect.stringContaining("JavaScript"),
    });
    const error = await checkRecaptcha(form("tok"), "register", undefined, { config: configured, fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "captcha_failed" });
    expect(recentRecaptchaOutcomes().map((o) => [o.action, o.reason, o.score])).toEqual([
      ["register", "low_score", 0.1],
      ["register", "missing_token", null],
    ]);
  });

  it("lets the form through when siteverify is unavailable (fail-open), marking the outcome", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const failing = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof globalThis.fetch;
    expect(await checkRecaptcha(form("tok"), "login", undefined, { config: configured, fetch: failing })).toMatchObject({ reason: "unavailable" });
    expect(recentRecaptchaOutcomes()[0]).toMatchObject({ failedOpen: true, success: false });
  });

  it("keeps only the last 50 outcomes, newest first", () => {
    for (let i = 0; i < OUTCOME_LIMIT + 5; i++) {
      recordRecaptchaOutcome({ at: String(i), action: "login", score: i, success: true, reason: "ok", errorCodes: [], failedOpen: false });
    }
    const kept = recentRecaptchaOutcomes();
    expect(kept).toHaveLength(OUTCOME_LIMIT);
    expect(kept[0]!.score).toBe(OUTCOME_LIMIT + 4);
    expect(kept.at(-1)!.score).toBe(5);
  });
});
