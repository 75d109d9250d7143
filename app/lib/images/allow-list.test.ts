import { describe, expect, it } from "vitest";
import { parseAllowedHosts } from "../config.server";
import { classifyImageUrl, isAllowedHost } from "./allow-list";

const site = "https://shodka.example";
const allowed = parseAllowedHosts("cdn.example.com, *.blob.example.net ,img.example.org:8443");
const classify = (url: string) => classifyImageUrl(url, site, allowed);
const codeOf = (url: string) => {
  try {
    classify(url);
  } catch (error) {
    return (error as { code: string }).code;
  }
  return "allowed";
};

describe("IMAGE_ALLOWED_HOSTS", () => {
  it("parses a comma-separated list, lower-cased, and refuses entries that are not hosts", () => {
    expect(parseAllowedHosts(undefined)).toEqual([]);
    expect(parseAllowedHosts("  ")).toEqual([]);
    expect(parseAllowedHosts("CDN.Example.com")).toEqual(["cdn.example.com"]);
    for (const bad of ["https://cdn.example.com", "cdn.example.com/images", "*", "*.com.", "a b"]) {
      expect(() => parseAllowedHosts(bad)).toThrow(/IMAGE_ALLOWED_HOSTS/);
    }
  });

  it("matches exact hosts, subdomains of *. entries, and ports only when listed", () => {
    expect(isAllowedHost(new URL("https://cdn.example.com/a.png"), allowed)).toBe(true);
    expect(isAllowedHost(new URL("https://CDN.example.com:443/a.png"), allowed)).toBe(true);
    expect(isAllowedHost(new URL("https://cdn.example.com:8080/a.png"), allowed)).toBe(false);
    expect(isAllowedHost(new URL("https://a.b.blob.example.net/x"), allowed)).toBe(true);
    expect(isAllowedHost(new URL("https://blob.example.net/x"), allowed)).toBe(false);
    expect(isAllowedHost(new URL("https://evilblob.example.net/x"), allowed)).toBe(false);
    expect(isAllowedHost(new URL("https://img.example.org:8443/x"), allowed)).toBe(true);
    expect(isAllowedHost(new URL("https://img.example.org/x"), allowed)).toBe(false);
    expect(isAllowedHost(new URL("https://cdn.example.com.evil.test/x"), allowed)).toBe(false);
  });
});

describe("classifying the url parameter (no server-side request forgery)", () => {
  it("reads paths on this site and the site's own absolute URLs from disk", () => {
    expect(classify("/uploads/avatars/1.webp")).toEqual({ kind: "local", path: "/uploads/avatars/1.webp" });
    expect(classify("/images/a%20b.png?v=2")).toEqual({ kind: "local", path: "/images/a b.png" });
    expect(classify("https://shodka.example/images/bg.png")).toEqual({ kind: "local", path: "/images/bg.png" });
  });

  it("fetches only allowed hosts over http(s)", () => {
    const source = classify("https://cdn.example.com/a.png");
    expect(source.kind === "remote" && source.url.href).toBe("https://cdn.example.com/a.png");
    expect(codeOf("http://127.0.0.1/a.png")).toBe("image_host_not_allowed");
    expect(codeOf("http://169.254.169.254/latest/meta-data")).toBe("image_host_not_allowed");
    expect(codeOf("https://shodka.example.evil.test/a.png")).toBe("image_host_not_allowed");
    expect(codeOf("http://shodka.example/a.png")).toBe("image_host_not_allowed");
  });

  it("refuses other schemes, credentials, protocol-relative URLs and dot segments", () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://cdn.example.com/a.png",
      "data:image/png;base64,AAAA",
      "https://user:pw@cdn.example.com/a.png",
      "//cdn.example.com/a.png",
      "/uploads/../../etc/passwd",
      "/uploads/%2e%2e/%2E%2E/etc/passwd",
      "/uploads/..%2f..%2fetc/passwd",
      "/images/..\\..\\etc\\passwd",
      "https://cdn.example.com/../a.png",
      "images/a.png",
      "",
      `/${"a".repeat(2100)}`,
    ]) {
      expect(codeOf(url), url).toBe("invalid_image_url");
    }
  });
});
