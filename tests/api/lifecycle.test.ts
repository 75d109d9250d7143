import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { startServer } from "../setup/server";

/** Resolves with everything read from `socket` once `pattern` has appeared in it. */
function readUntil(socket: ReturnType<typeof connect>, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk.toString();
      if (pattern.test(received)) {
        socket.off("data", onData);
        resolve(received);
      }
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.once("close", () => reject(new Error(`closed before ${pattern}: ${received}`)));
  });
}

describe("server lifecycle", () => {
  it("starts empty with SEED_DEMO=0 and on SIGTERM finishes the request in flight, then exits 0", async () => {
    const server = await startServer({ SEED_DEMO: "0" });
    const feed = await (await fetch(`${server.baseUrl}/api/profile/1/posts`)).json();
    expect(feed.errors.code).toBe("profile_not_found");

    // A form post whose body is still on its way: the server acknowledges the headers with
    // "100 Continue", so we know the request is in flight before the signal arrives.
    const { port } = new URL(server.baseUrl);
    const socket = connect(Number(port), "127.0.0.1");
    const body = "email=nobody%40example.test&password=wrong-password";
    socket.write(
      `POST /api/auth/callback/credentials HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await readUntil(socket, /100 Continue/);
    const stopped = server.stop();
    const answer = readUntil(socket, /\r\n\r\n[\s\S]*"code"/);
    socket.write(body);
    expect(await answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(await stopped).toBe(0);
    expect(server.output()).toContain("SIGTERM received");
  });
});
