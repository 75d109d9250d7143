/**
 * The Content-Security-Policy keeps pictures on this site (issue 13 item 11): `img-src 'self'
 * data: blob:` — posts cannot embed tracking images from anywhere; their pictures load through
 * the image endpoint (/api/image), which fetches only IMAGE_ALLOWED_HOSTS.
 */
import { describe, expect, it } from "vitest";
import { Client } from "./client";

describe("Content-Security-Policy (issue 13 item 11)", () => {
  it("allows images only from this site, data: and blob: URLs", async () => {
    const response = await new Client().fetch("/");
    const policy = response.headers.get("Content-Security-Policy") ?? "";
    const imgSrc = /(?:^|;)\s*img-src ([^;]*)/.exec(policy)?.[1]?.trim().split(/\s+/);
    expect(imgSrc).toEqual(["'self'", "data:", "blob:"]);
  });
});
