import { describe, expect, it } from "vitest";
import { startServer } from "../setup/server";

describe("server lifecycle", () => {
  it("starts empty with SEED_DEMO=0 and shuts down cleanly on SIGTERM, finishing the request in flight", async () => {
    const server = await startServer({ SEED_DEMO: "0" });
    const feed = await (await fetch(`${server.baseUrl}/api/profile/1/posts`)).json();
    expect(feed.errors.code).toBe("profile_not_found");
    const slow = fetch(`${server.baseUrl}/`);
    const code = await server.stop();
    expect((await slow).status).toBe(200);
    expect(code).toBe(0);
    expect(server.output()).toContain("SIGTERM received");
  });
});
