import { describe, expect, it } from "vitest";
import { bodyHoldsForbiddenText, holdsForbiddenText, urlHoldsForbiddenText } from "./input-guard";

const encode = (text: string) => new TextEncoder().encode(text);

describe("input guard (issue 13 item 3)", () => {
  it("finds NUL and lone surrogates in strings, nested values and keys", () => {
    expect(holdsForbiddenText("ok")).toBe(false);
    expect(holdsForbiddenText({ a: ["x", { b: "y\u0000" }] })).toBe(true);
    expect(holdsForbiddenText({ ["k\u0000"]: 1 })).toBe(true);
    expect(holdsForbiddenText(["\ud800"])).toBe(true);
    expect(holdsForbiddenText({ emoji: "😀", n: 1, none: null })).toBe(false);
  });

  it("reads the path and the decoded query", () => {
    expect(urlHoldsForbiddenText(new URL("http://x/api/sse?api-token=abc%00"))).toBe(true);
    expect(urlHoldsForbiddenText(new URL("http://x/profile/%00"))).toBe(true);
    expect(urlHoldsForbiddenText(new URL("http://x/search?q=%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82"))).toBe(false);
  });

  it("reads url-encoded and multipart forms (not file contents), JSON and text bodies", async () => {
    expect(await bodyHoldsForbiddenText("application/x-www-form-urlencoded", encode("email=a%00b&password=x"))).toBe(true);
    expect(await bodyHoldsForbiddenText("application/x-www-form-urlencoded; charset=utf-8", encode("email=ab"))).toBe(false);
    expect(await bodyHoldsForbiddenText("application/json", encode('{"body":"hi\\u0000"}'))).toBe(true);
    expect(await bodyHoldsForbiddenText("application/json", encode('{"body":"hi \\\\u0000 literally"}'))).toBe(false);
    const form = new FormData();
    form.set("name", "ok");
    form.set("avatar", new Blob([new Uint8Array([0, 1, 2, 0])], { type: "image/png" }), "a.png");
    const multipart = new Request("http://x/", { method: "POST", body: form });
    const bytes = new Uint8Array(await multipart.arrayBuffer());
    expect(await bodyHoldsForbiddenText(multipart.headers.get("Content-Type"), bytes)).toBe(false);
    form.set("name", "bad\u0000");
    const bad = new Request("http://x/", { method: "POST", body: form });
    expect(await bodyHoldsForbiddenText(bad.headers.get("Content-Type"), new Uint8Array(await bad.arrayBuffer()))).toBe(true);
    expect(await bodyHoldsForbiddenText("application/octet-stream", new Uint8Array([0]))).toBe(false);
  });
});
