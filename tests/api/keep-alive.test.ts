/**
 * Idle keep-alive connections outlive the clients' own idle timers. With Node's default of 5 s
 * the server closed a connection at the moment a browser or proxy reused it, and that request
 * failed with ECONNRESET (seen in the journeys on a loaded machine). The server now keeps idle
 * connections 65 s and says so in the Keep-Alive header, longer than the 60 s idle timeout of
 * common load balancers, so the client always gives up first.
 */
import { connect } from "node:net";
import { describe, expect, inject, it } from "vitest";

/** Sends one keep-alive HTTP/1.1 request on a raw socket and resolves with the response's head. */
function responseHead(baseUrl: string, path: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`);
    });
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end >= 0) {
        socket.destroy();
        resolve(received.slice(0, end));
      }
    });
    socket.once("error", reject);
  });
}

describe("keep-alive connections", () => {
  it("are kept idle for 65 seconds, as the Keep-Alive header tells the client", async () => {
    const head = await responseHead(inject("baseUrl"), "/api/build");
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head).toMatch(/^Keep-Alive: timeout=65$/im);
  });
});
