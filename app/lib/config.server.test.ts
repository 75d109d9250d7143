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
