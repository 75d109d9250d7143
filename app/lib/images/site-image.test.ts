import { describe, expect, it } from "vitest";
import { siteImageUrl } from "./site-image";

const SITE = "https://shodka.example";

describe("siteImageUrl (issue 13 item 11)", () => {
  it("shows this site's pictures, through the endpoint when it can resize them", () => {
    expect(siteImageUrl("/uploads/a.png", 640, SITE, [])).toBe("/api/image?url=%2Fuploads%2Fa.png&w=640");
    expect(siteImageUrl("https://shodka.example/images/bg.jpg", 1536, SITE, [])).toBe("/api/image?url=%2Fimages%2Fbg.jpg&w=1536");
    expect(siteImageUrl("/images/logo.svg", 640, SITE, [])).toBe("/images/logo.svg");
  });

  it("sends allowed hosts' pictures through the endpoint and refuses every other address", () => {
    expect(siteImageUrl("https://cdn.example.com/x.png", 640, SITE, ["cdn.example.com"])).toBe("/api/image?url=https%3A%2F%2Fcdn.example.com%2Fx.png&w=640");
    for (const src of ["https://tracker.example/p.gif", "//tracker.example/p.gif", "javascript:alert(1)", "", "/../etc/passwd"]) {
      expect(siteImageUrl(src, 640, SITE, ["cdn.example.com"]), src).toBeNull();
    }
  });
});
