import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getConfig } from "./config.server";

const dataDir = mkdtempSync(path.join(tmpdir(), "config-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const configWith = (env: Record<string, string>) => getConfig({ DATA_DIR: dataDir, SESSION_SECRET: "test-secret", ...env });

describe("REALTIME_SSE_PATH (docs/product/realtime.md#transports: a configured event-stream endpoint)", () => {
  it("defaults to /api/sse, the path the server answers", () => {
    expect(configWith({}).realtimeSsePath).toBe("/api/sse");
  });

  it("takes another path, without a trailing slash", () => {
    expect(configWith({ REALTIME_SSE_PATH: "/live/events/" }).realtimeSsePath).toBe("/live/events");
  });

  it("refuses anything that is not a path on this origin", () => {
    for (const value of ["events", "https://elsewhere.example/sse", "/api/sse?x=1", "/a b"]) {
      expect(() => configWith({ REALTIME_SSE_PATH: value })).toThrow(/REALTIME_SSE_PATH/);
    }
  });
});

describe("IMAGE_ALLOWED_HOSTS (issue 6: the image endpoint's allow-list)", () => {
  it("is empty by default: only the site itself", () => {
    expect(configWith({}).imageAllowedHosts).toEqual([]);
  });

  it("lists hosts, and refuses a URL in place of a host", () => {
    expect(configWith({ IMAGE_ALLOWED_HOSTS: "cdn.example.com,*.blob.example.net" }).imageAllowedHosts).toEqual(["cdn.example.com", "*.blob.example.net"]);
    expect(() => configWith({ IMAGE_ALLOWED_HOSTS: "https://cdn.example.com/" })).toThrow(/IMAGE_ALLOWED_HOSTS/);
  });
});

describe("ASSISTANT_* (issue 11: the assistant of /chatgpt)", () => {
  it("is off without a base URL and a model, with the documented defaults", () => {
    expect(configWith({}).assistant).toMatchObject({ enabled: false, dailyQuota: 50, timeoutMs: 30_000, maxPromptChars: 4000 });
    expect(configWith({ ASSISTANT_BASE_URL: "http://127.0.0.1:9/v1" }).assistant.enabled).toBe(false);
  });

  it("is on with both, keeping the values given", () => {
    const assistant = configWith({
      ASSISTANT_BASE_URL: "https://llm.example/v1/",
      ASSISTANT_MODEL: "gpt-4o-mini",
      ASSISTANT_API_KEY: "sk-test",
      ASSISTANT_DAILY_QUOTA: "5",
      ASSISTANT_TIMEOUT_MS: "1500",
      ASSISTANT_MAX_PROMPT_CHARS: "100",
    }).assistant;
    expect(assistant).toMatchObject({
      enabled: true,
      baseUrl: "https://llm.example/v1",
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      dailyQuota: 5,
      timeoutMs: 1500,
      maxPromptChars: 100,
    });
  });

  it("refuses malformed values, naming the variable", () => {
    expect(() => configWith({ ASSISTANT_DAILY_QUOTA: "0" })).toThrow(/ASSISTANT_DAILY_QUOTA/);
    expect(() => configWith({ ASSISTANT_TIMEOUT_MS: "soon" })).toThrow(/ASSISTANT_TIMEOUT_MS/);
    expect(() => configWith({ ASSISTANT_BASE_URL: "ftp://x" })).toThrow(/ASSISTANT_BASE_URL/);
  });
});
